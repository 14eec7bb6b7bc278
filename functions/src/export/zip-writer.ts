// A zip archive (PKWARE APPNOTE 6.3, no Zip64) of files given whole: each deflated with node:zlib,
// names in UTF-8 (general purpose bit 11), so any unzip and Python's zipfile read it. For the
// verification pack (verification-pack.ts), whose files are already in memory; at most 65 535 files
// and 4 GiB, far beyond a pack's bounds. stampZip dates every entry of a zip another library wrote
// (the xlsx passport), so a version's documents are the same bytes on every download (D39).
import { crc32, deflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;

/** MS-DOS date and time of `at` as its UTC fields read: a zip header keeps a local time without a
 *  zone, so the caller passes the wall clock it means. */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/** `zip` with every entry dated `at` (UTC) in its local and central headers: the entries'
 *  contents and order stay as written. */
export function stampZip(zip: Uint8Array, at: Date): Uint8Array {
  const out = Buffer.from(zip);
  const { time, date } = dosDateTime(at);
  // The end of central directory record: the last signature within its 22 bytes and a comment.
  let end = out.byteLength - 22;
  while (end >= 0 && out.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error("zip: no end of central directory");
  const count = out.readUInt16LE(end + 10);
  let header = out.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (out.readUInt32LE(header) !== 0x02014b50) throw new Error("zip: a central directory entry is malformed");
    out.writeUInt16LE(time, header + 12);
    out.writeUInt16LE(date, header + 14);
    const local = out.readUInt32LE(header + 42);
    out.writeUInt16LE(time, local + 10);
    out.writeUInt16LE(date, local + 12);
    header += 46 + out.readUInt16LE(header + 28) + out.readUInt16LE(header + 30) + out.readUInt16LE(header + 32);
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** The archive of `entries`, in their order, each stamped with `at`. */
/** The fields a file's local header and its central directory header share, from `at`: the version
 *  needed (2.0, deflate), the flags (UTF-8 names), the method (deflate), the time and date, the CRC,
 *  the sizes and the name's length. */
function writeSharedFields(
  header: Buffer,
  at: number,
  f: { time: number; date: number; crc: number; compressed: number; size: number; nameLength: number },
): void {
  header.writeUInt16LE(20, at); // version needed: deflate
  header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
  header.writeUInt16LE(8, at + 4); // deflate
  header.writeUInt16LE(f.time, at + 6);
  header.writeUInt16LE(f.date, at + 8);
  header.writeUInt32LE(f.crc, at + 10);
  header.writeUInt32LE(f.compressed, at + 14);
  header.writeUInt32LE(f.size, at + 18);
  header.writeUInt16LE(f.nameLength, at + 22);
}

/** An entry deflated once, for an archive or for the part of a split pack it goes in. */
interface Deflated {
  name: Uint8Array;
  data: Uint8Array;
  crc: number;
  size: number;
}

function deflated(entry: ZipEntry): Deflated {
  if (entry.bytes.byteLength > MAX_BYTES) throw new Error("zip: an archive over 4 GiB needs Zip64");
  return {
    name: new TextEncoder().encode(entry.name),
    data: deflateRawSync(entry.bytes),
    crc: crc32(entry.bytes),
    size: entry.bytes.byteLength,
  };
}

/** The bytes an entry takes in an archive: its local header, data and central directory header. */
const archived = (d: Deflated) => 30 + d.name.byteLength + d.data.byteLength + 46 + d.name.byteLength;
const END_OF_CENTRAL_DIRECTORY = 22;

function assemble(entries: readonly Deflated[], at: Date): Uint8Array {
  if (entries.length > MAX_ENTRIES) throw new Error(`zip: ${entries.length} files, at most ${MAX_ENTRIES}`);
  const { time, date } = dosDateTime(at);
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const { name, data, crc, size } of entries) {
    if (offset > MAX_BYTES) throw new Error("zip: an archive over 4 GiB needs Zip64");
    const local = Buffer.alloc(30 + name.byteLength);
    local.writeUInt32LE(0x04034b50, 0);
    const shared = { time, date, crc, compressed: data.byteLength, size, nameLength: name.byteLength };
    writeSharedFields(local, 4, shared);
    local.writeUInt16LE(0, 28);
    local.set(name, 30);
    const header = Buffer.alloc(46 + name.byteLength);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0
    writeSharedFields(header, 6, shared);
    header.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    header.writeUInt32LE(offset, 42);
    header.set(name, 46);
    parts.push(local, data);
    central.push(header);
    offset += local.byteLength + data.byteLength;
  }
  const centralSize = central.reduce((sum, h) => sum + h.byteLength, 0);
  if (offset > MAX_BYTES) throw new Error("zip: an archive over 4 GiB needs Zip64");
  const end = Buffer.alloc(END_OF_CENTRAL_DIRECTORY);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  const out = new Uint8Array(offset + centralSize + end.byteLength);
  let position = 0;
  for (const part of [...parts, ...central, end]) {
    out.set(part, position);
    position += part.byteLength;
  }
  return out;
}

export function zipOf(entries: readonly ZipEntry[], at: Date): Uint8Array {
  if (entries.length > MAX_ENTRIES) throw new Error(`zip: ${entries.length} files, at most ${MAX_ENTRIES}`);
  return assemble(entries.map(deflated), at);
}

/** `entries` in their order as archives of at most `limit` bytes each (a registry's attachment limit):
 *  a part takes entries until the next would pass the limit, so the first entries are in the first
 *  part. Each entry is deflated once. An entry that alone passes the limit cannot go in any part. */
export function zipParts(entries: readonly ZipEntry[], at: Date, limit: number): Uint8Array[] {
  const parts: Deflated[][] = [[]];
  let size = END_OF_CENTRAL_DIRECTORY;
  for (const entry of entries) {
    const item = deflated(entry);
    const bytes = archived(item);
    if (END_OF_CENTRAL_DIRECTORY + bytes > limit) {
      throw new Error(`zip: «${entry.name}» takes ${bytes} bytes deflated, over a part's ${limit}`);
    }
    if (size + bytes > limit || parts.at(-1)!.length === MAX_ENTRIES) {
      parts.push([]);
      size = END_OF_CENTRAL_DIRECTORY;
    }
    parts.at(-1)!.push(item);
    size += bytes;
  }
  return parts.map((part) => assemble(part, at));
}
