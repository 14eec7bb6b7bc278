// Local stand-in for S3 behind the same BlobStore port: files under DATA_DIR/blobs. Keys are
// checked so that none can escape the folder; writes go through a temporary file and a rename so
// a crash never leaves half a blob.
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createReadStream, createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { dirname, resolve, sep } from "node:path";
import type { BlobStore, StreamingBlobStore } from "../../ports";

const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._\-/]*$/;

export function fsBlobStore(root: string): BlobStore & StreamingBlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = resolve(base, key);
    if (!KEY_RE.test(key) || key.includes("..") || !path.startsWith(base + sep)) {
      throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
    }
    return path;
  };
  return {
    async put(key, body, contentType) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, body);
      await writeFile(`${tmp}.type`, contentType);
      await rename(`${tmp}.type`, `${path}.type`);
      await rename(tmp, path);
    },
    async get(key) {
      const path = pathOf(key);
      try {
        const [body, contentType] = await Promise.all([readFile(path), readFile(`${path}.type`, "utf8")]);
        return { body: new Uint8Array(body), contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    async delete(key) {
      const path = pathOf(key);
      await Promise.all([rm(path, { force: true }), rm(`${path}.type`, { force: true })]);
    },
    // Large files (settings videos): streamed to a temporary file and renamed, never held in memory;
    // a stream that fails (too large, wrong type) leaves nothing behind.
    async putStream(key, body, contentType) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(Readable.fromWeb(body as NodeWebReadableStream<Uint8Array>), count, createWriteStream(tmp));
        await writeFile(`${tmp}.type`, contentType);
        await rename(`${tmp}.type`, `${path}.type`);
        await rename(tmp, path);
      } catch (error) {
        await Promise.all([rm(tmp, { force: true }), rm(`${tmp}.type`, { force: true })]);
        throw error;
      }
      return size;
    },
    async stat(key) {
      const path = pathOf(key);
      try {
        const [info, contentType] = await Promise.all([stat(path), readFile(`${path}.type`, "utf8")]);
        return { size: info.size, contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    async getRange(key, start, end) {
      const path = pathOf(key);
      try {
        await stat(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      return Readable.toWeb(createReadStream(path, { start, end })) as unknown as ReadableStream<Uint8Array>;
    },
  };
}

