// The columns a forecast's preview read from a history sent straight to storage, kept by the host
// (its runtime, in this process's memory) for the save that names the same upload (domain/forecast/uploads.ts): the save
// then forecasts them without reading the file's 52 560 rows again. Only a saving, never a source
// of truth: an entry is found only by the company that previewed, for the same upload key and the
// same bytes (their SHA-256: an upload written again under its key is not the previewed one), once,
// within KEPT_MS; anything else — another process (each Lambda instance has its own memory, and the
// preview and the save are two requests), an evicted or expired entry — is a miss, and the save
// reads the file as it always did.
import { createHash } from "node:crypto";
import type { ForecastColumns } from "../../ports";
import type { Deps } from "../context";
import { keptState } from "../../ports/runtime";

/** How long a preview's columns wait for their save. */
export const KEPT_MS = 60 * 60 * 1000;
/** The memory all kept columns may take (a year of 10-minute rows: about 4 MB). */
export const MAX_KEPT_BYTES = 64 * 1024 * 1024;
/** Entries one company may keep: a preview or two ahead of their saves, not a store of files. */
export const MAX_KEPT_PER_COMPANY = 2;

/** The previews' columns by `${company}\n${upload key}`, oldest first, and their bytes. */
interface PreviewColumns {
  kept: Map<string, KeptColumns>;
  bytes: number;
}

interface KeptColumns {
  company: string;
  digest: string;
  columns: ForecastColumns;
  bytes: number;
  until: number;
}

const previewColumns = keptState("preview columns", (): PreviewColumns => ({ kept: new Map(), bytes: 0 }));

const entryKey = (company: string, upload: string) => `${company}\n${upload}`;

/** The digest that ties kept columns to the bytes they were read from. */
export function uploadDigest(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("base64url");
}

const sizeOf = (c: ForecastColumns) =>
  c.id.byteLength + c.features.byteLength + c.y.byteLength + c.pressure.byteLength + c.time.byteLength + c.timeKind.byteLength;

function drop(store: PreviewColumns, key: string): void {
  const entry = store.kept.get(key);
  if (!entry) return;
  store.kept.delete(key);
  store.bytes -= entry.bytes;
}

/** Keeps the preview's columns of `upload` (bytes of `digest`) for `company`'s save. */
export function keepPreviewColumns(
  deps: Pick<Deps, "runtime">,
  company: string,
  upload: string,
  digest: string,
  columns: ForecastColumns,
  now: number,
): void {
  const store = deps.runtime.kept(previewColumns);
  const key = entryKey(company, upload);
  drop(store, key);
  const bytes = sizeOf(columns);
  if (bytes > MAX_KEPT_BYTES) return;
  for (const [k, entry] of store.kept) if (entry.until <= now) drop(store, k);
  const own = [...store.kept].filter(([, entry]) => entry.company === company);
  for (const [k] of own.slice(0, Math.max(0, own.length - MAX_KEPT_PER_COMPANY + 1))) drop(store, k);
  for (const [k] of store.kept) {
    if (store.bytes + bytes <= MAX_KEPT_BYTES) break;
    drop(store, k);
  }
  store.kept.set(key, { company, digest, columns, bytes, until: now + KEPT_MS });
  store.bytes += bytes;
}

/** The columns `company`'s preview kept for `upload` read from bytes of `digest` (computed only when
 *  there is an entry), taken (a save is their one use); undefined on any miss. */
export function takePreviewColumns(
  deps: Pick<Deps, "runtime">,
  company: string,
  upload: string,
  digest: () => string,
  now: number,
): ForecastColumns | undefined {
  const store = deps.runtime.kept(previewColumns);
  const key = entryKey(company, upload);
  const entry = store.kept.get(key);
  if (!entry) return undefined;
  drop(store, key);
  if (entry.company !== company || entry.until <= now || entry.digest !== digest()) return undefined;
  return entry.columns;
}

/** The upload is gone (used or deleted): its columns with it, whoever kept them. */
export function forgetPreviewColumns(deps: Pick<Deps, "runtime">, upload: string): void {
  const store = deps.runtime.kept(previewColumns);
  for (const [k] of store.kept) if (k.endsWith(`\n${upload}`)) drop(store, k);
}

/** What is kept now: for the tests of the bounds. */
export function keptPreviewColumns(deps: Pick<Deps, "runtime">): { entries: number; bytes: number } {
  const store = deps.runtime.kept(previewColumns);
  return { entries: store.kept.size, bytes: store.bytes };
}
