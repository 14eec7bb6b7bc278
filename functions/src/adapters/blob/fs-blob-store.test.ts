import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fsBlobStore } from "./fs-blob-store";

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

describe("fs blob store: streams", () => {
  it("writes a stream and reads byte ranges of it", async () => {
    const root = mkdtempSync(join(tmpdir(), "blobs-"));
    const store = fsBlobStore(root);
    const size = await store.putStream("media/instruction/a", streamOf([new Uint8Array([1, 2, 3]), new Uint8Array([4, 5, 6, 7])]), "video/mp4");
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
