// Type and size checks of admin uploads. The type is decided by the file's first bytes, never by
// its name or the browser's Content-Type: a PDF starts with "%PDF-" (ISO 32000-1, 7.5.2); an MP4
// has an ISO base media "ftyp" box at offset 4 (ISO/IEC 14496-12, 4.3); a WebM file is an EBML
// document starting 1A 45 DF A3 (RFC 8794, 8.1) whose DocType is "webm".
import { invalidAt, TooLarge, UnsupportedMedia } from "../errors";
import { VIDEO_CONTENT_TYPES, fileSize, type VideoType } from "../../contract/schemas/uploads";

export const PDF_TYPE = "application/pdf";
export type { VideoType };

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));

export function isPdf(head: Uint8Array): boolean {
  return head.length >= 5 && ascii(head, 0, 5) === "%PDF-";
}

/** How many leading bytes detectVideo needs to decide. */
export const VIDEO_SNIFF_BYTES = 64;

export function detectVideo(head: Uint8Array): VideoType | undefined {
  if (head.length >= 12 && ascii(head, 4, 4) === "ftyp") return VIDEO_CONTENT_TYPES.mp4;
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    // Matroska shares the EBML header; only its "webm" profile plays in every browser.
    return ascii(head, 0, Math.min(head.length, VIDEO_SNIFF_BYTES)).includes("webm") ? VIDEO_CONTENT_TYPES.webm : undefined;
  }
  return undefined;
}

/** A file over its bound, the bound in its words («Файл больше 50 МБ»). */
export class FileTooLarge extends TooLarge {
  constructor(maxBytes: number) {
    super(`Файл больше ${fileSize(maxBytes)}`);
  }
}

/** A whole PDF in memory (≤ 50 MB): empty, too large or not a PDF is refused. */
export function checkPdf(bytes: Uint8Array, maxBytes: number): void {
  if (bytes.byteLength === 0) throw invalidAt("file", "файл пуст");
  if (bytes.byteLength > maxBytes) throw new FileTooLarge(maxBytes);
  if (!isPdf(bytes)) throw new UnsupportedMedia("Ожидается файл PDF");
}

/**
 * Passes a stream through while checking it: the first bytes must satisfy `sniff` (which returns
 * the detected type or throws), and the total may not exceed `maxBytes`. Errors surface where the
 * stream is consumed, so a writer stops and discards what it wrote.
 */
export function checkedStream(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  sniffBytes: number,
  sniff: (head: Uint8Array) => void,
): { stream: ReadableStream<Uint8Array>; size: () => number } {
  let size = 0;
  let head: Uint8Array | undefined = new Uint8Array(0);
  const transform = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new FileTooLarge(maxBytes);
      if (head) {
        const joined = new Uint8Array(head.byteLength + chunk.byteLength);
        joined.set(head);
        joined.set(chunk, head.byteLength);
        if (joined.byteLength < sniffBytes) {
          head = joined;
          return;
        }
        sniff(joined);
        head = undefined;
        controller.enqueue(joined);
        return;
      }
      controller.enqueue(chunk);
    },
    flush(controller) {
      if (size === 0) throw invalidAt("file", "файл пуст");
      if (head) {
        // Shorter than the sniff window: decide on what there is.
        sniff(head);
        controller.enqueue(head);
      }
    },
  });
  return { stream: body.pipeThrough(transform), size: () => size };
}

/** Reads a whole (checked) stream into memory: for stores that cannot stream. */
export async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
