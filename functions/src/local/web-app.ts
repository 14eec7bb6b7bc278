// The built web app (web/dist) on the local server. Hashed assets (assets/*: their names change
// with their content) are cached by browsers for a year and sent compressed, brotli or gzip by the
// request's Accept-Encoding, each compressed once and kept in memory. The app shell (index.html,
// also the answer to every client route: the SPA fallback) is revalidated on every load, so a new
// build reaches the browser at once.
import type { Context, MiddlewareHandler } from "hono";
import { getMimeType } from "hono/utils/mime";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { brotliCompress, constants, gzip } from "node:zlib";
import { promisify } from "node:util";
import { serveStatic } from "@hono/node-server/serve-static";
import { notFoundResponse } from "../http/errors";

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "no-cache";

export type Encoding = "br" | "gzip";

const compressors: Record<Encoding, (bytes: Buffer) => Promise<Buffer>> = {
  // Quality 5: within a few per cent of the smallest output, at a fiftieth of quality 11's time
  // (the first request of a chunk waits for it).
  br: (bytes) =>
    promisify(brotliCompress)(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  gzip: (bytes) => promisify(gzip)(bytes, { level: 9 }),
};

/** Text-like files gain from compression; images, fonts and archives are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|map|svg|txt|xml|wasm)$/i;

/** The encoding to send for an Accept-Encoding header: brotli when it is at least as welcome as
 *  gzip, then gzip; undefined for the file as it is. Honours q-values (q=0 refuses) and `*`. */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  const br = weight("br");
  const gz = weights.get("gzip") ?? weights.get("x-gzip") ?? weights.get("*") ?? 0;
  if (br > 0 && br >= gz) return "br";
  if (gz > 0) return "gzip";
  return undefined;
}

interface Compressed {
  /** The file's version the entry was made from: a rebuild replaces it. */
  stamp: string;
  bodies: Partial<Record<Encoding, Promise<Buffer>>>;
}

/** Serves webRoot: assets/* with a year's caching, compressed; any other file and, for a GET that
 *  is not an API call, index.html (the SPA fallback) with revalidation. */
export function serveWebApp(webRoot: string): MiddlewareHandler {
  const compressed = new Map<string, Compressed>();

  /** The compressed body of a file, made on the first request and kept: concurrent first
   *  requests share one compression. */
  function compressedBody(path: string, stamp: string, encoding: Encoding): Promise<Buffer> {
    let entry = compressed.get(path);
    if (!entry || entry.stamp !== stamp) {
      entry = { stamp, bodies: {} };
      compressed.set(path, entry);
    }
    const body = (entry.bodies[encoding] ??= readFile(path).then((bytes) => compressors[encoding](bytes)));
    body.catch(() => compressed.delete(path));
    return body;
  }

  async function asset(c: Context, name: string): Promise<Response> {
    // Hashed file names only: one path segment, no dot files (so no way out of the folder).
    if (!/^[\w-][\w.-]*$/.test(name)) return notFoundResponse(c);
    const path = join(webRoot, "assets", name);
    const info = await stat(path).catch(() => undefined);
    // A missing chunk is a 404, never the app shell: a page built before a rebuild then fails
    // to load the chunk instead of parsing HTML as JavaScript.
    if (!info?.isFile()) {
      compressed.delete(path);
      return notFoundResponse(c);
    }
    const headers: Record<string, string> = {
      "Content-Type": getMimeType(name) ?? "application/octet-stream",
      "Cache-Control": IMMUTABLE,
      Vary: "Accept-Encoding",
    };
    const encoding = COMPRESSIBLE.test(name) ? preferredEncoding(c.req.header("Accept-Encoding")) : undefined;
    let body: Buffer | undefined;
    if (encoding) {
      const smaller = await compressedBody(path, `${info.mtimeMs}:${info.size}`, encoding);
      if (smaller.length < info.size) {
        body = smaller;
        headers["Content-Encoding"] = encoding;
      }
    }
    body ??= await readFile(path);
    headers["Content-Length"] = String(body.length);
    return c.body(new Uint8Array(body), 200, headers);
  }

  const revalidated = async (_path: string, c: Context) => {
    c.header("Cache-Control", REVALIDATE);
    c.header("Vary", "Accept-Encoding");
  };
  const files = serveStatic({ root: webRoot, onFound: revalidated });
  const shell = serveStatic({ path: join(webRoot, "index.html"), onFound: revalidated });

  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const path = c.req.path;
    if (path.startsWith("/api/")) return next();
    if (path.startsWith("/assets/")) return asset(c, path.slice("/assets/".length));
    return (await files(c, async () => {})) ?? shell(c, next);
  };
}
