// Types of sqlite-level.mjs: an abstract-level 3 database on node:sqlite.
import type { AbstractDatabaseOptions, AbstractLevel, AbstractOpenOptions } from "abstract-level";
/** The store's data file and lock file in its folder. */
export const DATA_FILE: string;
export const LOCK_FILE: string;
export class SqliteLevel<K = string, V = string> extends AbstractLevel<Uint8Array | string, K, V> {
  constructor(location: string, options?: AbstractDatabaseOptions<K, V> & AbstractOpenOptions);
  get location(): string;
}
/** Whether `location` holds a store of this kind. */
export function holdsSqliteStore(location: string): boolean;
