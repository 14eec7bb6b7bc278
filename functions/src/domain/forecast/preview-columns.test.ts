import { beforeEach, describe, expect, it } from "vitest";
import type { ForecastColumns } from "../../ports";
import {
  KEPT_MS,
  MAX_KEPT_BYTES,
  MAX_KEPT_PER_COMPANY,
  forgetPreviewColumns,
  keepPreviewColumns,
  keptPreviewColumns,
  takePreviewColumns,
  uploadDigest,
} from "./preview-columns";
import { hostRuntime } from "../../events/runtime";

/** A host of its own: its runtime keeps what the previews keep. */
const host = { runtime: hostRuntime({ subscribers: [], deps: () => ({}) }) };

const columns = (rows: number): ForecastColumns => ({
  count: rows,
  id: new Float64Array(rows),
  features: new Float64Array(rows * 7),
  y: new Float64Array(rows),
  pressure: new Float64Array(rows),
  time: new Float64Array(rows),
  timeKind: new Uint8Array(rows),
});
const key = (company: string, n: number) => `forecast-uploads/${company}/0190a1b2-c3d4-7e5f-8a9b-${String(n).padStart(12, "0")}.csv`;
const digest = uploadDigest(new TextEncoder().encode("x1;x2\n1;2"));
const now = 1_000_000;

beforeEach(() => {
  for (const company of ["a", "b"]) for (let n = 0; n < 20; n++) forgetPreviewColumns(host, key(company, n));
});

describe("a preview's columns kept for its save", () => {
  it("are found once, by the company that previewed, for the same upload and the same bytes", () => {
    const kept = columns(10);
    keepPreviewColumns(host, "a", key("a", 1), digest, kept, now);
    expect(takePreviewColumns(host, "b", key("a", 1), () => digest, now)).toBeUndefined();
    expect(takePreviewColumns(host, "a", key("a", 2), () => digest, now)).toBeUndefined();
    expect(takePreviewColumns(host, "a", key("a", 1), () => digest, now)).toBe(kept);
    expect(takePreviewColumns(host, "a", key("a", 1), () => digest, now)).toBeUndefined();
    // Bytes written again under the key, or an entry past its time: a miss, and dropped.
    keepPreviewColumns(host, "a", key("a", 1), digest, kept, now);
    expect(takePreviewColumns(host, "a", key("a", 1), () => uploadDigest(new Uint8Array([1])), now)).toBeUndefined();
    expect(keptPreviewColumns(host).entries).toBe(0);
    keepPreviewColumns(host, "a", key("a", 1), digest, kept, now);
    expect(takePreviewColumns(host, "a", key("a", 1), () => digest, now + KEPT_MS)).toBeUndefined();
    // The upload used or deleted: its columns go with it.
    keepPreviewColumns(host, "a", key("a", 1), digest, kept, now);
    forgetPreviewColumns(host, key("a", 1));
    expect(keptPreviewColumns(host)).toEqual({ entries: 0, bytes: 0 });
  });

  it("stay within their bounds: a few per company, a cap on their memory, the oldest dropped first", () => {
    for (let n = 0; n < MAX_KEPT_PER_COMPANY + 2; n++) keepPreviewColumns(host, "a", key("a", n), digest, columns(10), now + n);
    keepPreviewColumns(host, "b", key("b", 0), digest, columns(10), now);
    expect(keptPreviewColumns(host).entries).toBe(MAX_KEPT_PER_COMPANY + 1);
    expect(takePreviewColumns(host, "a", key("a", 0), () => digest, now)).toBeUndefined();
    expect(takePreviewColumns(host, "a", key("a", MAX_KEPT_PER_COMPANY + 1), () => digest, now)).toBeDefined();
    // One company's many previews do not push out another's.
    expect(takePreviewColumns(host, "b", key("b", 0), () => digest, now)).toBeDefined();
    // Past the memory cap the oldest go; columns larger than the cap are not kept at all.
    const rows = Math.floor(MAX_KEPT_BYTES / (10 * 8 + 1) / 2) + 1;
    keepPreviewColumns(host, "a", key("a", 10), digest, columns(rows), now);
    keepPreviewColumns(host, "b", key("b", 10), digest, columns(rows), now);
    expect(keptPreviewColumns(host).bytes).toBeLessThanOrEqual(MAX_KEPT_BYTES);
    expect(takePreviewColumns(host, "a", key("a", 10), () => digest, now)).toBeUndefined();
    expect(takePreviewColumns(host, "b", key("b", 10), () => digest, now)).toBeDefined();
    keepPreviewColumns(host, "a", key("a", 11), digest, columns(rows * 2), now);
    expect(takePreviewColumns(host, "a", key("a", 11), () => digest, now)).toBeUndefined();
  });
});
