// S3's "object created" notifications for the local blob folder: every object written under
// uploads/ (the prefix the stack subscribes the upload function to) becomes the record S3 would
// send, and the upload check (functions/src/events/upload-check.ts) runs on it in-process.
import type { BlobStore, StreamingBlobStore } from "../ports";
import { checkUploads, encodeS3Key, type S3UploadRecord } from "../events/upload-check";
import { eventQueue } from "./event-queue";

/** The bucket name the local notifications carry (the check ignores it: one folder holds all). */
const LOCAL_UPLOADS_BUCKET = "local-uploads";
const PREFIX = "uploads/";

export type LocalStore = BlobStore & StreamingBlobStore;

export function withUploadNotifications(store: LocalStore, log: Pick<Console, "info" | "warn" | "error"> = console) {
  const queue = eventQueue<S3UploadRecord>(
    async (records) => {
      await checkUploads({ Records: records }, () => store, log);
    },
    { name: "upload notifications", log },
  );
  const created = (key: string, size: number, how: UploadCreation) => {
    if (!key.startsWith(PREFIX)) return;
    queue.push({
      eventName: `ObjectCreated:${how}`,
      s3: { bucket: { name: LOCAL_UPLOADS_BUCKET }, object: { key: encodeS3Key(key), size } },
    });
  };
  return { blobs: notifyingStore(store, created), created, settled: () => queue.settled() };
}

/** How an object came to be, as S3 names it. */
export type UploadCreation = "Put" | "CompleteMultipartUpload";

/** `store` telling `created` of each object written (an app thread's, which tells the front's queue:
 *  app-thread.ts). */
export function notifyingStore(store: LocalStore, created: (key: string, size: number, how: UploadCreation) => unknown): LocalStore {
  return {
    ...store,
    async put(key, body, contentType) {
      await store.put(key, body, contentType);
      await created(key, body.byteLength, "Put");
    },
    async putStream(key, body, contentType, options) {
      const size = await store.putStream(key, body, contentType, options);
      await created(key, size, "CompleteMultipartUpload");
      return size;
    },
  };
}
