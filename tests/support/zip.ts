// ZIP archives written by hand for the tests of the upload readers' guards: each entry's declared
// uncompressed size can differ from what it really inflates to (a lying zip bomb), which no ZIP
// library will write.
import { deflateRawSync } from "node:zlib";

export interface DeflatedEntry {
  name: string;
  /** Raw deflate data. */
  data: Uint8Array;
  /** The uncompressed size the headers declare. */
  declared: number;
}

export function zipOfDeflated(entries: DeflatedEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(entry.data));
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** Each file deflated, declaring its true size. */
export function zipOf(files: Record<string, string | Uint8Array>): Uint8Array {
  return zipOfDeflated(
    Object.entries(files).map(([name, content]) => {
      const data = typeof content === "string" ? Buffer.from(content) : content;
      return { name, data: new Uint8Array(deflateRawSync(data)), declared: data.length };
    }),
  );
}
