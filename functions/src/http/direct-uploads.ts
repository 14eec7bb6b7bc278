// v1/uploads/: where the browser PUTs an admin file on a host whose store hands out no direct URL
// (the local folder). It stands in for the S3 presigned PUT of AWS, so the web app has one flow:
// POST …/upload-url/ → PUT url → POST …/complete/ (domain/direct-uploads.ts, http/UPLOADS.md).
// Like a presigned URL, the signed token in ?token= is the credential: the route is mounted before
// requireUser. The body is streamed to storage under the granted cap (http/uploads.ts refuses a
// body without Content-Length or over the largest cap before it is read).
import { Hono } from "hono";
import { receiveUpload } from "../domain/direct-uploads";
import type { AppEnv } from "./env";

export const directUploadRoutes = new Hono<AppEnv>({ strict: false }).put("/", async (c) => {
  const length = c.req.header("content-length");
  const { size } = await receiveUpload(c.get("deps"), c.req.query("token"), {
    body: c.req.raw.body,
    contentType: c.req.header("content-type") ?? "",
    declaredLength: length !== undefined ? Number(length) : undefined,
  });
  return c.json({ detail: "Файл загружен", size }, 200);
});
