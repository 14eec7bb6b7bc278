// v1/media/: the settings videos. GET / (bearer) lists them with signed URLs; GET /{kind}/?token=
// streams one with byte ranges for <video>, which cannot send the bearer header (domain/files/media.ts
// explains the choice). The stream sub-app is mounted before requireUser; its token is its check.
// The declarations are in routes/media.ts.
import { wholeList } from "../contract/routes/declare";
import { mediaKind, mediaStatus, openMedia, verifyMediaToken, type MediaRange } from "../domain/files/media";
import { routeApp } from "./openapi-routes";
import { listRoute, streamRoute } from "../contract/routes/media";

export const mediaRoutes = routeApp().openapi(listRoute, async (c) =>
  c.json(wholeList(await mediaStatus(c.get("deps"), c.get("actor"))), 200),
);

/** RFC 9110 14.2 single byte range: undefined = the whole file (no or ignorable header),
 *  "unsatisfiable" = 416. Several ranges are answered with the whole file, which the RFC allows. */
export function parseRange(header: string | undefined, size: number): MediaRange | "unsatisfiable" | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== "" && Number(match[2]) < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

export const mediaStreamRoutes = routeApp().openapi(streamRoute, async (c) => {
  const deps = c.get("deps");
  const kind = mediaKind(c.req.valid("param").kind);
  await verifyMediaToken(deps, c.req.valid("query").token, kind);
  const item = await deps.repos.media.get(kind);
  const size = item && !item.is_deleted ? item.size : 0;
  const range = parseRange(c.req.header("range"), size);
  if (range === "unsatisfiable") {
    return c.json({ detail: "Запрошенный диапазон вне файла" }, 416, { "Content-Range": `bytes */${size}` });
  }
  const { item: served, body } = await openMedia(deps, kind, range);
  const headers: Record<string, string> = {
    "Content-Type": served.content_type,
    "Accept-Ranges": "bytes",
    "Content-Length": String(range ? range.end - range.start + 1 : served.size),
    // The URL carries a 10-minute token and the video's version; the browser may keep what it read.
    "Cache-Control": "private, max-age=600",
    ETag: `"${served.kind}-${served.version}"`,
    "X-Content-Type-Options": "nosniff",
  };
  if (range) headers["Content-Range"] = `bytes ${range.start}-${range.end}/${served.size}`;
  return c.body(body as ReadableStream<Uint8Array<ArrayBuffer>>, range ? 206 : 200, headers);
});
