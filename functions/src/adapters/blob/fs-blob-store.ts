// Local stand-in for S3 behind the same BlobStore port: files under DATA_DIR/blobs. Keys are
// checked so that none can escape the folder; writes go through a temporary file and a rename so
// a crash never leaves half a blob.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import type { BlobStore } from "../../ports";

const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._\-/]*$/;

export function fsBlobStore(root: string): BlobStore {
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
  };
}

