// v1/uploads/: where the browser PUTs an admin file on a host whose store hands out no direct URL
// (the local folder). It stands in for the S3 presigned PUT of AWS, so the web app has one flow:
// POST …/upload-url/ → PUT url → POST …/complete/ (domain/files/direct-uploads.ts, http/UPLOADS.md).
// Like a presigned URL, the signed token in ?token= is the credential: the route is mounted before
// requireUser. The body is streamed to storage under the granted cap (http/uploads.ts refuses a
// body without Content-Length or over the largest cap before it is read). The declaration is in
// routes/direct-uploads.ts.
import { receiveUpload } from "../domain/files/direct-uploads";
import { routeApp } from "./openapi-routes";
import { uploadRoute } from "../contract/routes/direct-uploads";

export const directUploadRoutes = routeApp().openapi(uploadRoute, async (c) => {
  const length = c.req.header("content-length");
  const { size } = await receiveUpload(c.get("deps"), c.req.valid("query").token, {
    body: c.req.raw.body,
    contentType: c.req.header("content-type") ?? "",
    declaredLength: length !== undefined ? Number(length) : undefined,
  });
  return c.json({ detail: "Файл загружен", size }, 200);
});
