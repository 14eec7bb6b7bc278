// Builds the API's Deps in Lambda from the environment the CDK stack sets (infra/lib/stack.ts)
// and the secrets it generated.
import { S3Client } from "@aws-sdk/client-s3";
import { SQSClient } from "@aws-sdk/client-sqs";
import { sqsReadingsQueue } from "../adapters/queue/sqs-readings-queue";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { s3BlobStore } from "../adapters/blob/s3-blob-store";
import { lambdaSpreadsheets, spreadsheetWorkerClient } from "../adapters/spreadsheets/lambda-worker";
import { configFromEnv } from "../config";
import { systemClock, type Deps } from "../domain/context";
import { BLOB_AREAS } from "../adapters/blob/areas";
import { KMSClient, kmsSigner } from "../adapters/signing/kms-signer";
import { opensslGostCms } from "../adapters/signing/gost-cms";
import { nativeGostCms } from "../adapters/signing/gost-native";
import { hostRuntime } from "../events/runtime";
import { readSecrets, requiredEnv, SecretsManagerClient } from "./secrets";

export async function lambdaDepsFromEnv(): Promise<{ deps: Deps; originVerify?: string }> {
  const secrets = await readSecrets(new SecretsManagerClient({}), {
    app: requiredEnv("APP_SECRET_ARN"),
    originVerify: process.env.ORIGIN_VERIFY_SECRET_ARN || undefined,
  });
  const tableName = requiredEnv("TABLE_NAME");
  const deps: Deps = {
    repos: dynamoRepositories(createDocumentClient({ tableName, region: process.env.AWS_REGION }), tableName),
    blobs: s3BlobStore(
      new S3Client({}),
      Object.fromEntries(Object.entries(BLOB_AREAS).map(([area, { bucket }]) => [area, requiredEnv(bucket)])),
    ),
    clock: systemClock,
    config: { ...configFromEnv(secrets.jwtSecret, secrets.previousJwtSecret), guardantCode: secrets.guardantCode },
    // Exports and xlsx templates are rendered by the spreadsheet worker function (lambda/spreadsheets.ts),
    // those near their bounds by the job function (the same bundle, its jobHandler).
    spreadsheets: lambdaSpreadsheets(
      spreadsheetWorkerClient(),
      requiredEnv("SPREADSHEET_FUNCTION_NAME"),
      requiredEnv("EXPORT_JOB_FUNCTION_NAME"),
    ),
    signer: kmsSigner(new KMSClient({}), requiredEnv("VERSION_SIGNING_KEY_IDS").split(",")),
    // КЭП of climate periods: the Node runtime has no openssl executable, let alone its GOST engine,
    // so the check is the TypeScript one (Streebog, the GOST curves, CMS; the same answers,
    // adapters/signing/gost-verifiers.test.ts); OpenSSL's where a layer brings it and OPENSSL_BIN
    // names it (`cdk deploy -c opensslBin=…`, docs/architecture.md).
    gostCms: process.env.OPENSSL_BIN ? opensslGostCms({ binary: process.env.OPENSSL_BIN }) : nativeGostCms(),
    // A stored batch of readings is announced on the readings' queue, consumed by its own function.
    readingsQueue: sqsReadingsQueue(new SQSClient({}), requiredEnv("READINGS_QUEUE_URL")),
    // The API's change stream has no subscribers: a binding changed moves no tile in AWS (the page
    // polls the stored days), and the deliveries the demo's events make are sent by the minute function.
    runtime: hostRuntime({ subscribers: [], deps: () => deps }),
  };
  return { deps, originVerify: secrets.originVerify };
}
