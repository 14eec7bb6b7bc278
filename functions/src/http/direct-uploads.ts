// v1/uploads/: where the browser PUTs an admin file on a host whose store hands out no direct URL
// (the local folder). It stands in for the S3 presigned PUT of AWS, so the web app has one flow:
// POST …/upload-url/ → PUT url → POST …/complete/ (domain/direct-uploads.ts, http/UPLOADS.md).
// Like a presigned URL, the signed token in ?token= is the credential: the route is mounted before
// requireUser. The body is streamed to storage under the granted cap (http/uploads.ts refuses a
// body without Content-Length or over the largest cap before it is read).
import * as z from "zod";
import { receiveUpload } from "../domain/direct-uploads";
import { routeApp } from "./openapi-routes";
import { binaryFile, declareRoute, json } from "../routes/declare";

const uploadRoute = declareRoute(
  {
    operationId: "directUpload",
    summary: "The local upload URL: the file of an upload-url grant, streamed to storage",
    description:
      "Only on a host whose storage hands out no presigned URL (npm start); in AWS the grant's URL is S3's and " +
      "this answers 404. The token is the upload_id; Content-Type must be the declared one; the body is capped at the granted size.",
    tag: "admin",
    auth: "signed",
    isolation: { scope: "platform", note: "the signed token names the one storage key it may write once; granted to admins only" },
    errors: [400, 404, 409, 411, 415],
  },
  {
    method: "put",
    path: "/",
    request: {
      // Checked by the domain, which answers 401 without it as for a bad one.
      query: z.object({ token: z.optional(z.string().meta({ description: "The upload_id of …/upload-url/" })) }),
      body: { required: true, content: { "application/pdf": binaryFile(), "video/mp4": binaryFile(), "video/webm": binaryFile() } },
    },
    responses: { 200: json(z.object({ detail: z.string(), size: z.int() }), "Stored") },
  },
);

export const directUploadRoutes = routeApp().openapi(uploadRoute, async (c) => {
  const length = c.req.header("content-length");
  const { size } = await receiveUpload(c.get("deps"), c.req.valid("query").token, {
    body: c.req.raw.body,
    contentType: c.req.header("content-type") ?? "",
    declaredLength: length !== undefined ? Number(length) : undefined,
  });
  return c.json({ detail: "Файл загружен", size }, 200);
});
