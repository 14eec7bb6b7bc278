// Types of dynalite-answer.mjs.
import type { EngineStore } from "./dynalite-engine.mjs";

/** The header that asks for an UpdateItem's images. */
export const ITEM_IMAGES_HEADER: string;

/** An item as the engine keeps it (AttributeValues, a binary value as base64). */
export type EngineItem = Record<string, Record<string, unknown>>;

export interface EngineAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** An UpdateItem's item before it (absent when there was none) and after it, when asked. */
  images?: { before?: EngineItem; after: EngineItem };
}
/** Answers one request with `store` (dynalite's engine) as its HTTP handler would and calls `reply`
 *  with the answer. */
export function answerRequest(store: EngineStore, headers: Record<string, string>, body: string, reply: (answer: EngineAnswer) => void): void;
