// What every domain function receives: the ports and the configuration, injected by the host.
import type { AppConfig } from "../config";
import type { BlobStore, Clock, Repositories, SpreadsheetWorker, User } from "../ports";

export interface Deps {
  repos: Repositories;
  blobs: BlobStore;
  clock: Clock;
  config: AppConfig;
  /** Exports and xlsx templates: in-process locally, a worker function in AWS. */
  spreadsheets: SpreadsheetWorker;
}

/** The signed-in user a request acts for. Company scoping starts from here. */
export type Actor = Pick<User, "id" | "company" | "email" | "role">;

export const systemClock: Clock = { now: () => new Date() };
