// The BlobStore port on S3. A key's first segment names its area ("uploads/…", "exports/…",
// "documents/…", "media/…"); the area picks the bucket and stays part of the object key, so the
// IAM grants and the S3 notification filter can both be written per prefix. Keys are checked like
// the local store's so that none can leave its area.
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import type { BlobStore } from "../../ports";
// The one Content-Disposition builder, shared with the routes that send files themselves.
import { attachmentDisposition } from "../../http/download";

const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._\-/]*$/;

/** Area (first key segment) → bucket name. */
export type BlobBuckets = Record<string, string>;

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
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
    async delete(key) {
      await s3.send(new DeleteObjectCommand(locate(key)));
    },
    /** A presigned GET: S3 itself names the file through response-content-disposition. The URL
     *  carries the function's temporary credentials, so it lives at most as long as they do. */
    async downloadUrl(key, fileName, expiresInSeconds) {
      const command = new GetObjectCommand({ ...locate(key), ResponseContentDisposition: attachmentDisposition(fileName) });
      return getSignedUrl(s3, command, { expiresIn: expiresInSeconds });
    },
  };
}
