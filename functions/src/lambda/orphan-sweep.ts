// The nightly sweep of calculation files no calculation refers to (domain/files/orphan-blobs.ts): a
// schedule in the stack runs it; the keys it deleted are one JSON log line (CloudWatch).
import { S3Client } from "@aws-sdk/client-s3";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { s3BlobStore } from "../adapters/blob/s3-blob-store";
import { systemClock } from "../domain/context";
import { CALCULATION_BLOB_AREAS, sweepOrphanBlobs } from "../domain/files/orphan-blobs";
import { requiredEnv } from "./secrets";
import { BLOB_AREAS } from "../adapters/blob/areas";
import { LIMITS } from "../contract/schemas/limits";

export async function handler(): Promise<{ deleted: number }> {
  const tableName = requiredEnv("TABLE_NAME");
  const repos = dynamoRepositories(createDocumentClient({ tableName, region: process.env.AWS_REGION }), tableName);
  const blobs = s3BlobStore(
    new S3Client({}),
    Object.fromEntries(CALCULATION_BLOB_AREAS.map((area) => [area, requiredEnv(BLOB_AREAS[area].bucket)])),
  );
  const deleted = await sweepOrphanBlobs({ repos, blobs, clock: systemClock });
  console.info(JSON.stringify({ orphan_files_deleted: { count: deleted.length, keys: deleted.slice(0, LIMITS.count.loggedKeys) } }));
  return { deleted: deleted.length };
}
