// The CDK app synthesised offline (no CLI, no network, no Docker: esbuild bundles on this
// machine), once per stage, and checked resource by resource. The bundles, the same in every stage,
// are those of the prod stack the deploy rehearsal runs, bundled once per test run.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { App } from "aws-cdk-lib";
import { BUNDLING_STACKS, VALIDATE_AGAINST_DEFAULT_RULES } from "aws-cdk-lib/cx-api";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUNCTION_SIZES, type FunctionId } from "../../infra/lib/function-sizes";
import {
  AppStack,
  documentsCorsRule,
  JOB_MEMORY_MB,
  ORIGIN_VERIFY_HEADER,
  REPO_ROOT,
  WASM_FILES,
  DEFAULT_MODELS,
} from "../../infra/lib/stack";
import { cloudFrontContentSecurityPolicy, CONTENT_SECURITY_POLICY, EXTRA_SECURITY_HEADERS } from "../../infra/lib/security-headers";
import { stageFrom } from "../../infra/lib/stage";
import { ORIGIN_VERIFY_HEADER as CHECKED_HEADER } from "@server/lambda/api";
import { GSI1 } from "@server/adapters/dynamodb/keys";
import { PASSPORT_FONTS } from "@server/export/formats";
import { JOB_RUN_LIMIT_MS, JOB_START_WINDOW_MS, JOB_TIMEOUT_SECONDS, TRAINING_BUDGET_MS } from "@server/adapters/spreadsheets/jobs";
import { BLOB_AREAS, PENDING_UPLOAD_TAG } from "@server/adapters/blob/areas";
import { DIRECT_UPLOAD_AREAS } from "@server/domain/files/direct-uploads";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { MINUTE_FUNCTION_EVERY_MS } from "@server/events/schedule";
import { prodAssembly } from "../rehearsal/synth";

// Managed CloudFront policy ids (AWS documentation, "Use managed ... policies").
const CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";
const ALL_VIEWER_EXCEPT_HOST_HEADER = "b689b0a8-53d0-40ab-baf2-68738e2966ac";
const OUR_FUNCTIONS = [
  "ApiFunction",
  "UploadCheckFunction",
  "StreamAuditFunction",
  "SpreadsheetFunction",
  "ExportJobFunction",
  "StatisticsReconcileFunction",
  "OrphanSweepFunction",
  "TelemetryConsumerFunction",
  "MonitoringMinuteFunction",
] as const;
/** No alarms of their own (the ten alarms are CloudWatch's free tier): the nightly ones are retried
 *  and rerun the next night; a failed export job is reported to its user and logged. */
const UNALARMED_FUNCTIONS: readonly string[] = [
  "StatisticsReconcileFunction",
  "OrphanSweepFunction",
  "ExportJobFunction",
  // A message it fails is delivered again, then kept 14 days in the dead-letter queue, and its batch
  // stays «queued» in the status its user reads.
  "TelemetryConsumerFunction",
  // Each minute's run does what the one before left from what is stored; a failure is its log line.
  "MonitoringMinuteFunction",
];
/** The handler each function's bundle exports; the job function is the worker's bundle. */
const HANDLERS: Partial<Record<(typeof OUR_FUNCTIONS)[number], string>> = { ExportJobFunction: "index.jobHandler" };
const ONE_MB = 1024 * 1024;

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

interface Synth {
  template: Template;
  stack: AppStack;
}

/** The stack's template, its functions' code left unbundled (the bundles' tests read `bundled`'s).
 *  CDK's check of the template against the CloudFormation schemas and its default rules fails the
 *  synthesis on any finding (the other syntheses of the suite leave it out). */
function synth(stage: "dev" | "prod", webDist: string): Synth {
  const outdir = mkdtempSync(join(tmpdir(), `cdk-${stage}-`));
  const app = new App({ outdir, context: { [BUNDLING_STACKS]: [], [VALIDATE_AGAINST_DEFAULT_RULES]: true } });
  const stack = new AppStack(app, `Test-${stage}`, { stage, webDist });
  return { template: Template.fromStack(stack), stack };
}

let dev: Synth;
let prod: Synth;
/** The prod stack with its functions bundled, as deployed (bundling does not depend on the stage). */
let bundled: { template: Template; outdir: string };

beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), "web-dist-"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>test</title>");
  dev = synth("dev", webDist);
  // prod without a built web app: synth must still work, with a warning.
  prod = synth("prod", join(webDist, "missing"));
  const assembly = await prodAssembly();
  bundled = { template: Template.fromJSON(assembly.template), outdir: assembly.outdir };
}, 180_000);

function resources(t: Template, type: string): Record<string, Resource> {
  return t.findResources(type) as Record<string, Resource>;
}

/** Our four functions by name (the custom-resource helpers CDK adds are not ours). */
function ourFunctions(t: Template): Record<(typeof OUR_FUNCTIONS)[number], [string, Resource]> {
  const all = Object.entries(resources(t, "AWS::Lambda::Function"));
  return Object.fromEntries(
    OUR_FUNCTIONS.map((name) => {
      const found = all.filter(([id]) => new RegExp(`^${name}[0-9A-F]{8}$`).test(id));
      expect(found, name).toHaveLength(1);
      return [name, found[0]];
    }),
  ) as never;
}

type Statement = { Effect: string; Action: string | string[]; Resource?: unknown; Condition?: unknown };

function statementsOfRole(t: Template, roleId: string): Statement[] {
  return Object.values(resources(t, "AWS::IAM::Policy"))
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(`"${roleId}"`))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}

function statementsOfFunction(t: Template, name: (typeof OUR_FUNCTIONS)[number]): Statement[] {
  const [, fn] = ourFunctions(t)[name];
  return statementsOfRole(t, fn.Properties.Role["Fn::GetAtt"][0]);
}

const actions = (statements: Statement[]) => statements.flatMap((s) => [s.Action].flat()).sort();

describe.each([
  ["dev", () => dev],
  ["prod", () => prod],
])("%s stack", (stage, get) => {
  it("has the single table of SCHEMA.md: on demand, PITR, stream of both images, GSI1, TTL expires_at", () => {
    get().template.hasResourceProperties("AWS::DynamoDB::Table", {
      BillingMode: "PAY_PER_REQUEST",
      KeySchema: [
        { AttributeName: "PK", KeyType: "HASH" },
        { AttributeName: "SK", KeyType: "RANGE" },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: "NEW_AND_OLD_IMAGES" },
      TimeToLiveSpecification: { AttributeName: "expires_at", Enabled: true },
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
    });
  });

  it("keeps four private, TLS-only, encrypted buckets and their access-log bucket", () => {
    const t = get().template;
    const buckets = resources(t, "AWS::S3::Bucket");
    expect(Object.keys(buckets)).toHaveLength(5);
    for (const [id, bucket] of Object.entries(buckets)) {
      expect(bucket.Properties.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault).toEqual({
        SSEAlgorithm: "AES256",
      });
      const policy = Object.values(resources(t, "AWS::S3::BucketPolicy")).find((p) => p.Properties.Bucket.Ref === id);
      expect(policy, `${id} has a bucket policy`).toBeDefined();
      expect(policy!.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: "Deny", Action: "s3:*", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
      );
    }
  });

  it("expires exports after 7 days", () => {
    const [, exportsBucket] = Object.entries(resources(get().template, "AWS::S3::Bucket")).find(([id]) => id.startsWith("ExportsBucket"))!;
    expect(exportsBucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ ExpirationInDays: 7, Status: "Enabled" }),
    );
  });

  it("expires direct uploads never completed (still tagged upload=pending) after a day", () => {
    const buckets = Object.entries(resources(get().template, "AWS::S3::Bucket"));
    const [, documentsBucket] = buckets.find(([id]) => id.startsWith("DocumentsBucket"))!;
    const rules = documentsBucket.Properties.LifecycleConfiguration.Rules as Array<Record<string, unknown>>;
    expect(rules).toContainEqual({
      Id: "AbandonedUploads",
      Status: "Enabled",
      TagFilters: [{ Key: PENDING_UPLOAD_TAG.key, Value: PENDING_UPLOAD_TAG.value }],
      ExpirationInDays: 1,
    });
    // By the tag alone (no prefix: registered files are untagged, whatever their age).
    expect(rules.find((r) => r.TagFilters)!.Prefix).toBeUndefined();
    expect(rules).toContainEqual({ Status: "Enabled", AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } });
    expect(PENDING_UPLOAD_TAG).toEqual({ key: "upload", value: "pending", days: 1 });
    // No other bucket expires by that tag.
    for (const [id, bucket] of buckets.filter(([id]) => !id.startsWith("DocumentsBucket"))) {
      expect(JSON.stringify(bucket.Properties.LifecycleConfiguration ?? {}), id).not.toContain("TagFilters");
    }
    // Forecast histories (domain/forecast/uploads.ts) are deleted by the call that uses them; what is
    // left under their prefix expires after a day, tagged or not.
    expect(rules).toContainEqual({ Id: "ForecastUploads", Status: "Enabled", Prefix: "forecast-uploads/", ExpirationInDays: 1 });
    expect(BLOB_AREAS["forecast-uploads"]).toEqual({ bucket: "DOCUMENTS_BUCKET", access: "readWrite", directUploads: true });
    // The areas granted the tagging action are the ones the local sweep looks at.
    expect(
      Object.entries(BLOB_AREAS)
        .filter(([, a]) => a.directUploads)
        .map(([area]) => area),
    ).toEqual([...DIRECT_UPLOAD_AREAS]);
  });

  it("grants no wildcard action (no *, dynamodb:*, s3:*) to any role", () => {
    const t = get().template;
    const roleStatements = [
      ...Object.values(resources(t, "AWS::IAM::Policy")).flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]),
      ...Object.values(resources(t, "AWS::IAM::Role")).flatMap((r) =>
        ((r.Properties.Policies ?? []) as Array<{ PolicyDocument: { Statement: Statement[] } }>).flatMap((p) => p.PolicyDocument.Statement),
      ),
    ];
    expect(roleStatements.length).toBeGreaterThan(5);
    for (const action of actions(roleStatements.filter((s) => s.Effect === "Allow"))) {
      expect(action).not.toBe("*");
      expect(action).not.toMatch(/^[a-z0-9-]+:\*$/);
    }
    // Bucket policies: only the TLS deny may name s3:*.
    for (const policy of Object.values(resources(t, "AWS::S3::BucketPolicy"))) {
      for (const s of policy.Properties.PolicyDocument.Statement as Statement[]) {
        if (s.Effect === "Allow") for (const a of [s.Action].flat()) expect(a).not.toMatch(/^(\*|[a-z0-9-]+:\*)$/);
      }
    }
  });

  it("runs our functions on Node 24, ARM, with a one-month log group", () => {
    const t = get().template;
    const logGroups = resources(t, "AWS::Logs::LogGroup");
    for (const [name, [, fn]] of Object.entries(ourFunctions(t))) {
      expect(fn.Properties.Runtime, name).toBe("nodejs24.x");
      expect(fn.Properties.Architectures, name).toEqual(["arm64"]);
      expect(fn.Properties.Handler, name).toBe(HANDLERS[name as (typeof OUR_FUNCTIONS)[number]] ?? "index.handler");
      expect(logGroups[fn.Properties.LoggingConfig.LogGroup.Ref].Properties.RetentionInDays, name).toBe(30);
      // The sizes docs/ gives are read from the same table (tests/integration/docs-numbers.test.ts).
      const size = FUNCTION_SIZES[name as FunctionId];
      expect([fn.Properties.MemorySize, fn.Properties.Timeout], name).toEqual([size.memoryMb, size.timeoutSeconds]);
    }
    expect(Object.keys(ourFunctions(t)).sort()).toEqual(Object.keys(FUNCTION_SIZES).sort());
  });

  it("gives the spreadsheet worker room for big exports and a timeout inside the API's", () => {
    const fns = ourFunctions(get().template);
    const [, api] = fns.ApiFunction;
    const [, worker] = fns.SpreadsheetFunction;
    expect(worker.Properties.MemorySize).toBeGreaterThanOrEqual(1024);
    // API Gateway waits 30 s; the API (29 s) must outlive the worker's invoke to answer its failure.
    expect(api.Properties.Timeout).toBeLessThan(30);
    expect(worker.Properties.Timeout).toBeLessThanOrEqual(api.Properties.Timeout - 3);
  });

  it("runs the jobs in a function of their own, on the worker's bundle, with Lambda's longest timeout and no retry", () => {
    const t = get().template;
    const fns = ourFunctions(t);
    const [jobId, job] = fns.ExportJobFunction;
    const [, worker] = fns.SpreadsheetFunction;
    expect(job.Properties.Timeout).toBe(JOB_TIMEOUT_SECONDS);
    expect(job.Properties.Timeout).toBe(15 * 60);
    // A training job is one thread of CPU for minutes: Lambda gives one whole vCPU from 1 769 MB.
    expect(job.Properties.MemorySize).toBe(JOB_MEMORY_MB);
    expect(job.Properties.MemorySize).toBeGreaterThanOrEqual(1769);
    // The training stops itself a minute before the timeout, to record why (domain/forecast/training.ts).
    expect(TRAINING_BUDGET_MS).toBe((JOB_TIMEOUT_SECONDS - 60) * 1000);
    // The same bundle: the same asset, another export of it.
    expect(job.Properties.Code).toEqual(worker.Properties.Code);
    expect(job.Properties.Environment).toEqual(worker.Properties.Environment);
    // A job that failed recorded it; a retry would render it again. Lambda drops an event no
    // sooner than the status route stops calling it queued.
    const [config] = Object.values(resources(t, "AWS::Lambda::EventInvokeConfig"));
    expect(config.Properties).toMatchObject({
      FunctionName: { Ref: jobId },
      MaximumRetryAttempts: 0,
      MaximumEventAgeInSeconds: JOB_START_WINDOW_MS / 1000,
    });
    // JOB_RUN_LIMIT_MS reads a job still running past the timeout as failed.
    expect(JOB_RUN_LIMIT_MS).toBeGreaterThan(JOB_TIMEOUT_SECONDS * 1000);
  });

  it("gives the API its names through the environment and no secret value", () => {
    const t = get().template;
    const [, api] = ourFunctions(t).ApiFunction;
    const env = api.Properties.Environment.Variables as Record<string, unknown>;
    expect(Object.keys(env).sort()).toEqual(
      [
        "APP_SECRET_ARN",
        "DOCUMENTS_BUCKET",
        "EXPORTS_BUCKET",
        "ORIGIN_VERIFY_SECRET_ARN",
        "REQUEST_LOG",
        "SPREADSHEET_FUNCTION_NAME",
        "EXPORT_JOB_FUNCTION_NAME",
        "OPENSSL_BIN",
        "TABLE_NAME",
        "READINGS_QUEUE_URL",
        "UPLOADS_BUCKET",
        "VERSION_SIGNING_KEY_IDS",
      ].sort(),
    );
    // Names of resources, never a secret value; the request log's mode and the КЭП's OpenSSL (none,
    // so the TypeScript check, unless the deploy's context names one a layer brings) are the literals.
    const { REQUEST_LOG, OPENSSL_BIN, ...names } = env;
    expect(REQUEST_LOG).toBe("all");
    expect(OPENSSL_BIN).toBe("");
    for (const value of Object.values(names)) expect(value).toEqual({ Ref: expect.any(String) });
    const [workerId] = ourFunctions(t).SpreadsheetFunction;
    expect(env.SPREADSHEET_FUNCTION_NAME).toEqual({ Ref: workerId });
    expect(env.EXPORT_JOB_FUNCTION_NAME).toEqual({ Ref: ourFunctions(t).ExportJobFunction[0] });
    const [, worker] = ourFunctions(t).SpreadsheetFunction;
    const workerEnv = worker.Properties.Environment.Variables as Record<string, unknown>;
    // The version key's id: a verification pack's manifest is signed where it is made (the security review's R9).
    // The documents bucket: a reconciliation's job reads the mine's export there.
    expect(Object.keys(workerEnv).sort()).toEqual([
      "DOCUMENTS_BUCKET",
      "EXPORTS_BUCKET",
      "TABLE_NAME",
      "UPLOADS_BUCKET",
      "VERSION_SIGNING_KEY_IDS",
    ]);
    expect(workerEnv.DOCUMENTS_BUCKET).toEqual(env.DOCUMENTS_BUCKET);
    expect(workerEnv.EXPORTS_BUCKET).toEqual({ Ref: expect.stringMatching(/^ExportsBucket/) });
    // Exports read the forecasts' rows (forecasts/ in the uploads bucket).
    expect(workerEnv.UPLOADS_BUCKET).toEqual(env.UPLOADS_BUCKET);
    const secrets = Object.values(resources(t, "AWS::SecretsManager::Secret"));
    expect(secrets).toHaveLength(2);
    for (const secret of secrets) {
      expect(secret.Properties.GenerateSecretString).toBeDefined();
      expect(secret.Properties.SecretString).toBeUndefined();
    }
    expect(secrets.map((s) => s.Properties.GenerateSecretString.GenerateStringKey)).toContain("jwt_secret");
  });

  it("feeds the readings' function from an encrypted SQS queue with a dead-letter queue, partial batch failures and the bucket's drops", () => {
    const t = get().template;
    const queues = resources(t, "AWS::SQS::Queue");
    const [queueId, queue] = Object.entries(queues).find(([id]) => id.startsWith("TelemetryQueue"))!;
    const [deadId, dead] = Object.entries(queues).find(([id]) => id.startsWith("TelemetryDeadLetters"))!;
    expect(Object.keys(queues)).toHaveLength(2);
    expect(queue.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 2 * FUNCTION_SIZES.TelemetryConsumerFunction.timeoutSeconds,
      RedrivePolicy: { deadLetterTargetArn: { "Fn::GetAtt": [deadId, "Arn"] }, maxReceiveCount: 5 },
    });
    expect(dead.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    // Both refuse requests without TLS.
    for (const id of [queueId, deadId]) {
      const policy = Object.values(resources(t, "AWS::SQS::QueuePolicy")).find((p) => JSON.stringify(p.Properties.Queues).includes(id))!;
      expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    }
    const [consumerId, consumer] = ourFunctions(t).TelemetryConsumerFunction;
    expect(consumer.Properties).toMatchObject({
      MemorySize: FUNCTION_SIZES.TelemetryConsumerFunction.memoryMb,
      Timeout: FUNCTION_SIZES.TelemetryConsumerFunction.timeoutSeconds,
    });
    const mappings = Object.values(resources(t, "AWS::Lambda::EventSourceMapping")).filter((m) =>
      JSON.stringify(m.Properties.FunctionName).includes(consumerId),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0].Properties).toMatchObject({
      EventSourceArn: { "Fn::GetAtt": [queueId, "Arn"] },
      BatchSize: 10,
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
    // The consumer receives and deletes on its queue, reads and writes the table's items, and reads the
    // stored batches and files and the companies' model files its forecaster scores; it writes no object.
    const statements = statementsOfFunction(t, "TelemetryConsumerFunction");
    expect(actions(statements).filter((a) => a.startsWith("sqs:"))).toEqual(
      expect.arrayContaining(["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"]),
    );
    expect([...new Set(actions(statements).filter((a) => a.startsWith("s3:")))]).toEqual(["s3:GetObject"]);
    const objectResources = JSON.stringify(statements.filter((st) => [st.Action].flat().includes("s3:GetObject")).map((st) => st.Resource));
    expect(objectResources.match(/\/[\w-]+\/\*/g)?.sort()).toEqual(["/models/*", "/telemetry-uploads/*", "/telemetry/*"]);
    expect(actions(statements)).toEqual(
      expect.arrayContaining(["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem", "dynamodb:Query"]),
    );
    // The API may only send to the queue.
    const api = statementsOfFunction(t, "ApiFunction");
    const apiSqs = api.filter((st) => [st.Action].flat().some((a) => a.startsWith("sqs:")));
    expect(apiSqs).toHaveLength(1);
    expect([apiSqs[0].Action].flat().sort()).toEqual(["sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:SendMessage"]);
    expect(apiSqs[0].Resource).toEqual({ "Fn::GetAtt": [queueId, "Arn"] });
    expect((ourFunctions(t).ApiFunction[1].Properties.Environment.Variables as Record<string, unknown>).READINGS_QUEUE_URL).toEqual({
      Ref: queueId,
    });
    // The uploads bucket notifies the queue of what is created under telemetry/files/.
    const notifications = JSON.stringify(resources(t, "Custom::S3BucketNotifications"));
    expect(notifications).toContain('"QueueArn":{"Fn::GetAtt":["' + queueId + '","Arn"]}');
    expect(notifications).toContain('"Value":"telemetry/files/"');
  });

  it("grants each function only what it uses", () => {
    const t = get().template;
    const api = statementsOfFunction(t, "ApiFunction");
    // Exactly the item actions the repositories use, on the table and its index.
    expect(actions(api).filter((a) => a.startsWith("dynamodb:"))).toEqual([
      "dynamodb:BatchGetItem",
      "dynamodb:DeleteItem",
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:Query",
      "dynamodb:UpdateItem",
    ]);
    const tableStatement = api.find((s) => [s.Action].flat().includes("dynamodb:Query"))!;
    expect(JSON.stringify(tableStatement.Resource)).toMatch(/\/index\/GSI1"/);
    const objectGrants = (statements: Statement[]) =>
      statements
        .filter((s) => [s.Action].flat().every((a) => a.startsWith("s3:")) && JSON.stringify(s.Resource).match(/\/\w+\/\*/))
        .map(
          (s) =>
            `${[s.Action].flat().sort().join(",")} ${JSON.stringify(s.Resource)
              .match(/\/(\w+)\/\*/g)!
              .join(" ")}`,
        )
        .sort();
    expect(objectGrants(api)).toEqual([
      // Admin uploads go straight to S3 with URLs the API presigns (PutObject, PutObjectTagging for
      // the pending tag they carry); it checks them by a ranged read (GetObject), deletes refused
      // ones (DeleteObject) and untags accepted ones (PutObjectTagging with an empty tag set).
      "s3:DeleteObject,s3:GetObject,s3:PutObject /training/*",
      "s3:DeleteObject,s3:GetObject,s3:PutObject /uploads/* /forecasts/* /models/* /inventory/* /telemetry/* /climate/*",
      "s3:DeleteObject,s3:GetObject,s3:PutObject,s3:PutObjectTagging /documents/* /media/*",
    ]);
    // The histories of training jobs wait in the exports bucket, expired by its lifecycle rule.
    const trainingGrant = api.find((st) => JSON.stringify(st.Resource).includes("/training/*"))!;
    expect(JSON.stringify(trainingGrant.Resource)).toMatch(/"ExportsBucket/);
    // The one tagging action, on documents/*, media/*, forecast-uploads/* and telemetry-uploads/* only; no other role may tag in that bucket
    // (CDK's own web deployment role tags in the web bucket, which is not ours to restrict).
    const [documentsId] = Object.keys(resources(t, "AWS::S3::Bucket")).filter((id) => id.startsWith("DocumentsBucket"));
    const tagging = (statements: Statement[]) => statements.filter((st) => [st.Action].flat().some((a) => /tagging/i.test(a)));
    const apiTagging = tagging(api);
    expect(apiTagging).toHaveLength(1);
    expect([apiTagging[0].Action].flat().filter((a) => /tagging/i.test(a))).toEqual(["s3:PutObjectTagging"]);
    expect(apiTagging[0].Resource).toEqual(
      ["documents", "media", "forecast-uploads", "telemetry-uploads"].map((area) => ({
        "Fn::Join": ["", [{ "Fn::GetAtt": [documentsId, "Arn"] }, `/${area}/*`]],
      })),
    );
    const taggingInDocuments = tagging(
      Object.values(resources(t, "AWS::IAM::Policy")).flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]),
    ).filter((st) => JSON.stringify(st.Resource).includes(`"${documentsId}"`));
    expect(taggingInDocuments).toEqual(apiTagging);
    expect(actions(api)).toContain("secretsmanager:GetSecretValue");
    // The API invokes the spreadsheet worker and the job function and no other, and none of their versions.
    const [workerId] = ourFunctions(t).SpreadsheetFunction;
    const [jobId] = ourFunctions(t).ExportJobFunction;
    expect(api.filter((s) => [s.Action].flat().some((a) => a.startsWith("lambda:")))).toEqual([
      {
        Effect: "Allow",
        Action: "lambda:InvokeFunction",
        Resource: [{ "Fn::GetAtt": [workerId, "Arn"] }, { "Fn::GetAtt": [jobId, "Arn"] }],
      },
    ]);
    for (const id of [workerId, jobId]) {
      const invokers = Object.values(resources(t, "AWS::IAM::Policy")).filter((p) =>
        (p.Properties.PolicyDocument.Statement as Statement[]).some((s) => JSON.stringify(s.Resource ?? "").includes(`"${id}"`)),
      );
      expect(invokers.map((p) => JSON.stringify(p.Properties.Roles))).toEqual([
        JSON.stringify([{ Ref: ourFunctions(t).ApiFunction[1].Properties.Role["Fn::GetAtt"][0] }]),
      ]);
    }

    // The worker reads the table (a project, its calculations), the forecasts' rows and the approved
    // inventory snapshots (D20), and writes and presigns exports/ only.
    const worker = statementsOfFunction(t, "SpreadsheetFunction");
    expect(objectGrants(worker)).toEqual([
      "s3:GetObject /uploads/* /forecasts/* /inventory/* /climate/*",
      "s3:GetObject,s3:PutObject /exports/*",
    ]);
    const forecastsGrant = worker.find((st) => JSON.stringify(st.Resource).includes("/forecasts/*"))!;
    expect(JSON.stringify(forecastsGrant.Resource)).toMatch(/"UploadsBucket/);
    expect(actions(worker).filter((a) => !a.startsWith("logs:"))).toEqual([
      "dynamodb:BatchGetItem",
      "dynamodb:GetItem",
      "dynamodb:Query",
      // A verification pack's manifest signed with the version key (the security review's R9).
      "kms:DescribeKey",
      "kms:GetPublicKey",
      "kms:Sign",
      "s3:GetObject",
      "s3:GetObject",
      "s3:PutObject",
    ]);
    const [tableId] = Object.keys(resources(t, "AWS::DynamoDB::Table"));
    for (const s of worker.filter((st) => [st.Action].flat().some((a) => a.startsWith("dynamodb:")))) {
      expect(JSON.stringify(s.Resource)).toContain(`"${tableId}"`);
    }
    // The job function reads as the worker does and writes under exports/: it neither reads
    // there (the worker answers a job's state) nor presigns. A training job reads and deletes its
    // history under training/ and stores the model under models/. In the table it writes the
    // heavy-work budgets, giving back the slots its job held, and a trained model's items only.
    const jobs = statementsOfFunction(t, "ExportJobFunction");
    expect(objectGrants(jobs)).toEqual([
      "s3:DeleteObject,s3:GetObject /training/*",
      "s3:GetObject /uploads/* /forecasts/* /inventory/* /climate/*",
      "s3:GetObject,s3:PutObject /models/*",
      // a reconciliation's record and xlsx (telemetry/reconciliations/), its missing readings
      // as a push's blob (telemetry/batches/), both in the uploads bucket.
      "s3:GetObject,s3:PutObject /reconciliations/*",
      "s3:PutObject /batches/*",
      "s3:PutObject /climate/*",
      "s3:PutObject /exports/*",
    ]);
    // …and the mine's export it reads, in the documents bucket, read only.
    const exportGrant = jobs.find((st) => JSON.stringify(st.Resource).includes("/telemetry-uploads/*"))!;
    expect([exportGrant.Action].flat()).toEqual(["s3:GetObject"]);
    expect(JSON.stringify(exportGrant.Resource)).toMatch(/"DocumentsBucket/);
    for (const grant of jobs.filter((st) => /\/(reconciliations|batches)\/\*/.test(JSON.stringify(st.Resource))))
      expect(JSON.stringify(grant.Resource)).toMatch(/"UploadsBucket[^"]*".*\/telemetry\/(reconciliations|batches)\/\*/);
    const climateGrant = jobs.find(
      (st) => JSON.stringify(st.Resource).includes("/climate/*") && [st.Action].flat().join() === "s3:PutObject",
    )!;
    expect(JSON.stringify(climateGrant.Resource)).toMatch(/"UploadsBucket/);
    const modelsGrant = jobs.find((st) => JSON.stringify(st.Resource).includes("/models/*"))!;
    expect(JSON.stringify(modelsGrant.Resource)).toMatch(/"UploadsBucket/);
    expect(actions(jobs).filter((a) => !a.startsWith("logs:"))).toEqual([
      "dynamodb:BatchGetItem",
      "dynamodb:DeleteItem",
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:PutItem",
      "dynamodb:Query",
      "dynamodb:UpdateItem",
      "dynamodb:UpdateItem",
      "kms:DescribeKey",
      "kms:GetPublicKey",
      "kms:Sign",
      "s3:DeleteObject",
      "s3:GetObject",
      "s3:GetObject",
      "s3:GetObject",
      // an earlier round's reconciliation: the export read, its record read and written, its missing readings written.
      "s3:GetObject",
      "s3:GetObject",
      "s3:PutObject",
      "s3:PutObject",
      "s3:PutObject",
      "s3:PutObject",
      "s3:PutObject",
    ]);
    const slotRelease = jobs.find((st) => [st.Action].flat().join() === "dynamodb:UpdateItem")!;
    expect(slotRelease.Condition).toEqual({ "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["ATTEMPTS#heavy-*"] } });
    const modelWrites = jobs.find(
      (st) => [st.Action].flat().includes("dynamodb:UpdateItem") && [st.Action].flat().includes("dynamodb:PutItem"),
    )!;
    expect([modelWrites.Action].flat()).toEqual(["dynamodb:PutItem", "dynamodb:UpdateItem"]);
    expect(modelWrites.Condition).toEqual({
      "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["MODEL#*", "CALIBRATION#*", "AUDIT#ADMIN"] },
    });
    // A long climate period's job: the period's item and the hold on the project's periods, in the
    // company's partition.
    const periodWrites = jobs.find((st) => [st.Action].flat().includes("dynamodb:DeleteItem"))!;
    expect([periodWrites.Action].flat()).toEqual(["dynamodb:PutItem", "dynamodb:DeleteItem"]);
    expect(periodWrites.Condition).toEqual({ "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["COMPANY#*", "AUDIT#COMPANY#*"] } });
    for (const s of jobs.filter((st) => [st.Action].flat().some((a) => a.startsWith("dynamodb:")))) {
      expect(JSON.stringify(s.Resource)).toContain(`"${tableId}"`);
    }

    const upload = statementsOfFunction(t, "UploadCheckFunction");
    expect(objectGrants(upload)).toEqual(["s3:DeleteObject,s3:GetObject /uploads/*"]);
    expect(actions(upload).filter((a) => !a.startsWith("s3:") && !a.startsWith("logs:"))).toEqual([]);

    // Each function writes its own log group and no other (no AWSLambdaBasicExecutionRole).
    for (const name of OUR_FUNCTIONS) {
      const [, fn] = ourFunctions(t)[name];
      const logStatements = statementsOfFunction(t, name).filter((st) => [st.Action].flat().some((a) => a.startsWith("logs:")));
      expect(
        logStatements.map((st) => st.Resource),
        name,
      ).toEqual([{ "Fn::GetAtt": [fn.Properties.LoggingConfig.LogGroup.Ref, "Arn"] }]);
    }

    const audit = statementsOfFunction(t, "StreamAuditFunction");
    expect(actions(audit).filter((a) => !/^(dynamodb:(DescribeStream|GetRecords|GetShardIterator|ListStreams)|logs:.*)$/.test(a))).toEqual([
      "dynamodb:BatchGetItem",
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:UpdateItem",
    ]);
    const tableAccess = audit.find((s) => [s.Action].flat().includes("dynamodb:PutItem"))!;
    expect(tableAccess.Condition).toEqual({ "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["AUDIT#*", "COMPANY#*", "STATSEQ#*"] } });

    const reconcile = statementsOfFunction(t, "StatisticsReconcileFunction");
    expect(actions(reconcile).filter((a) => !a.startsWith("logs:"))).toEqual([
      "dynamodb:BatchGetItem",
      "dynamodb:DeleteItem",
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:Query",
      "dynamodb:UpdateItem",
    ]);
    const reconcileAccess = reconcile.find((s) => [s.Action].flat().includes("dynamodb:Query"))!;
    expect(reconcileAccess.Condition).toEqual({ "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["COMPANY#*", "COMPANIES"] } });

    const sweep = statementsOfFunction(t, "OrphanSweepFunction");
    expect(actions(sweep).filter((a) => !a.startsWith("logs:"))).toEqual(["dynamodb:Query", "s3:DeleteObject", "s3:ListBucket"]);
    expect(objectGrants(sweep)).toEqual(["s3:DeleteObject /uploads/* /forecasts/*"]);
    const sweepAccess = sweep.find((s) => [s.Action].flat().includes("dynamodb:Query"))!;
    expect(sweepAccess.Condition).toEqual({ "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["COMPANY#*"] } });
  });

  it("signs approved versions with an asymmetric KMS key the API may only sign with and read, and the packs' manifests where they are made (the security review's R9)", () => {
    const t = get().template;
    const keys = resources(t, "AWS::KMS::Key");
    const [keyId, key] = Object.entries(keys).find(([, k]) => k.Properties.KeySpec === "RSA_2048")!;
    expect(key.Properties.KeyUsage).toBe("SIGN_VERIFY");
    const [, api] = ourFunctions(t).ApiFunction;
    expect(api.Properties.Environment.Variables.VERSION_SIGNING_KEY_IDS).toEqual({ Ref: keyId });
    const signers: readonly (typeof OUR_FUNCTIONS)[number][] = ["ApiFunction", "SpreadsheetFunction", "ExportJobFunction"];
    for (const name of signers) {
      const kmsStatements = statementsOfFunction(t, name).filter((st) => [st.Action].flat().some((a) => a.startsWith("kms:")));
      expect(kmsStatements, name).toEqual([
        { Effect: "Allow", Action: ["kms:Sign", "kms:GetPublicKey", "kms:DescribeKey"], Resource: { "Fn::GetAtt": [keyId, "Arn"] } },
      ]);
      expect(ourFunctions(t)[name][1].Properties.Environment.Variables.VERSION_SIGNING_KEY_IDS, name).toEqual({
        Ref: keyId,
      });
    }
    // No other function reaches the key.
    for (const name of OUR_FUNCTIONS.filter((n) => !signers.includes(n))) {
      expect(
        actions(statementsOfFunction(t, name)).filter((a) => a.startsWith("kms:")),
        name,
      ).toEqual([]);
    }
  });

  it("sweeps orphan calculation files once a day", () => {
    get().template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "cron(30 3 * * ? *)",
      Targets: [Match.objectLike({ Arn: { "Fn::GetAtt": [Match.stringLikeRegexp("^OrphanSweepFunction"), "Arn"] } })],
    });
  });

  it("looks for stale channels and sends the webhook deliveries due every minute, with the table's items and nothing else (D65)", () => {
    const t = get().template;
    const [fnId, fn] = ourFunctions(t).MonitoringMinuteFunction;
    expect(fn.Properties).toMatchObject({
      MemorySize: FUNCTION_SIZES.MonitoringMinuteFunction.memoryMb,
      Timeout: FUNCTION_SIZES.MonitoringMinuteFunction.timeoutSeconds,
    });
    // Under the schedule's period: one run ends before the next starts.
    expect(FUNCTION_SIZES.MonitoringMinuteFunction.timeoutSeconds).toBeLessThan(MINUTE_FUNCTION_EVERY_MS / 1000);
    // The rule's rate is the one schedule's (functions/src/events/schedule.ts), which the local server runs on its timers.
    const minutes = MINUTE_FUNCTION_EVERY_MS / 60_000;
    const rate = minutes === 1 ? "rate(1 minute)" : `rate(${minutes} minutes)`;
    t.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: rate,
      State: "ENABLED",
      Targets: [Match.objectLike({ Arn: { "Fn::GetAtt": [fnId, "Arn"] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    // EventBridge may invoke it, from that rule only.
    const [ruleId] = Object.entries(resources(t, "AWS::Events::Rule")).find(([, r]) => r.Properties.ScheduleExpression === rate)!;
    const invokes = Object.values(resources(t, "AWS::Lambda::Permission")).filter((p) =>
      JSON.stringify(p.Properties.FunctionName).includes(fnId),
    );
    expect(invokes.map((p) => p.Properties)).toEqual([
      expect.objectContaining({
        Action: "lambda:InvokeFunction",
        Principal: "events.amazonaws.com",
        SourceArn: { "Fn::GetAtt": [ruleId, "Arn"] },
      }),
    ]);
    // It reads and writes the table's items (register, days, events, deliveries and their queue), sends
    // a lost batch to the readings' queue again and nothing else of it; no scan, no object, no key.
    const statements = statementsOfFunction(t, "MonitoringMinuteFunction");
    expect([...new Set(actions(statements).filter((a) => !a.startsWith("logs:")))].sort()).toEqual([
      "dynamodb:BatchGetItem",
      "dynamodb:DeleteItem",
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:Query",
      "dynamodb:UpdateItem",
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
      "sqs:SendMessage",
    ]);
    const [queueId] = Object.keys(resources(t, "AWS::SQS::Queue")).filter((id) => id.startsWith("TelemetryQueue"));
    const sending = statements.filter((st) => [st.Action].flat().some((a) => a.startsWith("sqs:")));
    expect(sending.map((st) => st.Resource)).toEqual([{ "Fn::GetAtt": [queueId, "Arn"] }]);
    expect(fn.Properties.Environment.Variables).toEqual({ TABLE_NAME: expect.anything(), READINGS_QUEUE_URL: { Ref: queueId } });
  });

  it("reconciles the statistics once a day", () => {
    const t = get().template;
    t.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "cron(30 2 * * ? *)",
      Targets: [Match.objectLike({ Arn: { "Fn::GetAtt": [Match.stringLikeRegexp("^StatisticsReconcileFunction"), "Arn"] } })],
    });
  });

  it("feeds the audit function from the stream and the upload check from uploads/ notifications", () => {
    const t = get().template;
    t.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      StartingPosition: "TRIM_HORIZON",
      EventSourceArn: { "Fn::GetAtt": [Match.stringLikeRegexp("^Table"), "StreamArn"] },
      FunctionName: { Ref: Match.stringLikeRegexp("^StreamAuditFunction") },
      // The handler names the records that failed; the rest of the batch is done.
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
    t.hasResourceProperties("Custom::S3BucketNotifications", {
      BucketName: { Ref: Match.stringLikeRegexp("^UploadsBucket") },
      NotificationConfiguration: {
        LambdaFunctionConfigurations: [
          {
            Events: ["s3:ObjectCreated:*"],
            Filter: { Key: { FilterRules: [{ Name: "prefix", Value: "uploads/" }] } },
            LambdaFunctionArn: { "Fn::GetAtt": [Match.stringLikeRegexp("^UploadCheckFunction"), "Arn"] },
          },
        ],
      },
    });
  });

  it("routes /api/{proxy+} of a throttled HTTP API to the API function", () => {
    const t = get().template;
    t.hasResourceProperties("AWS::ApiGatewayV2::Route", { RouteKey: "ANY /api/{proxy+}" });
    t.hasResourceProperties("AWS::ApiGatewayV2::Integration", { IntegrationType: "AWS_PROXY", PayloadFormatVersion: "2.0" });
    t.hasResourceProperties("AWS::ApiGatewayV2::Stage", {
      StageName: "$default",
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
  });

  it("serves /api/* through CloudFront uncached, with every viewer header but Host and the origin check", () => {
    const t = get().template;
    const [distribution] = Object.values(resources(t, "AWS::CloudFront::Distribution"));
    const config = distribution.Properties.DistributionConfig;
    const api = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === "/api/*");
    expect(api).toMatchObject({
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: "https-only",
      ResponseHeadersPolicyId: { Ref: expect.stringMatching(/^SecurityHeaders/) },
    });
    expect(api.AllowedMethods).toEqual(expect.arrayContaining(["GET", "POST", "PATCH", "DELETE", "PUT"]));
    const apiOrigin = config.Origins.find((o: { Id: string }) => o.Id === api.TargetOriginId);
    expect(apiOrigin.CustomOriginConfig.OriginProtocolPolicy).toBe("https-only");
    const verify = apiOrigin.OriginCustomHeaders.find((h: { HeaderName: string }) => h.HeaderName === ORIGIN_VERIFY_HEADER);
    // A CloudFormation dynamic reference to the generated secret, never a literal.
    expect(JSON.stringify(verify.HeaderValue)).toContain("{{resolve:secretsmanager:");
    expect(ORIGIN_VERIFY_HEADER).toBe(CHECKED_HEADER);

    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: "redirect-to-https",
      ResponseHeadersPolicyId: { Ref: expect.stringMatching(/^SecurityHeaders/) },
      FunctionAssociations: [{ EventType: "viewer-request", FunctionARN: expect.anything() }],
    });
    const webOrigin = config.Origins.find((o: { Id: string }) => o.Id === config.DefaultCacheBehavior.TargetOriginId);
    expect(webOrigin.OriginAccessControlId).toBeDefined();
  });

  it("adds the security headers: CSP, HSTS, nosniff, DENY framing, no referrer", () => {
    get().template.hasResourceProperties("AWS::CloudFront::ResponseHeadersPolicy", {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: Match.anyValue(), Override: true },
          StrictTransportSecurity: { AccessControlMaxAgeSec: 31536000, IncludeSubdomains: true, Override: true },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: "DENY", Override: true },
          ReferrerPolicy: { ReferrerPolicy: "no-referrer", Override: true },
        },
      },
    });
  });

  it("sends the local CSP with the documents bucket's regional origin in connect-src and media-src only", () => {
    const t = get().template;
    const [policy] = Object.values(resources(t, "AWS::CloudFront::ResponseHeadersPolicy"));
    const csp = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
    const [documentsId] = Object.keys(resources(t, "AWS::S3::Bucket")).filter((id) => id.startsWith("DocumentsBucket"));
    // Fn::Join of literals and the bucket's RegionalDomainName, nothing else.
    const parts = csp["Fn::Join"][1] as Array<string | { "Fn::GetAtt": [string, string] }>;
    expect(csp["Fn::Join"][0]).toBe("");
    const text = parts
      .map((part) => {
        if (typeof part === "string") return part;
        expect(part).toEqual({ "Fn::GetAtt": [documentsId, "RegionalDomainName"] });
        return "BUCKET.s3.REGION.amazonaws.com";
      })
      .join("");
    const origin = "https://BUCKET.s3.REGION.amazonaws.com";
    expect(text).toBe(cloudFrontContentSecurityPolicy(origin));
    const directives = Object.fromEntries(text.split("; ").map((d) => [d.split(" ")[0], d]));
    expect(directives["connect-src"]).toBe(`connect-src 'self' ${origin}`);
    expect(directives["media-src"]).toBe(`media-src 'self' blob: ${origin}`);
    expect(text.split(origin).length - 1, "the bucket appears in two directives only").toBe(2);
    // Without the bucket it is exactly the local server's CSP (compared with its answer below).
    expect(text.replaceAll(` ${origin}`, "")).toBe(CONTENT_SECURITY_POLICY);
  });

  it("lets the site's CloudFront origin PUT and GET the documents bucket (CORS), set once the distribution exists", () => {
    const t = get().template;
    const [documentsId] = Object.keys(resources(t, "AWS::S3::Bucket")).filter((id) => id.startsWith("DocumentsBucket"));
    const [distributionId] = Object.keys(resources(t, "AWS::CloudFront::Distribution"));
    const cors = Object.values(resources(t, "Custom::DocumentsBucketCors"));
    expect(cors).toHaveLength(1);
    const call = (raw: unknown) =>
      JSON.parse(JSON.stringify(raw)) as { service: string; action: string; parameters: Record<string, unknown> };
    // Create/Update are JSON strings joined with tokens: resolve the two tokens to placeholders.
    const resolve = (value: { "Fn::Join": [string, unknown[]] }) =>
      JSON.parse(
        value["Fn::Join"][1]
          .map((part) => {
            if (typeof part === "string") return part;
            const ref = JSON.stringify(part);
            if (ref === JSON.stringify({ Ref: documentsId })) return "DOCUMENTS_BUCKET";
            if (ref === JSON.stringify({ "Fn::GetAtt": [distributionId, "DomainName"] })) return "dSITE.cloudfront.net";
            throw new Error(`unexpected token ${ref}`);
          })
          .join(""),
      );
    const props = cors[0].Properties;
    const create = call(resolve(props.Create));
    expect(create).toMatchObject({ service: "S3", action: "putBucketCors" });
    expect(create.parameters).toEqual({
      Bucket: "DOCUMENTS_BUCKET",
      CORSConfiguration: { CORSRules: [documentsCorsRule(["https://dSITE.cloudfront.net"])] },
    });
    expect(resolve(props.Update)).toEqual(create);
    expect(call(resolve(props.Delete))).toMatchObject({ action: "deleteBucketCors", parameters: { Bucket: "DOCUMENTS_BUCKET" } });
    const rule = documentsCorsRule(["https://dSITE.cloudfront.net"]);
    expect(rule.AllowedOrigins).toEqual(["https://dSITE.cloudfront.net"]);
    expect(rule.AllowedMethods.sort()).toEqual(["GET", "HEAD", "PUT"]);
    // Exactly the headers the presigned PUT signs (x-amz-tagging: the pending tag) and a ranged GET sends.
    expect(rule.AllowedHeaders).toEqual(expect.arrayContaining(["content-type", "if-none-match", "x-amz-tagging", "range"]));

    // The custom resource may set CORS on that bucket and do nothing else.
    const corsStatements = Object.values(resources(t, "AWS::IAM::Policy"))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
      .filter((s) => [s.Action].flat().some((a) => /cors/i.test(a)));
    expect(corsStatements).toEqual([
      expect.objectContaining({ Effect: "Allow", Action: "s3:PutBucketCORS", Resource: { "Fn::GetAtt": [documentsId, "Arn"] } }),
    ]);
    // No other bucket gets a CORS rule.
    for (const bucket of Object.values(resources(t, "AWS::S3::Bucket"))) expect(bucket.Properties.CorsConfiguration).toBeUndefined();
  });

  it("alarms on API 5xx, on each function's errors and throttles, and on a stream handler falling behind", () => {
    const alarms = Object.values(resources(get().template, "AWS::CloudWatch::Alarm")).map((a) => a.Properties);
    expect(alarms).toContainEqual(expect.objectContaining({ Namespace: "AWS/ApiGateway", MetricName: "5xx" }));
    // The nightly reconciliation has none: retried, rerun the next night, and within the ten.
    for (const name of OUR_FUNCTIONS.filter((n) => !UNALARMED_FUNCTIONS.includes(n))) {
      for (const metric of ["Errors", "Throttles"]) {
        expect(
          alarms.some((a) => a.Namespace === "AWS/Lambda" && a.MetricName === metric && JSON.stringify(a.Dimensions).includes(name)),
          `${name} ${metric}`,
        ).toBe(true);
      }
    }
    expect(alarms).toContainEqual(
      expect.objectContaining({ Namespace: "AWS/Lambda", MetricName: "IteratorAge", Statistic: "Maximum", Threshold: 300_000 }),
    );
    // Ten: what CloudWatch's free tier covers (docs/deployment.md, costs at idle).
    expect(alarms).toHaveLength(10);
    for (const alarm of alarms) expect(alarm.AlarmActions, alarm.MetricName).toHaveLength(1);
  });

  it("outputs the site URL, the table and the bucket names", () => {
    const outputs = Object.keys(get().template.findOutputs("*"));
    expect(outputs).toEqual(
      expect.arrayContaining(["SiteUrl", "TableName", "UploadsBucketName", "ExportsBucketName", "DocumentsBucketName", "WebBucketName"]),
    );
    expect(stage).toMatch(/dev|prod/);
  });
});

describe("stage differences", () => {
  it("prod retains the table with deletion protection, and its buckets", () => {
    const [table] = Object.values(resources(prod.template, "AWS::DynamoDB::Table"));
    expect(table.DeletionPolicy).toBe("Retain");
    expect(table.UpdateReplacePolicy).toBe("Retain");
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    for (const bucket of Object.values(resources(prod.template, "AWS::S3::Bucket"))) expect(bucket.DeletionPolicy).toBe("Retain");
    expect(Object.keys(resources(prod.template, "Custom::S3AutoDeleteObjects"))).toHaveLength(0);
  });

  it("dev is disposable: table and buckets are deleted with the stack, buckets emptied first", () => {
    const [table] = Object.values(resources(dev.template, "AWS::DynamoDB::Table"));
    expect(table.DeletionPolicy).toBe("Delete");
    expect(table.Properties.DeletionProtectionEnabled).toBeFalsy();
    for (const bucket of Object.values(resources(dev.template, "AWS::S3::Bucket"))) expect(bucket.DeletionPolicy).toBe("Delete");
    expect(Object.keys(resources(dev.template, "Custom::S3AutoDeleteObjects"))).toHaveLength(5);
  });

  it("deploys the web build when there is one, and warns when there is none", () => {
    expect(Object.keys(resources(dev.template, "Custom::CDKBucketDeployment"))).toHaveLength(1);
    expect(Object.keys(resources(prod.template, "Custom::CDKBucketDeployment"))).toHaveLength(0);
    Annotations.fromStack(prod.stack).hasWarning("*", Match.stringLikeRegexp("npm run build"));
  });

  it("takes the stage from context, dev by default", () => {
    expect(stageFrom(undefined)).toBe("dev");
    expect(stageFrom("prod")).toBe("prod");
    expect(() => stageFrom("staging")).toThrow(/dev or prod/);
  });
});

describe("Lambda bundles", () => {
  function assetDir(name: (typeof OUR_FUNCTIONS)[number]): string {
    const [, fn] = ourFunctions(bundled.template)[name];
    const key = fn.Properties.Code.S3Key as string;
    return join(bundled.outdir, `asset.${key.replace(/\.zip$/, "")}`);
  }

  // Cold starts grow with the bundle: every function stays under 1 MB but the API and the
  // spreadsheet worker.
  const BUDGET: Record<(typeof OUR_FUNCTIONS)[number], number> = {
    // The routes are declared once with their zod schemas (@hono/zod-openapi, which needs zod's
    // classic build: about 450 KB) so that the OpenAPI document cannot drift from the code. With
    // emission points, calibration, what-if, training, the years' trend with comparable conditions,
    // base year and targets the API's own code was about 1.85 MB; the mine's monitoring (sensors,
    // readings, offers, live tiles, events, webhooks and the SQS client that announces a batch)
    // brought it to about 2.19 MB. The shift report's exceljs and pdfkit stay in the worker. The gassing
    // book, limits by edition, sensor places and their migration, each route's declared cost and the
    // measured-against-estimated comparison brought it to 2 575 KiB on 28.11.2026; methodology section 16
    // (the air path and its suspect checks, the scheme, the cut-off audit, hand measurements, the mine's
    // own factors, D108's chance) to 2 847 KiB on 29.11.2026. What of it can leave the API's cold path
    // is not yet measured.
    ApiFunction: 3 * ONE_MB,
    UploadCheckFunction: ONE_MB,
    StreamAuditFunction: ONE_MB,
    // The readings' function: 1 017 KiB on 27.11.2026, 1 028 KiB a day later with what its subscribers
    // and the forecaster now read (the climate device kinds, the forecast's chance against its base rate,
    // the open days' minute items). Its repositories module builds every repository (the production
    // calendar's and the calculation types' dictionaries, about 115 KB): the trim left for it.
    TelemetryConsumerFunction: 1.25 * ONE_MB,
    MonitoringMinuteFunction: ONE_MB,
    StatisticsReconcileFunction: ONE_MB,
    OrphanSweepFunction: ONE_MB,
    // exceljs + SheetJS (docs/deployment.md, «The spreadsheet worker»), about 2 MB, and pdfkit for the report passport's
    // PDF, about 1 MB more (pdfkit, fontkit and the brotli decoder fontkit imports); the fonts are
    // files beside the bundle, not in it. It runs only for exports, templates and passports, so
    // sign-in and calculations never pay its cold start. A climate period's report and verifier's pack
    // (the period's figures, the approval's snapshot, the report's sections, the pack's files)
    // brought it to 3 626 KiB on 27.11.2026; the instruments' documents (the «Метан» journal,
    // the handovers, the register with its metrology) and the folds an earlier round moved off the request
    // thread into it (a sensor's completeness, gaps and day, the offers, the live day chart) to
    // 3 901 KiB on 29.11.2026.
    SpreadsheetFunction: 4 * ONE_MB,
    ExportJobFunction: 4 * ONE_MB,
  };
  it("stay within their size budgets (1 MB; the readings' function 1.25 MB, the API 3 MB, the spreadsheet worker 4 MB)", () => {
    for (const name of OUR_FUNCTIONS) {
      const size = statSync(join(assetDir(name), "index.mjs")).size;
      console.info(`bundle ${name}: ${(size / 1024).toFixed(0)} KiB`);
      expect(size, `${name} bundle is ${(size / 1024).toFixed(0)} KiB`).toBeLessThan(BUDGET[name]);
    }
  });

  it("carry exceljs, SheetJS and pdfkit in the spreadsheet worker alone, with the passport's fonts beside it", () => {
    const bundle = (name: (typeof OUR_FUNCTIONS)[number]) => readFileSync(join(assetDir(name), "index.mjs"), "utf8");
    // Names that survive minification: SheetJS's legacy bookType, exceljs's streaming writer and
    // the producer pdfkit writes into every PDF.
    const [worker, api] = [bundle("SpreadsheetFunction"), bundle("ApiFunction")];
    for (const file of [PASSPORT_FONTS.regular, PASSPORT_FONTS.bold]) {
      const copied = join(assetDir("SpreadsheetFunction"), PASSPORT_FONTS.dir, file);
      expect(readFileSync(copied).equals(readFileSync(join(REPO_ROOT, "functions/src/export", PASSPORT_FONTS.dir, file))), file).toBe(true);
    }
    for (const mark of ["biff8", "WorkbookWriter", "PDFKit"]) {
      expect(worker.includes(mark), `worker bundle has ${mark}`).toBe(true);
      expect(api.includes(mark), `API bundle has ${mark}`).toBe(false);
    }
  });

  // That every bundle initialises on Node 24 as ESM (CommonJS dependencies such as exceljs call
  // require() for built-ins, which the banner provides) and exports its handler, and that the API's
  // stops at its own check of the environment when a variable is missing, is the deploy rehearsal's
  // to show (tests/rehearsal/rehearsal.test.ts): it starts each of these bundles as Lambda would.

  it("carry the forecaster's core and the shipped models beside the readings' function and the API", async () => {
    // The forecaster runs in the readings' function (domain/monitoring/live/forecaster.ts): it scores the
    // bound models with gbdt.wasm, and reads the platform's models from default-models/ beside the bundle.
    const consumer = assetDir("TelemetryConsumerFunction");
    const wasm = readFileSync(join(consumer, "gbdt.wasm"));
    expect(WebAssembly.validate(wasm)).toBe(true);
    expect(readFileSync(join(consumer, "index.mjs"), "utf8")).toContain(DEFAULT_MODELS.dir);
    const shipped = readdirSync(join(REPO_ROOT, DEFAULT_MODELS.source)).filter((f) => f.startsWith("methane-"));
    expect(shipped).toContain("methane-xgboost-h60.json");
    for (const name of ["TelemetryConsumerFunction", "ApiFunction"] as const) {
      for (const file of shipped) {
        const copied = readFileSync(join(assetDir(name), DEFAULT_MODELS.dir, file));
        expect(copied.equals(readFileSync(join(REPO_ROOT, DEFAULT_MODELS.source, file))), `${name}: ${file}`).toBe(true);
      }
    }
  });

  it("carry the compiled cores next to the API bundle", async () => {
    for (const file of WASM_FILES) {
      const bundled = readFileSync(join(assetDir("ApiFunction"), file));
      // Not compared byte for byte: wasm-core/build may be rebuilt while the suite runs.
      expect(WebAssembly.validate(bundled), file).toBe(true);
      const exportsOf = async (bytes: Uint8Array) =>
        WebAssembly.Module.exports(await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>)).length;
      expect(await exportsOf(bundled), file).toBeGreaterThan(0);
      expect(statSync(join(REPO_ROOT, "wasm-core/build", file)).isFile()).toBe(true);
    }
  });
});

describe("SPA fallback function", () => {
  it("rewrites client-side routes to /index.html and leaves files alone", () => {
    const [fn] = Object.values(resources(dev.template, "AWS::CloudFront::Function"));
    const rewrite = (uri: string) =>
      (runInNewContext(`${fn.Properties.FunctionCode}\nhandler({ request: { uri: ${JSON.stringify(uri)} } })`) as { uri: string }).uri;
    expect(rewrite("/")).toBe("/index.html");
    expect(rewrite("/projects/12")).toBe("/index.html");
    expect(rewrite("/login")).toBe("/index.html");
    expect(rewrite("/assets/index-3f2a1b.js")).toBe("/assets/index-3f2a1b.js");
    expect(rewrite("/favicon.ico")).toBe("/favicon.ico");
  });
});

describe("security headers match the local server", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({ port: 0 });
  });
  afterAll(() => server?.close());

  it("sends the same CSP (CloudFront's without the storage origin: 'self' only) and the same extra headers", async () => {
    const res = await fetch(`${server.url}/api/nothing/`);
    expect(res.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(cloudFrontContentSecurityPolicy("https://b.s3.r.amazonaws.com").replaceAll(" https://b.s3.r.amazonaws.com", "")).toBe(
      CONTENT_SECURITY_POLICY,
    );
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/amazonaws|https:/);
    for (const [name, value] of Object.entries(EXTRA_SECURITY_HEADERS)) expect(res.headers.get(name), name).toBe(value);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });
});
