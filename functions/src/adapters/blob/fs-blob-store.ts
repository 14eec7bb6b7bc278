// Local stand-in for S3 behind the same BlobStore port: files under DATA_DIR/blobs. Keys are
// checked so that none can escape the folder; writes go through a temporary file and a rename so
// a crash never leaves half a blob.
//
// Beside each blob `{key}` lies `{key}.type` (its content type) and, while a direct upload is not
// completed, `{key}.pending` (empty; its mtime is when the upload arrived): the local twin of the
// S3 object tag upload=pending. `confirmUpload` removes it; `deletePendingUploads` deletes blobs
// whose marker is older than a cutoff, first claiming the marker by renaming it to
// `{key}.pending.sweep`, so a confirmation and a sweep of the same key never both succeed.
import { mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { createReadStream, createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { BlobStore, StreamingBlobStore } from "../../ports";

const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._\-/]*$/;
const AREA_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const PENDING = ".pending";
const CLAIMED = ".pending.sweep";
/** The temporary files of a write (`{key}.{pid}.{ms}{n}.tmp`, with `.type` or `.pending`). */
const TMP_RE = /\.\d+\.\d+\.tmp(\.type|\.pending)?$/;
let writes = 0;
/** A name no other write of this process uses, even two of one key in the same millisecond. */
const tmpPathOf = (path: string) => `${path}.${process.pid}.${Date.now()}${String(++writes % 1e6).padStart(6, "0")}.tmp`;

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** Every file under `dir` (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (missing(error)) return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** The local store has every ability but presigning: streams, ranges and pending uploads. */
export type FsBlobStore = BlobStore &
  StreamingBlobStore &
  Required<Pick<BlobStore, "confirmUpload" | "deletePendingUploads" | "keysWrittenBefore" | "deleteWriteLeftovers">>;

export function fsBlobStore(root: string): FsBlobStore {
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
      const tmp = tmpPathOf(path);
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
      await Promise.all([rm(path, { force: true }), rm(`${path}.type`, { force: true }), rm(`${path}${PENDING}`, { force: true })]);
    },
    // Large files (settings videos): streamed to a temporary file and renamed, never held in memory;
    // a stream that fails (too large, wrong type) leaves nothing behind.
    //
    // A direct upload (`pending`) is written once: the `.type` file is created exclusively (the
    // key is taken, or the write fails with EEXIST and touches nothing), then the pending marker is
    // put in place, and only then the blob, so the blob is never visible unmarked before it is
    // confirmed.
    async putStream(key, body, contentType, options) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = tmpPathOf(path);
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      let claimed = false;
      try {
        await pipeline(Readable.fromWeb(body as NodeWebReadableStream<Uint8Array>), count, createWriteStream(tmp));
        if (options?.pending) {
          await writeFile(`${path}.type`, contentType, { flag: "wx" });
          claimed = true;
          await writeFile(`${tmp}${PENDING}`, "");
          await rename(`${tmp}${PENDING}`, `${path}${PENDING}`);
        } else {
          await writeFile(`${tmp}.type`, contentType);
          await rename(`${tmp}.type`, `${path}.type`);
        }
        await rename(tmp, path);
      } catch (error) {
        await Promise.all([rm(tmp, { force: true }), rm(`${tmp}.type`, { force: true }), rm(`${tmp}${PENDING}`, { force: true })]);
        if (claimed) await Promise.all([rm(`${path}.type`, { force: true }), rm(`${path}${PENDING}`, { force: true })]);
        throw error;
      }
      return size;
    },
    /** Removes the pending marker. Without one the key was confirmed already or never pending —
     *  unless a sweep has claimed it (or finished deleting it): then the upload is gone. */
    async confirmUpload(key) {
      const path = pathOf(key);
      try {
        await unlink(`${path}${PENDING}`);
        return;
      } catch (error) {
        if (!missing(error)) throw error;
      }
      const exists = (file: string) =>
        stat(file).then(
          () => true,
          (error: unknown) => (missing(error) ? false : Promise.reject(error)),
        );
      if ((await exists(`${path}${CLAIMED}`)) || !(await exists(path))) {
        throw Object.assign(new Error(`blob ${key} is gone: its upload was never completed in time`), { code: "ENOENT" });
      }
    },
    /** Pending blobs of `areas` whose marker is older than `olderThan` (by its mtime), deleted with
     *  their `.type`; markers left without a blob, claims of an interrupted sweep and temporary
     *  files of an interrupted write go as well. Nothing outside those areas is looked at, and a
     *  confirmed blob (no marker) is never touched. */
    async deletePendingUploads(areas, olderThan) {
      const deleted: string[] = [];
      for (const area of areas) {
        if (!AREA_RE.test(area)) throw new Error(`invalid blob area: ${JSON.stringify(area)}`);
        for (const file of await filesUnder(join(base, area))) {
          const leftover = TMP_RE.test(file);
          const marker = leftover
            ? undefined
            : file.endsWith(PENDING)
              ? file
              : file.endsWith(CLAIMED)
                ? file.slice(0, -".sweep".length)
                : undefined;
          if (marker === undefined && !leftover) continue;
          let info;
          try {
            info = await stat(file);
          } catch (error) {
            if (missing(error)) continue;
            throw error;
          }
          if (info.mtimeMs >= olderThan.getTime()) continue;
          if (leftover) {
            await rm(file, { force: true });
            continue;
          }
          const path = marker!.slice(0, -PENDING.length);
          const claim = `${path}${CLAIMED}`;
          if (file !== claim) {
            try {
              await rename(file, claim);
            } catch (error) {
              if (missing(error)) continue; // confirmed meanwhile
              throw error;
            }
          }
          const hadBlob = await stat(path).then(
            () => true,
            () => false,
          );
          await Promise.all([rm(path, { force: true }), rm(`${path}.type`, { force: true })]);
          await rm(claim, { force: true });
          if (hadBlob) deleted.push(relative(base, path).split(sep).join("/"));
        }
      }
      return deleted;
    },
    async deleteWriteLeftovers(areas, olderThan) {
      const deleted: string[] = [];
      for (const area of areas) {
        if (!AREA_RE.test(area)) throw new Error(`invalid blob area: ${JSON.stringify(area)}`);
        for (const file of await filesUnder(join(base, area))) {
          if (!TMP_RE.test(file)) continue;
          const info = await stat(file).catch((error: unknown) => (missing(error) ? undefined : Promise.reject(error)));
          if (!info || info.mtimeMs >= olderThan.getTime()) continue;
          await rm(file, { force: true });
          deleted.push(relative(base, file).split(sep).join("/"));
        }
      }
      return deleted;
    },
    async *keysWrittenBefore(area, before) {
      if (!AREA_RE.test(area)) throw new Error(`invalid blob area: ${JSON.stringify(area)}`);
      const keys: string[] = [];
      for (const file of await filesUnder(join(base, area))) {
        // Only blobs: not their `.type`, pending markers or a write's temporary files.
        if (file.endsWith(".type") || file.endsWith(PENDING) || file.endsWith(CLAIMED) || TMP_RE.test(file)) continue;
        const info = await stat(file).catch((error: unknown) => {
          if (missing(error)) return undefined;
          throw error;
        });
        if (info && info.mtimeMs < before.getTime()) keys.push(relative(base, file).split(sep).join("/"));
      }
      if (keys.length > 0) yield keys;
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
