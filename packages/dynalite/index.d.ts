// fugitive: the types of what the platform calls of index.js (dynalite ships none): the server, the
// store it answers from, and answer, a request answered without HTTP.
import type { Server } from "node:http";

declare namespace dynalite {
  /** The engine's store (db/index.js, create): its abstract-level database and tables. */
  interface Store {
    db: import("abstract-level").AbstractLevel<Uint8Array | string, string, string>;
  }
  /** An item as the engine keeps it (AttributeValues, a binary value as base64). */
  type Item = Record<string, Record<string, unknown>>;
  /** An UpdateItem's item before it (absent when there was none) and after it. */
  interface Images {
    before?: Item;
    after: Item;
  }
  interface Options {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
    verbose?: boolean;
    debug?: boolean;
  }
  /** Answers `data`, a request's parsed body (undefined: none), for `target`, its X-Amz-Target, with
   *  `store`, as the HTTP handler does once the body is read: `cb` gets the status and the body the
   *  HTTP response would carry as JSON, and an UpdateItem's images when it succeeded. */
  function answer(store: Store, target: string, data: unknown, cb: (statusCode: number, body: unknown, images?: Images) => void): void;
  /** Checks and parses a request's expressions in place; answers what is wrong, or undefined. */
  function validateExpressions(data: Record<string, unknown>): string | undefined;
}

/** dynalite's HTTP server, with the store it answers from. */
declare function dynalite(options?: dynalite.Options): Server & { store: dynalite.Store };

export = dynalite;
