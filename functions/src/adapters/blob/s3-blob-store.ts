// The BlobStore port on S3. A key's first segment names its area ("uploads/…", "exports/…",
// "documents/…", "media/…"); the area picks the bucket and stays part of the object key, so the
// IAM grants and the S3 notification filter can both be written per prefix. Keys are checked like
// the local store's so that none can leave its area.
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3ServiceException,
  type S3Client,
} from "@aws-sdk/client-s3";
import type { BuildMiddleware, MetadataBearer, MiddlewareStack } from "@smithy/types";
import type { BlobStore, PresignedUpload } from "../../ports";
// The one Content-Disposition builder, shared with the routes that send files themselves.
import { attachmentDisposition } from "../../files/file-names";
import { PENDING_UPLOAD_TAG } from "./areas";

/** `x-amz-tagging` of a direct upload: URL-query encoded, as S3 wants it. */
const PENDING_TAGGING = `${PENDING_UPLOAD_TAG.key}=${PENDING_UPLOAD_TAG.value}`;

const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._\-/]*$/;

/** Area (first key segment) → bucket name. */
export type BlobBuckets = Record<string, string>;

/** S3's answer for a key that is not (or no longer) there. */
export const isMissingObject = (error: unknown) =>
  error instanceof NoSuchKey ||
  error instanceof NotFound ||
  (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

/** A presigned URL is used by the browser, which computes and validates no checksum: the SDK's
 *  default flexible checksum of a PUT (a CRC32 of the empty body, hoisted into the query) would
 *  make S3 refuse every upload, and a GET's x-amz-checksum-mode is of use to the SDK only. Dropped
 *  after the checksum middlewares (build step) have added them, before signing. */
function withoutChecksum<C extends PutObjectCommand | GetObjectCommand>(command: C): C {
  const strip: BuildMiddleware<object, MetadataBearer> = (next) => async (args) => {
    const headers = (args.request as { headers?: Record<string, string> }).headers ?? {};
    for (const name of Object.keys(headers)) {
      if (/^x-amz-(checksum-|sdk-checksum-algorithm$)/i.test(name)) delete headers[name];
    }
    return next(args);
  };
  (command.middlewareStack as MiddlewareStack<object, MetadataBearer>).add(strip, {
    step: "build",
    priority: "low",
    name: "omitPresignedChecksum",
  });
  return command;
}

export function s3BlobStore(s3: S3Client, buckets: BlobBuckets): BlobStore {
  const locate = (key: string) => {
    const area = key.slice(0, key.indexOf("/"));
    const segments = key.split("/");
    const valid =
      KEY_RE.test(key) &&
      segments.length >= 2 &&
      segments.every((s) => s !== "" && s !== "." && s !== "..") &&
      Object.hasOwn(buckets, area);
    if (!valid) throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
    return { Bucket: buckets[area], Key: key };
  };
  return {
    async put(key, body, contentType) {
      await s3.send(new PutObjectCommand({ ...locate(key), Body: body, ContentType: contentType }));
    },
    async get(key) {
      const where = locate(key);
      try {
        const out = await s3.send(new GetObjectCommand(where));
        if (!out.Body) return undefined;
        return {
          body: await out.Body.transformToByteArray(),
          contentType: out.ContentType ?? "application/octet-stream",
        };
      } catch (error) {
        if (isMissingObject(error)) return undefined;
        throw error;
      }
    },
    async delete(key) {
      await s3.send(new DeleteObjectCommand(locate(key)));
    },
    /** A presigned GET: S3 itself names the file through response-content-disposition (inline for
     *  a <video src>, which S3 then serves with byte ranges). The URL carries the function's
     *  temporary credentials, so it lives at most as long as they do. */
    async downloadUrl(key, fileName, expiresInSeconds, disposition = "attachment") {
      const header = attachmentDisposition(fileName).replace(/^attachment/, disposition);
      const command = withoutChecksum(new GetObjectCommand({ ...locate(key), ResponseContentDisposition: header }));
      return getSignedUrl(s3, command, { expiresIn: expiresInSeconds });
    },
    /** A presigned PUT with three headers signed: Content-Type (S3 refuses the upload when the
     *  browser sends another type), If-None-Match: * (a conditional write: the URL creates the
     *  object once and can never overwrite it, so a registered file cannot be replaced through a
     *  URL that is still valid) and x-amz-tagging: upload=pending (the object is created tagged;
     *  `confirmUpload` untags it on completion, and the bucket's lifecycle rule expires what is
     *  still tagged after a day). The tag stays a header: hoisted into the query, as the presigner
     *  does with x-amz-* by default, the browser could leave it out. The size cannot be bounded by a
     *  presigned PUT (only a presigned POST policy has content-length-range), so `maxBytes` is left
     *  to the caller's check of what arrived. */
    async uploadUrl(key, contentType, _maxBytes, expiresInSeconds, options): Promise<PresignedUpload> {
      // With `contentLength` (every direct upload's declared size), Content-Length is signed too:
      // S3 refuses a body of any other size, so the declared size is the file's. The browser sets the header
      // itself from the body (it may not be set by a script), so it is not in `headers`.
      const length = options?.contentLength;
      const command = withoutChecksum(
        new PutObjectCommand({
          ...locate(key),
          ContentType: contentType,
          IfNoneMatch: "*",
          Tagging: PENDING_TAGGING,
          ...(length !== undefined ? { ContentLength: length } : {}),
        }),
      );
      const url = await getSignedUrl(s3, command, {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(["content-type", "if-none-match", "x-amz-tagging", ...(length !== undefined ? ["content-length"] : [])]),
        unhoistableHeaders: new Set(["x-amz-tagging"]),
      });
      return { url, method: "PUT", headers: { "Content-Type": contentType, "If-None-Match": "*", "x-amz-tagging": PENDING_TAGGING } };
    },
    /** Completion accepted the object: an empty tag set drops the pending tag, so the lifecycle
     *  rule leaves it alone (authorised by s3:PutObjectTagging, which the tagged PUT needs anyway;
     *  DeleteObjectTagging would need one more action). */
    async confirmUpload(key) {
      await s3.send(new PutObjectTaggingCommand({ ...locate(key), Tagging: { TagSet: [] } }));
    },
    /** ListObjectsV2 under `{area}/`, one page (≤ 1 000 keys) at a time (s3:ListBucket). */
    async *keysWrittenBefore(area, before) {
      const Bucket = locate(`${area}/x`).Bucket;
      for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket, Prefix: `${area}/` })) {
        const keys = (page.Contents ?? [])
          .filter((object) => object.Key && object.LastModified && object.LastModified < before)
          .map((object) => object.Key!);
        if (keys.length > 0) yield keys;
      }
    },
    async stat(key) {
      try {
        const out = await s3.send(new HeadObjectCommand(locate(key)));
        return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? "application/octet-stream" };
      } catch (error) {
        if (isMissingObject(error)) return undefined;
        throw error;
      }
    },
    /** A ranged GET, streamed: the object is never read whole. */
    async getRange(key, start, end) {
      try {
        const out = await s3.send(new GetObjectCommand({ ...locate(key), Range: `bytes=${start}-${end}` }));
        return out.Body?.transformToWebStream() as ReadableStream<Uint8Array> | undefined;
      } catch (error) {
        if (isMissingObject(error)) return undefined;
        throw error;
      }
    },
  };
}
