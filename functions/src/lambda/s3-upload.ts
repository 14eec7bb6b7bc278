// The Lambda host of the upload check (events/upload-check.ts): the stack subscribes this function
// to the uploads bucket's "object created" notifications for uploads/.
import { S3Client } from "@aws-sdk/client-s3";
import { checkUploads, s3UploadStores, type S3UploadEvent } from "../events/upload-check";

const storeOf = s3UploadStores(new S3Client({}));

export async function handler(event: S3UploadEvent): Promise<void> {
  await checkUploads(event, storeOf);
}
