import { describe, expect, it } from "vitest";
import { checkedStream, checkPdf, collect, detectVideo, isPdf } from "./uploads";

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe("magic bytes", () => {
  it("knows a PDF by %PDF- and nothing else", () => {
    expect(isPdf(bytes("%PDF-1.4\n"))).toBe(true);
    expect(isPdf(bytes("\n%PDF-1.4"))).toBe(false);
    expect(isPdf(bytes("<html>"))).toBe(false);
  });

  it("knows MP4 by its ftyp box and WebM by EBML with the webm DocType", () => {
    expect(detectVideo(bytes([0, 0, 0, 0x18], "ftypmp42", [0, 0, 0, 0]))).toBe("video/mp4");
    expect(detectVideo(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84], "webm"))).toBe("video/webm");
    expect(detectVideo(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], "matroska"))).toBeUndefined();
    expect(detectVideo(bytes("GIF89a........"))).toBeUndefined();
  });

  it("refuses an empty, oversized or mislabelled PDF with 400, 413 and 415", () => {
    expect(() => checkPdf(new Uint8Array(0), 10)).toThrow(expect.objectContaining({ kind: "invalid" }));
    expect(() => checkPdf(bytes("%PDF-1.4 and more"), 10)).toThrow(expect.objectContaining({ kind: "too_large" }));
    expect(() => checkPdf(bytes("PK\u0003\u0004"), 10)).toThrow(expect.objectContaining({ kind: "unsupported_media" }));
  });
});

describe("checked streams", () => {
  it("sniffs across chunk boundaries and passes every byte through", async () => {
    let seen = "";
    const { stream, size } = checkedStream(streamOf([bytes("%P"), bytes("DF-1"), bytes(".7 rest")]), 100, 5, (head) => {
      seen = new TextDecoder().decode(head.subarray(0, 5));
    });
    expect(new TextDecoder().decode(await collect(stream))).toBe("%PDF-1.7 rest");
    expect(seen).toBe("%PDF-");
    expect(size()).toBe(13);
  });

  it("fails with 413 as soon as the limit is passed and with the sniffer's error on a wrong type", async () => {
    const big = checkedStream(streamOf([new Uint8Array(60), new Uint8Array(60)]), 100, 4, () => {});
    await expect(collect(big.stream)).rejects.toMatchObject({ kind: "too_large" });
    const wrong = checkedStream(streamOf([bytes("not a video at all")]), 100, 4, () => {
      throw Object.assign(new Error("wrong"), { kind: "unsupported_media" });
    });
    await expect(collect(wrong.stream)).rejects.toMatchObject({ kind: "unsupported_media" });
    await expect(collect(checkedStream(streamOf([]), 100, 4, () => {}).stream)).rejects.toMatchObject({ kind: "invalid" });
  });
});
