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

export function zipOf(entries: readonly ZipEntry[], at: Date): Uint8Array {
  if (entries.length > MAX_ENTRIES) throw new Error(`zip: ${entries.length} files, at most ${MAX_ENTRIES}`);
  const { time, date } = dosDateTime(at);
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = new TextEncoder().encode(entry.name);
    const data = deflateRawSync(entry.bytes);
    const crc = crc32(entry.bytes);
    if (entry.bytes.byteLength > MAX_BYTES || offset > MAX_BYTES) throw new Error("zip: an archive over 4 GiB needs Zip64");
    const local = Buffer.alloc(30 + name.byteLength);
    local.writeUInt32LE(0x04034b50, 0);
    const shared = { time, date, crc, compressed: data.byteLength, size: entry.bytes.byteLength, nameLength: name.byteLength };
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
  const end = Buffer.alloc(22);
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
