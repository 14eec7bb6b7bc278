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
export type Actor = Pick<User, "id" | "company" | "email" | "role"> & {
  /** The user as authentication read it for this request, without its password hash (get_me
   *  answers from it instead of reading the user again). */
  profile?: Omit<User, "password_hash">;
};

export const systemClock: Clock = { now: () => new Date() };
