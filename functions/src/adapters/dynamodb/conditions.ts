// What a failed condition expression means to a write: a conflict the user sees (409), or simply
// "not done" for the caller to act on.
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { Conflict } from "../../domain/errors";

/** The write's result, or a Conflict with `conflictDetail` when its condition failed. */
export async function conditional<T>(write: Promise<T>, conflictDetail: string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new Conflict(conflictDetail);
    throw error;
  }
}

/** Whether the write happened: false when its condition failed. */
export async function unlessConditionFails(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
