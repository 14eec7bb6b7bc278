// v1/uploads/, declared: where the browser PUTs an admin file on a host whose store hands out no
// direct URL (the local folder), standing in for the S3 presigned PUT of AWS (http/UPLOADS.md).
// Its signed token in ?token= is the credential. Served by http/direct-uploads.ts.
import * as z from "zod";
import { access, binaryFile, json, route, XLSX } from "./declare";
import { videoContent } from "./media";

const signedUpload = access("admin", "signed", {
  scope: "platform",
  note: "the signed token names the one storage key it may write once: an admin's file, or a user's forecast history under their company's prefix",
});

export const uploadRoute = route(
  signedUpload(
    "directUpload",
    "The local upload URL: the file of an upload-url grant, streamed to storage",
    [400, 404, 409, 411, 415],
    "Only on a host whose storage hands out no presigned URL (npm start); in AWS the grant's URL is S3's and " +
      "this answers 404. The token is the upload_id; Content-Type must be the declared one; the body is capped at the granted size.",
  ),
  {
    put: "/",
    cost: "light",
    // Checked by the domain, which answers 401 without it as for a bad one.
    query: z.object({ token: z.optional(z.string().meta({ description: "The upload_id of …/upload-url/" })) }),
    body: {
      required: true,
      content: {
        "application/pdf": binaryFile(),
        ...videoContent,
        "text/csv": binaryFile(),
        [XLSX]: binaryFile(),
      },
    },
    bodyCap: "direct",
    200: json(z.object({ detail: z.string(), size: z.int() }), "Stored"),
  },
);

/** The route of v1/uploads/, as http/direct-uploads.ts serves it. */
export const DIRECT_UPLOAD_ROUTES = [uploadRoute] as const;
