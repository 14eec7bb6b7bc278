import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fsBlobStore } from "./fs-blob-store";

/** The instant the tests stamp their files as written (their mtimes): the sweeps' cutoffs are taken from it. */
const WRITTEN = Date.parse("2026-11-16T03:00:00Z");

const streamOf = (chunks: Uint8Array[], fail?: Error) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (fail) controller.error(fail);
      else controller.close();
    },
  });

async function read(stream: ReadableStream<Uint8Array>): Promise<number[]> {
  const out: number[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) out.push(...chunk);
  return out;
}

describe("fs blob store: listing by age", () => {
  it("lists the blobs of an area written before a time, not their type files, markers or temporary files", async () => {
    const root = mkdtempSync(join(tmpdir(), "blobs-age-"));
    const store = fsBlobStore(root);
    await store.put("uploads/c/k/old.csv", new Uint8Array([1]), "text/csv");
    await store.put("uploads/c/k/new.csv", new Uint8Array([1]), "text/csv");
    await store.put("forecasts/c/k/other-area.json", new Uint8Array([1]), "application/json");
    await store.putStream("uploads/c/k/pending.csv", streamOf([new Uint8Array([1])]), "text/csv", { pending: true });
    writeFileSync(join(root, "uploads/c/k/new.csv.1.2000001.tmp"), "");
    const old = new Date(WRITTEN - 48 * 3600 * 1000);
    const written = new Date(WRITTEN);
    utimesSync(join(root, "uploads/c/k/new.csv"), written, written);
    for (const file of ["old.csv", "old.csv.type", "pending.csv", "pending.csv.pending", "new.csv.1.2000001.tmp"]) {
      utimesSync(join(root, "uploads/c/k", file), old, old);
    }
    const pages: string[][] = [];
    for await (const page of store.keysWrittenBefore("uploads", new Date(WRITTEN - 24 * 3600 * 1000))) pages.push(page);
    expect(pages.flat().sort()).toEqual(["uploads/c/k/old.csv", "uploads/c/k/pending.csv"]);
    await expect(async () => {
      for await (const _ of store.keysWrittenBefore("../x", new Date(WRITTEN))) void _;
    }).rejects.toThrow(/invalid blob area/);
  });
});

describe("fs blob store: streams", () => {
  it("writes a stream and reads byte ranges of it", async () => {
    const root = mkdtempSync(join(tmpdir(), "blobs-"));
    const store = fsBlobStore(root);
    const size = await store.putStream(
      "media/instruction/a",
      streamOf([new Uint8Array([1, 2, 3]), new Uint8Array([4, 5, 6, 7])]),
      "video/mp4",
    );
    expect(size).toBe(7);
    expect(await read((await store.getRange("media/instruction/a", 2, 4))!)).toEqual([3, 4, 5]);
    expect(await store.get("media/instruction/a")).toMatchObject({ contentType: "video/mp4" });
    expect(await store.getRange("media/instruction/missing", 0, 1)).toBeUndefined();
    expect(await store.stat("media/instruction/a")).toEqual({ size: 7, contentType: "video/mp4" });
    expect(await store.stat("media/instruction/missing")).toBeUndefined();
  });

  it("leaves nothing behind when the stream fails, and keeps keys inside the folder", async () => {
    const root = mkdtempSync(join(tmpdir(), "blobs-"));
    const store = fsBlobStore(root);
    const failure = Object.assign(new Error("too large"), { status: 413 });
    await expect(store.putStream("media/presentation/b", streamOf([new Uint8Array(10)], failure), "video/mp4")).rejects.toBe(failure);
    expect(readdirSync(join(root, "media/presentation"))).toEqual([]);
    await expect(store.putStream("../escape", streamOf([new Uint8Array(1)]), "video/mp4")).rejects.toThrow(/invalid blob key/);
  });
});

describe("fs blob store: pending direct uploads", () => {
  const DOC = "documents/0199a0a0-0000-7000-8000-000000000001";
  const VIDEO = "media/instruction/0199a0a0-0000-7000-8000-000000000002";
  const DAY = 24 * 60 * 60 * 1000;
  const setup = () => {
    const root = mkdtempSync(join(tmpdir(), "blobs-"));
    return { root, store: fsBlobStore(root) };
  };
  /** Backdates a file, as if written `ms` before WRITTEN: the sweep goes by the marker's mtime. */
  const age = (file: string, ms: number) => {
    const then = new Date(WRITTEN - ms);
    utimesSync(file, then, then);
  };
  const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

  it("marks a pending write beside the blob, and confirm clears it (twice is fine)", async () => {
    const { root, store } = setup();
    expect(await store.putStream(DOC, streamOf([new Uint8Array([1, 2])]), "application/pdf", { pending: true })).toBe(2);
    const name = DOC.split("/")[1];
    expect(files(join(root, "documents"))).toEqual([name, `${name}.pending`, `${name}.type`]);
    expect(await store.stat(DOC)).toEqual({ size: 2, contentType: "application/pdf" });
    await store.confirmUpload(DOC);
    expect(files(join(root, "documents"))).toEqual([name, `${name}.type`]);
    await store.confirmUpload(DOC);
    // A blob written otherwise was never pending: nothing to confirm.
    await store.put("documents/plain", new Uint8Array([1]), "application/pdf");
    await store.confirmUpload("documents/plain");
    // Deleting a pending blob takes its marker too.
    await store.putStream(VIDEO, streamOf([new Uint8Array(3)]), "video/mp4", { pending: true });
    await store.delete(VIDEO);
    expect(files(join(root, "media/instruction"))).toEqual([]);
  });

  it("writes a pending upload once: the key taken is EEXIST and leaves the first intact", async () => {
    const { root, store } = setup();
    await store.putStream(DOC, streamOf([new Uint8Array([1])]), "application/pdf", { pending: true });
    await store.confirmUpload(DOC);
    await expect(store.putStream(DOC, streamOf([new Uint8Array([9, 9])]), "text/plain", { pending: true })).rejects.toMatchObject({
      code: "EEXIST",
    });
    expect(await store.get(DOC)).toEqual({ body: new Uint8Array([1]), contentType: "application/pdf" });
    // Not marked pending again by the refused write, which leaves no temporary file either.
    const name = DOC.split("/")[1];
    expect(files(join(root, "documents"))).toEqual([name, `${name}.type`]);
  });

  it("sweeps pending blobs older than the cutoff, never confirmed ones, nor anything outside the areas", async () => {
    const { root, store } = setup();
    const abandoned = DOC;
    const fresh = "documents/0199a0a0-0000-7000-8000-000000000003";
    const confirmed = "documents/0199a0a0-0000-7000-8000-000000000004";
    const plain = "media/presentation/0199a0a0-0000-7000-8000-000000000005";
    for (const key of [abandoned, fresh, confirmed, VIDEO])
      await store.putStream(key, streamOf([new Uint8Array(4)]), "application/pdf", { pending: true });
    await store.confirmUpload(confirmed);
    await store.put(plain, new Uint8Array(4), "video/mp4");
    // Outside documents/ and media/: a marker-like file in another area is not the sweep's business.
    await store.putStream("uploads/x", streamOf([new Uint8Array(4)]), "text/csv", { pending: true });
    for (const key of [abandoned, VIDEO, "uploads/x"]) age(join(root, `${key}.pending`), 2 * DAY);
    age(join(root, `${fresh}.pending`), 0);
    for (const key of [confirmed, plain]) {
      age(join(root, key), 30 * DAY);
      age(join(root, `${key}.type`), 30 * DAY);
    }
    // A marker left without its blob, and a temporary file of an interrupted write.
    const orphan = join(root, "documents/0199a0a0-0000-7000-8000-000000000006.pending");
    writeFileSync(orphan, "");
    age(orphan, 2 * DAY);
    mkdirSync(join(root, "media/presentation"), { recursive: true });
    const tmp = join(root, `${plain}.123.1700000000000.tmp`);
    writeFileSync(tmp, "half");
    age(tmp, 2 * DAY);

    const deleted = await store.deletePendingUploads(["documents", "media"], new Date(WRITTEN - DAY));
    expect(deleted.sort()).toEqual([abandoned, VIDEO].sort());
    expect(await store.stat(abandoned)).toBeUndefined();
    expect(await store.stat(VIDEO)).toBeUndefined();
    expect(await store.stat(fresh)).toBeDefined();
    expect(await store.stat(confirmed)).toBeDefined();
    expect(await store.stat(plain)).toBeDefined();
    expect(await store.stat("uploads/x")).toBeDefined();
    expect(existsSync(join(root, "uploads/x.pending"))).toBe(true);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(tmp)).toBe(false);
    expect(files(join(root, "documents")).some((f) => f.startsWith(abandoned.split("/")[1]))).toBe(false);

    // The fresh one goes too once the cutoff passes it; a folder that does not exist is no error.
    expect(await store.deletePendingUploads(["documents", "media"], new Date(WRITTEN + 1000))).toEqual([fresh]);
    expect(await store.stat(confirmed)).toBeDefined();
    expect(await fsBlobStore(join(root, "none")).deletePendingUploads(["documents"], new Date(WRITTEN))).toEqual([]);
    await expect(store.deletePendingUploads(["../x"], new Date(WRITTEN))).rejects.toThrow(/invalid blob area/);
  });

  it("a confirmation and a sweep of the same key never both succeed", async () => {
    const { root, store } = setup();
    await store.putStream(DOC, streamOf([new Uint8Array(4)]), "application/pdf", { pending: true });
    age(join(root, `${DOC}.pending`), 2 * DAY);
    // The sweep claimed the marker but had not deleted the blob yet (renamed by hand here).
    renameSync(join(root, `${DOC}.pending`), join(root, `${DOC}.pending.sweep`));
    await expect(store.confirmUpload(DOC)).rejects.toMatchObject({ code: "ENOENT" });
    // An interrupted sweep's claim is finished by the next one.
    expect(await store.deletePendingUploads(["documents"], new Date(WRITTEN - DAY))).toEqual([DOC]);
    await expect(store.confirmUpload(DOC)).rejects.toMatchObject({ code: "ENOENT" });
    expect(files(join(root, "documents"))).toEqual([]);
  });
});
