// Reference dictionaries: platform-wide, versioned items.
import type { SourcedValue } from "../dictionaries/reference-data";

/** One version of a reference-dictionary item. Dictionaries are platform-wide reference data,
 *  the one kind of item that belongs to no company. */
export interface DictionaryItemVersion {
  dictionary: string;
  id: number;
  name: string;
  values: Record<string, SourcedValue>;
  version: number;
  /** yyyy-MM-dd from which this version applies. */
  effective_from: string;
  changed_at: string;
  changed_by: string;
  reason: string;
}

export interface DictionaryRepository {
  /** Writes version 1 of each item that does not exist yet, side by side, and bumps the change
   *  counter once; the number written. */
  seed(items: readonly DictionaryItemVersion[]): Promise<number>;
  /** Current versions, by id. Kept in the process while the stored change counter is the one
   *  they were read at; each call reads the counter (one small consistent read). */
  list(dictionary: string): Promise<DictionaryItemVersion[]>;
  /** The same repository for one request: the counter is read once, right away, so a request
   *  that reads several dictionaries pays one read, overlapping its other reads. */
  forOneRequest(): DictionaryRepository;
  /** The change counter (one small consistent read): it moves with every change of any dictionary,
   *  so what was made of the dictionaries at one count still holds at it (domain/heavy-reads.ts). */
  changeCount(): Promise<number>;
  get(dictionary: string, id: number): Promise<DictionaryItemVersion | undefined>;
  history(dictionary: string, id: number): Promise<DictionaryItemVersion[]>;
  /** Every version of every item of the dictionary (D41: which applies to a reporting year), by
   *  id and version; kept in the process as `list` is. */
  versions(dictionary: string): Promise<DictionaryItemVersion[]>;
  /** Makes `next` current if the current version is still `next.version - 1`; otherwise Conflict. */
  putVersion(next: DictionaryItemVersion): Promise<void>;
}
