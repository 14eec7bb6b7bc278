// Reads a ZIP's central directory (PKWARE APPNOTE 4.3.12–4.3.16) before anything inflates it, so
// an .xlsx that would expand to gigabytes (a zip bomb) is refused from its declared sizes alone.
// Declared sizes are only claims, though: inflateEntry refuses an entry the moment it grows past
// its declared size, and the reader inflates only what it reads. The checked entries
// are handed to the .xlsx reader (xlsx-reader.ts), which inflates the parts it needs with inflateEntry.
// The product's one ZIP reader: the evidence check (zipEntryNames) reads its directory too.
import { createInflateRaw } from "node:zlib";
import { FileRefused } from "./errors";

export interface ZipLimits {
  maxEntries: number;
  maxTotalUncompressed: number;
  /** Largest allowed uncompressed/compressed ratio of one entry. */
  maxRatio: number;
}

export const XLSX_ZIP_LIMITS: ZipLimits = { maxEntries: 2000, maxTotalUncompressed: 200 * 1024 * 1024, maxRatio: 250 };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
// OOXML part names are ASCII; a non-UTF-8 (CP437) name only has to stay distinct, not be readable.
const names = new TextDecoder("utf-8");

function refuse(detail: string): never {
  throw new FileRefused("invalid", detail);
}

export interface ZipEntry {
  name: string;
  method: number;
  compressed: number;
  uncompressed: number;
  localOffset: number;
}

export function checkZip(bytes: Uint8Array, limits: ZipLimits = XLSX_ZIP_LIMITS): { entries: ZipEntry[]; directoryOffset: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  // The end record is 22 bytes plus a comment of at most 65535 bytes.
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) refuse("Файл поврежден: это не книга Excel (.xlsx)");
  const entries = view.getUint16(eocd + 10, true);
  const directorySize = view.getUint32(eocd + 12, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (entries === 0xffff || directoryOffset === 0xffffffff) refuse("Файл .xlsx в формате ZIP64 не поддерживается");
  if (entries > limits.maxEntries) refuse("Файл .xlsx содержит слишком много частей");
  if (directoryOffset + directorySize > eocd) refuse("Файл поврежден: это не книга Excel (.xlsx)");

  let offset = directoryOffset;
  let total = 0;
  const listed: ZipEntry[] = [];
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > eocd || view.getUint32(offset, true) !== CENTRAL_SIGNATURE) {
      refuse("Файл поврежден: это не книга Excel (.xlsx)");
    }
    const compressed = view.getUint32(offset + 20, true);
    const uncompressed = view.getUint32(offset + 24, true);
    if (compressed === 0xffffffff || uncompressed === 0xffffffff) refuse("Файл .xlsx в формате ZIP64 не поддерживается");
    total += uncompressed;
    if (total > limits.maxTotalUncompressed || uncompressed > Math.max(compressed, 1) * limits.maxRatio) {
      refuse("Файл .xlsx после распаковки слишком велик: он отклонен как небезопасный");
    }
    const nameLength = view.getUint16(offset + 28, true);
    if (offset + 46 + nameLength > eocd) refuse("Файл поврежден: это не книга Excel (.xlsx)");
    listed.push({
      name: names.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
      method: view.getUint16(offset + 10, true),
      compressed,
      uncompressed,
      localOffset: view.getUint32(offset + 42, true),
    });
    offset += 46 + nameLength + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
  return { entries: listed, directoryOffset };
}

/** The entry names of a ZIP's directory, nothing inflated; a file that is not a ZIP throws. No size
 *  limits: for archives that are stored as they are, never read (evidence files). */
export function zipEntryNames(bytes: Uint8Array): string[] {
  const unlimited: ZipLimits = { maxEntries: Infinity, maxTotalUncompressed: Infinity, maxRatio: Infinity };
  return checkZip(bytes, unlimited).entries.map((entry) => entry.name);
}

const LOCAL_SIGNATURE = 0x04034b50;
const DESCRIPTOR_SIGNATURE = 0x08074b50;

/** An entry whose declared sizes and contents have been checked; `data` is its stored bytes. */
export interface ZipPart extends ZipEntry {
  data: Uint8Array;
}

/** A directory can declare 1 KB for an entry that inflates to gigabytes. So: the local entries must
 *  be exactly the listed ones, back to back up to the directory (no hidden entry for a streaming
 *  reader to meet), and each is inflated only by inflateEntry, which stops it the moment it grows
 *  past its declared size. Nothing is inflated here: the reader inflates only the parts it reads,
 *  only as far as it reads them (its row and text caps stop a sheet of millions of blank rows
 *  after a few hundred kilobytes), so neither time nor memory follow what a file declares.
 *  Returns the entries in file order. */
export function checkZipContents(bytes: Uint8Array, limits: ZipLimits = XLSX_ZIP_LIMITS): ZipPart[] {
  const { entries, directoryOffset } = checkZip(bytes, limits);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const corrupt = () => refuse("Файл поврежден: это не книга Excel (.xlsx)");
  let expected = 0;
  const parts: ZipPart[] = [];
  for (const entry of [...entries].sort((a, b) => a.localOffset - b.localOffset)) {
    const at = entry.localOffset;
    if (at !== expected || at + 30 > directoryOffset || view.getUint32(at, true) !== LOCAL_SIGNATURE) corrupt();
    const flags = view.getUint16(at + 6, true);
    const hasDescriptor = (flags & 0x08) !== 0;
    if (!hasDescriptor && view.getUint32(at + 18, true) !== entry.compressed) corrupt();
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const end = start + entry.compressed;
    if (end > directoryOffset) corrupt();
    expected = end + (hasDescriptor ? (end + 4 <= directoryOffset && view.getUint32(end, true) === DESCRIPTOR_SIGNATURE ? 16 : 12) : 0);
    const data = bytes.subarray(start, end);
    if (entry.method === 0) {
      if (entry.compressed !== entry.uncompressed) corrupt();
    } else if (entry.method !== 8) refuse("Файл .xlsx сжат неподдерживаемым методом");
    parts.push({ ...entry, data });
  }
  if (expected !== directoryOffset) corrupt();
  return parts;
}

/** Inflates a checked entry chunk by chunk (the consumer may stop early), again refusing it the
 *  moment it passes its declared size: whoever reads a part never inflates more than was checked. */
export async function* inflateEntry(part: ZipPart): AsyncGenerator<Uint8Array> {
  if (part.method === 0) {
    yield part.data;
    return;
  }
  const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
  inflate.end(part.data);
  let size = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > part.uncompressed) refuse("Файл .xlsx после распаковки больше заявленного: он отклонен как небезопасный");
      yield chunk;
    }
  } finally {
    inflate.destroy();
  }
  if (size !== part.uncompressed) refuse("Файл поврежден: это не книга Excel (.xlsx)");
}
