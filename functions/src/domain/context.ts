// What every domain function receives: the ports and the configuration, injected by the host.
import type { AppConfig } from "../config";
import type { UploadedFile } from "../files/tabular";
import type { BlobStore, Clock, ForecastModelVersion, Repositories, SpreadsheetWorker, User } from "../ports";

export interface Deps {
  repos: Repositories;
  blobs: BlobStore;
  clock: Clock;
  config: AppConfig;
  /** Exports and xlsx templates: in-process locally, a worker function in AWS. */
  spreadsheets: SpreadsheetWorker;
  /** A large forecast upload read and predicted off the request thread (worker threads locally);
   *  without it, in this process (AWS: one request per API instance, nobody waits behind it). */
  forecastFiles?: ForecastFiles;
}

/** A forecast upload's rows with their predictions, as the stored JSON, and the item's summary. */
export interface ForecastFileResult {
  summary: Record<string, unknown>;
  json: Uint8Array;
}

export interface ForecastFiles {
  forecastFromFile(file: UploadedFile, version: ForecastModelVersion): Promise<ForecastFileResult>;
}

/** The signed-in user a request acts for. Company scoping starts from here. */
export type Actor = Pick<User, "id" | "company" | "email" | "role"> & {
  /** The user as authentication read it for this request, without its password hash (get_me
   *  answers from it instead of reading the user again). */
  profile?: Omit<User, "password_hash">;
  /** This request already holds a heavy-work slot (domain/heavy-work.ts). */
  heavySlot?: boolean;
};

export const systemClock: Clock = { now: () => new Date() };
