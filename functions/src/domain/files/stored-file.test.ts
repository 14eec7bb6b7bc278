import { describe, expect, it, vi } from "vitest";
import type { BlobStore } from "../../ports/blob-store";
import { storedFile } from "./stored-file";

/** A store of put, get and delete only, in memory. */
function mapStore(): BlobStore {
  const files = new Map<string, { body: Uint8Array; contentType: string }>();
  return {
    async put(key, body, contentType) {
      files.set(key, { body, contentType });
    },
    get: async (key) => files.get(key),
    async delete(key) {
      files.delete(key);
    },
  };
}

const text = async (body: Uint8Array | ReadableStream<Uint8Array>) => new TextDecoder().decode(await new Response(body).arrayBuffer());

describe("storedFile", () => {
  it("hands out the store's short-lived address where it has one (S3), reading no bytes", async () => {
    const blobs = { ...mapStore(), get: vi.fn(), downloadUrl: vi.fn(async () => "https://bucket.example/scan?sig") };
    await blobs.put("uploads/c/v/1.pdf", new TextEncoder().encode("%PDF"), "application/pdf");
    expect(await storedFile(blobs, "uploads/c/v/1.pdf", "Свидетельство.pdf", 300)).toEqual({
      kind: "redirect",
      url: "https://bucket.example/scan?sig",
      fileName: "Свидетельство.pdf",
    });
    expect(blobs.downloadUrl).toHaveBeenCalledWith("uploads/c/v/1.pdf", "Свидетельство.pdf", 300);
    expect(blobs.get).not.toHaveBeenCalled();
  });

  it("streams a store's bytes by range, with their length and type, where it can", async () => {
    const get = vi.fn();
    const stream = new Response("%PDF-1.7 скан").body!;
    const blobs = {
      ...mapStore(),
      get,
      stat: vi.fn(async () => ({ size: 17, contentType: "image/png" })),
      getRange: vi.fn(async () => stream),
    };
    const file = await storedFile(blobs, "k", "скан.png", 300);
    expect(file).toMatchObject({ kind: "body", size: 17, contentType: "image/png", fileName: "скан.png" });
    expect(blobs.getRange).toHaveBeenCalledWith("k", 0, 16);
    expect(get).not.toHaveBeenCalled();
    expect(await text((file as { body: ReadableStream<Uint8Array> }).body)).toBe("%PDF-1.7 скан");
  });

  it("reads the bytes whole from a store of put and get only, and is undefined for a key it lacks", async () => {
    const blobs = mapStore();
    await blobs.put("k", new TextEncoder().encode("%PDF"), "application/pdf");
    const file = await storedFile(blobs, "k", "a.pdf", 300);
    expect(file).toMatchObject({ kind: "body", size: 4, contentType: "application/pdf" });
    expect(await storedFile(blobs, "missing", "a.pdf", 300)).toBeUndefined();
  });
});
