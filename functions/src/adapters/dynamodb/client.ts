// One DynamoDB document client for both dynalite (local, tests) and AWS.
import {
  DynamoDBClient,
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  type DynamoDBClientConfig,
} from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { GSI1 } from "./keys";
import { guardStorableValues } from "./storable";
import { coalesceGets } from "./coalesced-gets";

export interface DynamoSettings {
  tableName: string;
  /** Set for dynalite; absent in AWS where the SDK finds the regional endpoint. */
  endpoint?: string;
  region?: string;
  /** With `endpoint`: a transport of the local host's own in place of HTTP (local/dynalite-port.ts).
   *  Its requests never leave the process and the engine checks no signature: they go unsigned. */
  requestHandler?: DynamoDBClientConfig["requestHandler"];
  /** With `endpoint`: the secret the local engine's loopback port asks of every caller (an earlier round
   *  R18, local/dynalite.ts), sent as the access key id the SDK signs with. */
  engineSecret?: string;
}

/** What the SDK adds to every call for a request that goes over HTTP to AWS: on the local host's
 *  message port (`requestHandler`) the request never leaves the process and the engine reads none
 *  of it (a user agent, a trace header, the host and length headers, the signature and the choice
 *  of its scheme). Nor does it retry there: the engine never throttles, and a port whose engine is
 *  gone stays so, so a retry would only fail again; the retry's per-call bookkeeping (an error, an
 *  invocation id, a token) was a tenth of a call's CPU on that port. On AWS all of them stay. */
const NOT_FOR_A_PORT = [
  "getUserAgentMiddleware",
  "recursionDetectionMiddleware",
  "hostHeaderMiddleware",
  "contentLengthMiddleware",
  "httpAuthSchemeMiddleware",
  "httpSigningMiddleware",
  "retryMiddleware",
];

/** How the document client turns objects into DynamoDB values (the local table stream marshals
 *  its images the same way). */
export const MARSHALL_OPTIONS = { removeUndefinedValues: true, convertClassInstanceToMap: false } as const;

export function createDocumentClient(settings: DynamoSettings): DynamoDBDocumentClient {
  const client = new DynamoDBClient(
    settings.endpoint
      ? {
          endpoint: settings.endpoint,
          region: settings.region ?? "local",
          // dynalite checks no signature; the local engine's port checks the key id names its
          // secret, where it has one (local/dynalite.ts).
          credentials: { accessKeyId: settings.engineSecret ?? "local", secretAccessKey: "local" },
          maxAttempts: 3,
          ...(settings.requestHandler ? { requestHandler: settings.requestHandler } : {}),
        }
      : { region: settings.region },
  );
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { ...MARSHALL_OPTIONS },
  });
  // No logger is configured (the SDK's default logs nothing), yet its logger middleware would walk
  // every call's input and output through the schema to hide sensitive values from it.
  doc.middlewareStack.remove("loggerMiddleware");
  if (settings.requestHandler) for (const name of NOT_FOR_A_PORT) doc.middlewareStack.remove(name);
  guardStorableValues(doc);
  coalesceGets(doc);
  return doc;
}

/** Creates the table with the layout of keys.ts if it does not exist (local mode and tests only;
 *  in AWS the CDK stack owns the table). */
export async function ensureTable(doc: DynamoDBDocumentClient, tableName: string): Promise<void> {
  try {
    await doc.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await doc.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [
        { AttributeName: "PK", AttributeType: "S" },
        { AttributeName: "SK", AttributeType: "S" },
        { AttributeName: "GSI1PK", AttributeType: "S" },
        { AttributeName: "GSI1SK", AttributeType: "S" },
      ],
      KeySchema: [
        { AttributeName: "PK", KeyType: "HASH" },
        { AttributeName: "SK", KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: GSI1,
          KeySchema: [
            { AttributeName: "GSI1PK", KeyType: "HASH" },
            { AttributeName: "GSI1SK", KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: "ALL" },
        },
      ],
    }),
  );
  for (let i = 0; i < 100; i++) {
    const { Table } = await doc.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === "ACTIVE") return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`table ${tableName} did not become active`);
}
