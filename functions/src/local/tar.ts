// The few parts of the tar format (POSIX ustar, with a pax header for a name longer than its field)
// a backup needs (backup.ts): regular files written one after the other, and read back in order. A
// backup so written is an ordinary `.tar.gz` an operator can list or unpack with `tar`.
import type { Writable } from "node:stream";

const BLOCK = 512;
const ZEROS = Buffer.alloc(BLOCK);

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, "0")}\0`;
}

function header(name: string, size: number, type: "0" | "x", mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, "utf8");
  block.write(octal(0o644, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii");
  block.write(octal(0, 8), 116, "ascii");
  block.write(octal(size, 12), 124, "ascii");
  block.write(octal(Math.floor(mtime / 1000), 12), 136, "ascii");
  block.write("        ", 148, "ascii");
  block.write(type, 156, "ascii");
  block.write("ustar\0", 257, "ascii");
  block.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return block;
}

/** A pax record `"<length> path=<name>\n"`, whose length counts itself. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return Buffer.from(`${length}${body}`, "utf8");
}

async function write(out: Writable, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", resolve));
}

/** Writes one regular file's header into `out`; then exactly `size` bytes of it must follow and
 *  then `endEntry(size)`. */
/** The ustar header's name field, in bytes; a longer name goes in a pax record, the header keeping its start. */
const USTAR_NAME_BYTES = 100;

export async function startEntry(out: Writable, name: string, size: number, mtime = Date.now()): Promise<void> {
  if (Buffer.byteLength(name) > 100) {
    const pax = paxRecord("path", name);
    await write(out, header("PaxHeader", pax.length, "x", mtime));
    await write(out, pax);
    await endEntry(out, pax.length);
  }
  await write(out, header(Buffer.byteLength(name) > 100 ? name.slice(0, USTAR_NAME_BYTES - 10) : name, size, "0", mtime));
}

export async function writeChunk(out: Writable, chunk: Buffer): Promise<void> {
  await write(out, chunk);
}

/** The padding after an entry of `size` bytes. */
export async function endEntry(out: Writable, size: number): Promise<void> {
  const rest = size % BLOCK;
  if (rest > 0) await write(out, ZEROS.subarray(0, BLOCK - rest));
}

/** The two empty blocks that end an archive. */
export async function endArchive(out: Writable): Promise<void> {
  await write(out, ZEROS);
  await write(out, ZEROS);
}

/** Reads exactly the bytes asked for from a stream of chunks. */
class ByteReader {
  private buffered: Buffer[] = [];
  private length = 0;
  private done = false;
  constructor(private readonly chunks: AsyncIterator<Buffer>) {}

  /** Up to `n` bytes (fewer only at the stream's end). */
  async read(n: number): Promise<Buffer> {
    while (this.length < n && !this.done) {
      const next = await this.chunks.next();
      if (next.done) this.done = true;
      else {
        this.buffered.push(next.value);
        this.length += next.value.length;
      }
    }
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered);
    const taken = all.subarray(0, Math.min(n, all.length));
    const rest = all.subarray(taken.length);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return taken;
  }
}

export class TarError extends Error {}

/** What a reader does with one file of the archive: its bytes in order, then its end. */
export interface EntrySink {
  chunk(bytes: Buffer): void | Promise<void>;
  end(): void | Promise<void>;
}

const PIECE = 1 << 20;
/** the security review's R16: a pax header (a long name) at most this long. */
const PAX_MAX_BYTES = 64 * 1024;

/** Reads the regular files of an uncompressed tar stream in order, handing each to the sink
 *  `open(name, size)` gives; fails on a damaged or cut archive. */
export async function readTar(
  chunks: AsyncIterable<Buffer>,
  open: (name: string, size: number) => EntrySink | Promise<EntrySink>,
): Promise<void> {
  const reader = new ByteReader(chunks[Symbol.asyncIterator]());
  let longName: string | undefined;
  for (;;) {
    const block = await reader.read(BLOCK);
    if (block.length < BLOCK) throw new TarError("архив обрывается (нет конца архива)");
    if (block.equals(ZEROS)) return;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
    const stored = Number.parseInt(block.toString("ascii", 148, 156).replace(/\0.*$/s, "").trim(), 8);
    if (stored !== sum) throw new TarError("поврежден заголовок файла в архиве");
    const size = Number.parseInt(block.toString("ascii", 124, 136).replace(/\0.*$/s, "").trim() || "0", 8);
    if (!Number.isSafeInteger(size) || size < 0) throw new TarError("поврежден размер файла в архиве");
    const type = block.toString("ascii", 156, 157);
    const name = longName ?? block.toString("utf8", 0, 100).replace(/\0.*$/s, "");
    longName = undefined;
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    if (type === "x") {
      // A pax header holds a long name: read whole, so bounded (a hostile size would be allocated).
      if (size > PAX_MAX_BYTES) throw new TarError(`заголовок pax длиннее ${PAX_MAX_BYTES} байт`);
      const body = await reader.read(padded);
      if (body.length < padded) throw new TarError("архив обрывается");
      const records = body.subarray(0, size).toString("utf8");
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(records)?.[1];
      continue;
    }
    const sink = type === "0" || type === "\0" ? await open(name, size) : undefined;
    let left = size;
    while (left > 0) {
      const piece = await reader.read(Math.min(left, PIECE));
      if (piece.length === 0) throw new TarError(`архив обрывается внутри файла ${name}`);
      left -= piece.length;
      if (sink) await sink.chunk(piece);
    }
    if (sink) await sink.end();
    if (padded > size && (await reader.read(padded - size)).length < padded - size) throw new TarError("архив обрывается");
  }
}
