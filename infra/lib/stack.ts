// One stage of the product in AWS: the table, the buckets, the four Lambda functions, the HTTP
// API and CloudFront in front of both the web app and /api/*. The only place that knows AWS
// resource names; the functions get them through their environment.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  Annotations,
  CfnOutput,
  Duration,
  Fn,
  RemovalPolicy,
  Stack,
  Token,
  Validations,
  type CfnElement,
  type StackProps,
} from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import * as acm from "aws-cdk-lib/aws-certificatemanager";
import * as apigw from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as cloudfront from "aws-cdk-lib/aws-cloudfront";
import * as origins from "aws-cdk-lib/aws-cloudfront-origins";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as events from "aws-cdk-lib/aws-events";
import * as eventTargets from "aws-cdk-lib/aws-events-targets";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource, SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import { NodejsFunction, OutputFormat, type NodejsFunctionProps } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as s3deploy from "aws-cdk-lib/aws-s3-deployment";
import { LambdaDestination, SqsDestination } from "aws-cdk-lib/aws-s3-notifications";
import * as sqs from "aws-cdk-lib/aws-sqs";
import * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import * as sns from "aws-cdk-lib/aws-sns";
import * as wafv2 from "aws-cdk-lib/aws-wafv2";
import * as cr from "aws-cdk-lib/custom-resources";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import type { Construct, IConstruct } from "constructs";
import { cloudFrontContentSecurityPolicy, EXTRA_SECURITY_HEADERS, HSTS_MAX_AGE_DAYS } from "./security-headers";
import type { Stage } from "./stage";
import { BLOB_AREAS, EXPORTS_AREA, FORECAST_UPLOADS_EXPIRY, PENDING_UPLOAD_TAG, type BucketEnv } from "@server/adapters/blob/areas";
import { GSI1 } from "@server/adapters/dynamodb/keys";
import { READINGS_DROP_PREFIX } from "@server/domain/monitoring/ingest/files";
import { PASSPORT_FONTS, VERIFY_SCRIPT } from "@server/export/formats";
import { JOB_START_WINDOW_MS } from "@server/adapters/spreadsheets/jobs";
import { MINUTE_FUNCTION_EVERY_MS } from "@server/events/schedule";
import { DEFAULT_FUNCTION_SIZE, FUNCTION_SIZES } from "./function-sizes";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The compiled cores the API loads at run time (wasm-core/src/wasm-file.ts finds them next to
 *  the bundle). */
/** The job function's memory (function-sizes.ts). */
export const JOB_MEMORY_MB = FUNCTION_SIZES.ExportJobFunction.memoryMb;
export const WASM_FILES = ["emissions.wasm", "gbdt.wasm", "gbdt-train.wasm", "uncertainty.wasm"];

/** The platform's shipped forecast models (functions/src/forecast/default-models), copied beside the
 *  bundles that forecast (the API, the readings' function): functions/src/domain/forecast/models.ts
 *  reads them from default-models/ beside the bundle. */
export const DEFAULT_MODELS = { dir: "default-models", source: "functions/src/forecast/default-models" } as const;
const defaultModelCopies = (outputDir: string) => [
  `mkdir -p "${join(outputDir, DEFAULT_MODELS.dir)}"`,
  `cp "${join(REPO_ROOT, DEFAULT_MODELS.source)}"/methane-* "${join(outputDir, DEFAULT_MODELS.dir)}/"`,
];

/** Header CloudFront adds to every /api/* request; functions/src/lambda/api.ts checks it. */
export const ORIGIN_VERIFY_HEADER = "x-origin-verify";

export interface AppStackProps extends StackProps {
  stage: Stage;
  /** The built web app (default web/dist); when it is missing the site is deployed without it. */
  webDist?: string;
  /** Where the compiled .wasm files are (default wasm-core/build). */
  wasmDir?: string;
  /** Subscribed to the alarm topic when given (`-c alarmEmail=ops@example.com`). */
  alarmEmail?: string;
  /** The site's own domain (`-c domainName=… -c certificateArn=…`): CloudFront serves it with an
   *  ACM certificate of us-east-1 and TLS 1.2 as the minimum. */
  domain?: { name: string; certificateArn: string };
  /** Attach an AWS WAF web ACL to CloudFront (`-c waf=true`); it must then be deployed in us-east-1. */
  waf?: boolean;
}

/** The Lambda runtime of our functions and the esbuild target that matches it. */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;
export const LAMBDA_NODE_TARGET = "node24";

/** Days the access logs of the buckets, CloudFront and the HTTP API are kept. */
export const ACCESS_LOG_DAYS = 90;

/** A cdk-nag finding accepted with a reason a reviewer can check (tests/infra/nag.test.ts fails
 *  on every finding that has none). `rule` as the report names it, e.g. "AwsSolutions-S1" or
 *  "AwsSolutions-IAM5[Resource::*]". */
export function acknowledge(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions::${rule}`, reason });
}

export class AppStack extends Stack {
  constructor(scope: Construct, id: string, props: AppStackProps) {
    super(scope, id, props);
    const prod = props.stage === "prod";
    // Prod keeps its data when the stack goes; dev is disposable.
    const dataRemoval = prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const wasmDir = props.wasmDir ?? join(REPO_ROOT, "wasm-core/build");
    const webDist = props.webDist ?? join(REPO_ROOT, "web/dist");

    // --- DynamoDB: the single table of functions/src/adapters/dynamodb/SCHEMA.md.
    const table = new dynamodb.Table(this, "Table", {
      partitionKey: { name: "PK", type: dynamodb.AttributeType.STRING },
      sortKey: { name: "SK", type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: prod,
      removalPolicy: dataRemoval,
      stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
      timeToLiveAttribute: "expires_at",
    });
    table.addGlobalSecondaryIndex({
      indexName: "GSI1",
      partitionKey: { name: "GSI1PK", type: dynamodb.AttributeType.STRING },
      sortKey: { name: "GSI1SK", type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });

    // --- S3: private, TLS-only, encrypted; dev buckets are emptied on destroy.
    const secureBucket = {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      encryption: s3.BucketEncryption.S3_MANAGED,
      removalPolicy: dataRemoval,
      autoDeleteObjects: !prod,
    } satisfies s3.BucketProps;
    // Server access logs of the other buckets and CloudFront's standard logs, expiring after
    // ACCESS_LOG_DAYS. CloudFront's standard logging writes with ACLs, hence the ownership mode.
    const logBucket = new s3.Bucket(this, "LogBucket", {
      ...secureBucket,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(ACCESS_LOG_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
    acknowledge(
      logBucket,
      "AwsSolutions-S1",
      "This is the access-log bucket itself: logging its own access would log the log deliveries, without end.",
    );
    const bucket = (id: string, extra: Partial<s3.BucketProps> = {}) =>
      new s3.Bucket(this, id, {
        ...secureBucket,
        objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        serverAccessLogsBucket: logBucket,
        serverAccessLogsPrefix: `s3/${id}/`,
        lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
        ...extra,
      });
    const uploads = bucket("UploadsBucket");
    // Exports are handed out once as a download; a week covers a retry (the local host's sweep
    // deletes its job files after the same EXPORTS_AREA.days).
    const exportsBucket = bucket("ExportsBucket", {
      lifecycleRules: [{ expiration: Duration.days(EXPORTS_AREA.days), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
    // Admin uploads go straight to this bucket, tagged upload=pending by the presigned PUT; their
    // completion removes the tag, so what is still tagged a day later was never completed.
    const documents = bucket("DocumentsBucket", {
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        {
          id: "AbandonedUploads",
          tagFilters: { [PENDING_UPLOAD_TAG.key]: PENDING_UPLOAD_TAG.value },
          expiration: Duration.days(PENDING_UPLOAD_TAG.days),
        },
        // Forecast histories are read and deleted by the one call that names them; what is still
        // there a day later was never used (or its call died before deleting it).
        { id: "ForecastUploads", prefix: FORECAST_UPLOADS_EXPIRY.prefix, expiration: Duration.days(FORECAST_UPLOADS_EXPIRY.days) },
      ],
    });
    const web = bucket("WebBucket");

    // --- an earlier round: the key that signs each approved version's snapshot hash (RSASSA-PKCS1-v1_5 with
    // SHA-256, functions/src/adapters/signing/kms-signer.ts). Asymmetric: its private part never
    // leaves KMS; GET v1/signing-keys/ serves the public one. Kept with the data: the versions it
    // signed are verified with it for years. A rotation adds a key and appends it to the list.
    const versionSigningKey = new kms.Key(this, "VersionSigningKey", {
      description: `Signs the approved inventory versions of the ${props.stage} API (verification packs)`,
      keySpec: kms.KeySpec.RSA_2048,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      removalPolicy: dataRemoval,
    });

    // --- Secrets, generated by Secrets Manager: no value is in the template or the environment.
    const appSecret = new secretsmanager.Secret(this, "AppSecret", {
      description: `JWT signing secret (jwt_secret) and optional guardant_code of the ${props.stage} API`,
      generateSecretString: {
        secretStringTemplate: JSON.stringify({}),
        generateStringKey: "jwt_secret",
        passwordLength: 64,
        excludePunctuation: true,
      },
      removalPolicy: dataRemoval,
    });
    acknowledge(
      appSecret,
      "AwsSolutions-SMG4",
      "The JWT signing secret is rotated on demand, not on a schedule: `npm run admin -- rotate-jwt-secret` keeps the previous key valid for the tokens' lifetime, whereas Secrets Manager's scheduled rotation would replace it at once and sign everybody out.",
    );
    const originVerify = new secretsmanager.Secret(this, "OriginVerifySecret", {
      description: `Value CloudFront sends in ${ORIGIN_VERIFY_HEADER} so the ${props.stage} API serves only CloudFront`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledge(
      originVerify,
      "AwsSolutions-SMG4",
      "Not a credential of a user or service: a shared value CloudFront adds to API requests so that the API refuses direct calls. CloudFront reads it at deploy time, so it changes with a redeploy of a replaced secret, not by rotation.",
    );

    // --- Lambda functions: esbuild on this machine (never Docker), ESM for top-level await and
    // import.meta.url, the pinned SDK bundled rather than the runtime's.
    for (const file of WASM_FILES) {
      if (!existsSync(join(wasmDir, file))) {
        throw new Error(`${join(wasmDir, file)} is missing: run "npm run build:wasm" before cdk synth/deploy`);
      }
    }
    const fn = (id: string, entry: string, extra: Partial<NodejsFunctionProps> = {}) => {
      const logGroup = new logs.LogGroup(this, `${id}Logs`, {
        retention: logs.RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      // Its own role, allowed to write its own log group only (instead of the AWS-managed
      // AWSLambdaBasicExecutionRole, which allows writing any log group of the account).
      const role = new iam.Role(this, `${id}Role`, {
        assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
        description: `Role of ${id}`,
      });
      logGroup.grantWrite(role);
      return new NodejsFunction(this, id, {
        entry: join(REPO_ROOT, entry),
        handler: "handler",
        projectRoot: REPO_ROOT,
        depsLockFilePath: join(REPO_ROOT, "package-lock.json"),
        runtime: LAMBDA_RUNTIME,
        role,
        architecture: lambda.Architecture.ARM_64,
        memorySize: DEFAULT_FUNCTION_SIZE.memoryMb,
        timeout: Duration.seconds(DEFAULT_FUNCTION_SIZE.timeoutSeconds),
        logGroup,
        ...extra,
        bundling: {
          forceDockerBundling: false,
          format: OutputFormat.ESM,
          target: LAMBDA_NODE_TARGET,
          platform: "node",
          minify: true,
          sourceMap: false,
          // ESM builds of the SDK tree-shake to half the size of its CommonJS builds.
          mainFields: ["module", "main"],
          externalModules: [],
          // Bundled CommonJS modules still call require() for Node built-ins.
          banner: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
          ...extra.bundling,
        },
      });
    };

    // Exports and xlsx templates: exceljs and SheetJS live in this function alone, invoked
    // synchronously by the API, so sign-in and calculations never load them on a cold start.
    // A detailed xls export of 10 000 calculations holds ~400 MB (and CPU grows with memory). The
    // timeout stays under the API's 29 s, so a worker that runs out of time is still answered by
    // the API (adapters/spreadsheets/lambda-worker.ts) before API Gateway gives up at 30 s.
    // The report passport's PDF reads its fonts from ./fonts beside the bundle (Lambda has no
    // system fonts): copied as files rather than inlined, so the bundle stays small.
    const fontsDir = join(REPO_ROOT, "functions/src/export", PASSPORT_FONTS.dir);
    /** A bundle with the compiled cores copied beside it, then what `more` copies. */
    const withCores = (more: (outputDir: string) => string[]) => ({
      commandHooks: {
        beforeBundling: () => [],
        beforeInstall: () => [],
        afterBundling: (_inputDir: string, outputDir: string) => [
          ...WASM_FILES.map((file) => `cp "${join(wasmDir, file)}" "${join(outputDir, file)}"`),
          ...more(outputDir),
        ],
      },
    });
    // The exports' uncertainty columns run the WASM core here too (found by the deploy rehearsal).
    const spreadsheetBundling = withCores((outputDir) => [
      `mkdir -p "${join(outputDir, PASSPORT_FONTS.dir)}"`,
      ...[PASSPORT_FONTS.regular, PASSPORT_FONTS.bold].map(
        (file) => `cp "${join(fontsDir, file)}" "${join(outputDir, PASSPORT_FONTS.dir, file)}"`,
      ),
      // D34: the verification pack's script, read beside the bundle as the fonts are.
      `mkdir -p "${join(outputDir, VERIFY_SCRIPT.dir)}"`,
      `cp "${join(REPO_ROOT, "functions/src/export", VERIFY_SCRIPT.dir, VERIFY_SCRIPT.file)}" "${join(outputDir, VERIFY_SCRIPT.dir, VERIFY_SCRIPT.file)}"`,
    ]);
    // The functions that forecast (the API, the readings' function with its forecaster): the compiled
    // cores beside the bundle, and the platform's shipped models in default-models/.
    const forecastingBundling = withCores(defaultModelCopies);
    const spreadsheetEnvironment = {
      TABLE_NAME: table.tableName,
      [EXPORTS_AREA.bucket]: exportsBucket.bucketName,
      [BLOB_AREAS.forecasts.bucket]: uploads.bucketName,
      // a reconciliation's job reads the mine's export uploaded under telemetry-uploads/.
      [BLOB_AREAS["telemetry-uploads"].bucket]: documents.bucketName,
      // the security review's R9: a verification pack's manifest is signed with the version key where it is made.
      VERSION_SIGNING_KEY_IDS: versionSigningKey.keyId,
    };
    const spreadsheets = fn("SpreadsheetFunction", "functions/src/lambda/spreadsheets.ts", {
      description: "Renders project exports, xlsx upload templates and the inventory's report passport for the API",
      memorySize: FUNCTION_SIZES.SpreadsheetFunction.memoryMb,
      timeout: Duration.seconds(FUNCTION_SIZES.SpreadsheetFunction.timeoutSeconds),
      environment: spreadsheetEnvironment,
      bundling: spreadsheetBundling,
    });
    // The exports and report passports near their bounds (functions/src/domain/heavy-work.ts) as jobs:
    // the same bundle (its jobHandler), invoked asynchronously by the API, so no API call waits on
    // it and it may take Lambda's longest timeout (a 10 000-line PDF passport: docs/performance.md).
    // Not retried: a job that fails records its failure for the user (adapters/spreadsheets/jobs.ts),
    // and one cut by its timeout reads as failed once its time is past; a retry would run it again.
    // No alarm of its own (the ten alarms are CloudWatch's free tier): a failed job is a log line.
    // It also trains a company's forecast model on its history (functions/src/domain/forecast/training.ts):
    // one thread of CPU for minutes, so it takes 1 769 MB, the memory at which Lambda gives one
    // whole vCPU; the training stops itself a minute before the timeout to record why.
    const exportJobs = fn("ExportJobFunction", "functions/src/lambda/spreadsheets.ts", {
      description: "Renders the exports and report passports near their bounds and trains forecast models as jobs, for the API",
      handler: "jobHandler",
      memorySize: FUNCTION_SIZES.ExportJobFunction.memoryMb,
      timeout: Duration.seconds(FUNCTION_SIZES.ExportJobFunction.timeoutSeconds),
      retryAttempts: 0,
      maxEventAge: Duration.millis(JOB_START_WINDOW_MS),
      environment: spreadsheetEnvironment,
      bundling: spreadsheetBundling,
    });

    const api = fn("ApiFunction", "functions/src/lambda.ts", {
      description: "Hono API under /api/",
      memorySize: FUNCTION_SIZES.ApiFunction.memoryMb,
      timeout: Duration.seconds(FUNCTION_SIZES.ApiFunction.timeoutSeconds),
      environment: {
        TABLE_NAME: table.tableName,
        UPLOADS_BUCKET: uploads.bucketName,
        DOCUMENTS_BUCKET: documents.bucketName,
        // The histories of training jobs (the area `training`, functions/src/adapters/blob/areas.ts).
        EXPORTS_BUCKET: exportsBucket.bucketName,
        SPREADSHEET_FUNCTION_NAME: spreadsheets.functionName,
        EXPORT_JOB_FUNCTION_NAME: exportJobs.functionName,
        APP_SECRET_ARN: appSecret.secretArn,
        ORIGIN_VERIFY_SECRET_ARN: originVerify.secretArn,
        // The KMS keys that signed versions, the one in force last (comma-separated).
        VERSION_SIGNING_KEY_IDS: versionSigningKey.keyId,
        // One JSON line per request (docs/operations.md); "errors" keeps only the 5xx lines.
        REQUEST_LOG: "all",
        // КЭП checks: Lambda's runtime has no OpenSSL GOST engine, so empty means the TypeScript check
        // (adapters/signing/gost-native.ts); `cdk deploy -c opensslBin=/opt/bin/openssl` would name an
        // openssl with the engine that a layer brings instead.
        OPENSSL_BIN: String(this.node.tryGetContext("opensslBin") ?? ""),
      },
      bundling: forecastingBundling,
    });
    const uploadCheck = fn("UploadCheckFunction", "functions/src/lambda/s3-upload.ts", {
      description: "Deletes uploaded objects of a refused type or size",
    });
    const audit = fn("StreamAuditFunction", "functions/src/lambda/stream.ts", {
      description: "Audit trail and per-company statistics from the table's stream",
      environment: { TABLE_NAME: table.tableName },
    });

    // The statistics' reconciliation (functions/src/domain/inventory/statistics.ts), once a day: it reads every
    // company's projects and calculations, so it gets the time and memory the stream handler no
    // longer needs.
    const reconcile = fn("StatisticsReconcileFunction", "functions/src/lambda/reconcile-statistics.ts", {
      description: "Daily: counts each company's statistics from the table, reports and repairs drift",
      memorySize: FUNCTION_SIZES.StatisticsReconcileFunction.memoryMb,
      timeout: Duration.seconds(FUNCTION_SIZES.StatisticsReconcileFunction.timeoutSeconds),
      environment: { TABLE_NAME: table.tableName },
    });
    new events.Rule(this, "StatisticsReconcileSchedule", {
      description: "Reconciles the per-company statistics with the table every night",
      schedule: events.Schedule.cron({ minute: "30", hour: "2" }),
      // No alarm of its own (the ten alarms are CloudWatch's free tier): a failed run is retried,
      // the next night's repairs what it left, and each drift is a log line to search for.
      targets: [new eventTargets.LambdaFunction(reconcile, { retryAttempts: 2 })],
    });
    // The sweep of calculation files no calculation refers to (functions/src/domain/files/orphan-blobs.ts),
    // once a day, after the reconciliation; like it, no alarm of its own.
    const orphanSweep = fn("OrphanSweepFunction", "functions/src/lambda/orphan-sweep.ts", {
      description: "Daily: deletes calculation files (uploads/, forecasts/) no calculation refers to",
      timeout: Duration.seconds(FUNCTION_SIZES.OrphanSweepFunction.timeoutSeconds),
      environment: { TABLE_NAME: table.tableName, [BLOB_AREAS.uploads.bucket]: uploads.bucketName },
    });
    new events.Rule(this, "OrphanSweepSchedule", {
      description: "Deletes day-old calculation files no calculation refers to, every night",
      schedule: events.Schedule.cron({ minute: "30", hour: "3" }),
      targets: [new eventTargets.LambdaFunction(orphanSweep, { retryAttempts: 2 })],
    });

    // --- Least privilege: only the table actions and object prefixes each function uses.
    // The table and its one index by name (table.grant would allow `index/*`).
    const grantTable = (f: lambda.IFunction, actions: string[]) =>
      f.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [table.tableArn, `${table.tableArn}/index/${GSI1}`] }));
    // The item actions the repositories use (functions/src/adapters/dynamodb): no scans, batch
    // writes or transactions. Every function may read by BatchGetItem: the Gets one turn starts go
    // as one (adapters/dynamodb/coalesced-gets.ts).
    const readWrite = [
      "dynamodb:BatchGetItem",
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:UpdateItem",
      "dynamodb:DeleteItem",
      "dynamodb:Query",
    ];
    grantTable(api, readWrite);
    const buckets: Record<BucketEnv, s3.Bucket> = {
      UPLOADS_BUCKET: uploads,
      EXPORTS_BUCKET: exportsBucket,
      DOCUMENTS_BUCKET: documents,
    };
    // Areas of direct uploads also need s3:PutObjectTagging: the presigned PUT carries the pending
    // tag (x-amz-tagging), and completion clears it (an empty tag set).
    const objectActions = (area: (typeof BLOB_AREAS)[string]) =>
      area.access === "read"
        ? ["s3:GetObject"]
        : ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", ...(area.directUploads ? ["s3:PutObjectTagging"] : [])];
    for (const [env, bucketOf] of Object.entries(buckets)) {
      const byActions = new Map<string, string[]>();
      for (const [area, a] of Object.entries(BLOB_AREAS)) {
        if (a.bucket !== env) continue;
        const actions = objectActions(a).join(",");
        byActions.set(actions, [...(byActions.get(actions) ?? []), area]);
      }
      for (const [actions, areas] of byActions) grantObjects(api, bucketOf, areas, actions.split(","));
    }
    appSecret.grantRead(api);
    // Signing and reading its public key: nothing else of the key (no decrypt, no administration).
    versionSigningKey.grant(api, "kms:Sign", "kms:GetPublicKey", "kms:DescribeKey");
    originVerify.grantRead(api);
    // The worker and the job function and nothing else; not grantInvoke, which adds every version
    // and alias (":*").
    api.addToRolePolicy(
      new iam.PolicyStatement({ actions: ["lambda:InvokeFunction"], resources: [spreadsheets.functionArn, exportJobs.functionArn] }),
    );

    // The worker reads a project (GetItem), its calculations (Query on GSI1) and the forecasts' rows
    // (forecasts/, GetObject only), writes exports and presigns their download (a presigned GET is
    // authorised by s3:GetObject) under exports/ only.
    grantTable(spreadsheets, ["dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:Query"]);
    grantObjects(spreadsheets, exportsBucket, [EXPORTS_AREA.area], ["s3:PutObject", "s3:GetObject"], { list: false });
    // D20: the snapshot of an approved year (inventory/) is what its report prints.
    // D34: a version's verification pack also carries its calculations' evidence files (uploads/).
    // a climate period's pack and its manifest are made from the period's figures and the
    // readings it kept (climate/).
    grantObjects(spreadsheets, buckets[BLOB_AREAS.forecasts.bucket], ["uploads", "forecasts", "inventory", "climate"], ["s3:GetObject"], {
      list: false,
    });
    // the security review's R9: the worker and the job function make verification packs, whose manifest (every
    // file's SHA-256) they sign with the version key, as the API signs a version: signing and
    // reading the public key, nothing else of the key.
    for (const packMaker of [spreadsheets, exportJobs])
      versionSigningKey.grant(packMaker, "kms:Sign", "kms:GetPublicKey", "kms:DescribeKey");
    // The job function reads as the worker does and writes a job's state and file under exports/;
    // it reads nothing there (the worker answers a job's state) and presigns nothing.
    grantTable(exportJobs, ["dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:Query"]);
    // A job gives back the heavy-work slots it held when it ends (domain/heavy-work.ts): the
    // budgets' counters, and no other item.
    exportJobs.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ["dynamodb:UpdateItem"],
        resources: [table.tableArn],
        conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["ATTEMPTS#heavy-*"] } },
      }),
    );
    grantObjects(exportJobs, exportsBucket, [EXPORTS_AREA.area], ["s3:PutObject"], { list: false });
    grantObjects(exportJobs, buckets[BLOB_AREAS.forecasts.bucket], ["uploads", "forecasts", "inventory", "climate"], ["s3:GetObject"], {
      list: false,
    });
    // A long climate period computed (or computed again) as a job (functions/src/domain/climate/periods.ts)
    // stores its figures and the readings it read under climate/, writes the period's item and gives back
    // the hold on the project's periods the API took for it; a recompute writes the company's change
    // log (AUDIT#ADMIN, granted above, and AUDIT#COMPANY#…). The period's items are in the company's
    // partition, and IAM's condition reaches the partition key alone: the grant is the companies' partitions.
    grantObjects(exportJobs, buckets[BLOB_AREAS.climate.bucket], ["climate"], ["s3:PutObject"], { list: false });
    // a reconciliation against a mine's dispatch export (functions/src/domain/monitoring/ingest/
    // reconciliation.ts) reads the uploaded export (telemetry-uploads/, documents bucket), reads and writes
    // its record and xlsx (telemetry/reconciliations/) and writes the missing readings as a push's blob
    // (telemetry/batches/), which «Догрузить недостающие» names as a batch.
    grantObjects(exportJobs, buckets[BLOB_AREAS["telemetry-uploads"].bucket], ["telemetry-uploads"], ["s3:GetObject"], { list: false });
    grantObjects(exportJobs, buckets[BLOB_AREAS.telemetry.bucket], ["telemetry/reconciliations"], ["s3:GetObject", "s3:PutObject"], {
      list: false,
    });
    grantObjects(exportJobs, buckets[BLOB_AREAS.telemetry.bucket], ["telemetry/batches"], ["s3:PutObject"], { list: false });
    exportJobs.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ["dynamodb:PutItem", "dynamodb:DeleteItem"],
        resources: [table.tableArn],
        conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["COMPANY#*", "AUDIT#COMPANY#*"] } },
      }),
    );
    // A training job (functions/src/domain/forecast/training.ts) reads the history the API left
    // under training/ and deletes it; stores the model under models/ and reads it back to calibrate;
    // writes the model's version (MODEL#), its calibration (CALIBRATION#) and the change log's
    // entry (AUDIT#ADMIN), and no other item.
    grantObjects(exportJobs, exportsBucket, ["training"], ["s3:GetObject", "s3:DeleteObject"], { list: false });
    grantObjects(exportJobs, buckets[BLOB_AREAS.models.bucket], ["models"], ["s3:GetObject", "s3:PutObject"], { list: false });
    exportJobs.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ["dynamodb:PutItem", "dynamodb:UpdateItem"],
        resources: [table.tableArn],
        conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["MODEL#*", "CALIBRATION#*", "AUDIT#ADMIN"] } },
      }),
    );

    // --- The mine's readings (docs/architecture.md, «The mine's readings»): a stored batch is announced
    // on this queue by the API, a dispatch export dropped under telemetry/files/{company}/{facility}/
    // by the uploads bucket's notification, and the readings' function consumes both. A message it
    // fails is named in its answer (ReportBatchItemFailures) and delivered again after the visibility
    // timeout; after 5 receives it goes to the dead-letter queue, kept 14 days, and its batch stays
    // «queued» in its status (the consumer is idempotent, so a redrive from there applies it once).
    // The construct ids keep the wing's old word: a changed logical id would replace the queues.
    const readingsDeadLetters = new sqs.Queue(this, "TelemetryDeadLetters", {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    const readingsConsumer = fn("TelemetryConsumerFunction", "functions/src/lambda/readings-consumer.ts", {
      description: "The mine's readings: applies each announced batch and each dropped dispatch export",
      memorySize: FUNCTION_SIZES.TelemetryConsumerFunction.memoryMb,
      timeout: Duration.seconds(FUNCTION_SIZES.TelemetryConsumerFunction.timeoutSeconds),
      environment: {
        TABLE_NAME: table.tableName,
        [BLOB_AREAS.telemetry.bucket]: uploads.bucketName,
        [BLOB_AREAS["telemetry-uploads"].bucket]: documents.bucketName,
        [BLOB_AREAS.models.bucket]: uploads.bucketName,
      },
      // The forecaster runs here (domain/monitoring/live/forecaster.ts, docs/architecture.md): the models are
      // scored by the GBDT core (the cores beside the bundle, as the API's), and the platform's shipped
      // models are read beside it.
      bundling: forecastingBundling,
    });
    const readingsQueue = new sqs.Queue(this, "TelemetryQueue", {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // At least the function's timeout (AWS: six times it with a batching window; one year's file is
      // one message, so a message is never held longer than one run).
      visibilityTimeout: Duration.seconds(FUNCTION_SIZES.TelemetryConsumerFunction.timeoutSeconds * 2),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: readingsDeadLetters, maxReceiveCount: 5 },
    });
    readingsConsumer.addEventSource(
      new SqsEventSource(readingsQueue, { batchSize: 10, maxBatchingWindow: Duration.seconds(1), reportBatchItemFailures: true }),
    );
    readingsQueue.grantSendMessages(api);
    api.addEnvironment("READINGS_QUEUE_URL", readingsQueue.queueUrl);
    uploads.addEventNotification(s3.EventType.OBJECT_CREATED, new SqsDestination(readingsQueue), { prefix: READINGS_DROP_PREFIX });
    // The consumer reads and writes the readings' items (the batch, its queue mark, the sensor-days,
    // the events the detector keeps, the forecaster's latest forecasts) and reads the register, the
    // facility and the bound models' versions; it reads the stored batches and files (telemetry/ in the
    // uploads bucket, telemetry-uploads/ in the documents bucket) and a company's own model files
    // (models/), and writes nothing there.
    grantTable(readingsConsumer, readWrite);
    grantObjects(readingsConsumer, uploads, ["telemetry", "models"], ["s3:GetObject"], { list: false });
    grantObjects(readingsConsumer, documents, ["telemetry-uploads"], ["s3:GetObject"], { list: false });

    // What the local host does on its timers (the one schedule, functions/src/events/schedule.ts: D65's
    // stale channels whose readings stopped, the webhook deliveries due, the queued batches to announce
    // again, the hourly compaction), here at each run: lambda/monitoring-minute.ts. It reads the
    // register and the sensors' days, writes the events and their deliveries, posts them (outbound
    // HTTPS only), and sends lost batches to the readings' queue.
    const monitoringMinute = fn("MonitoringMinuteFunction", "functions/src/lambda/monitoring-minute.ts", {
      description:
        "Each minute: finds the channels whose readings stopped (D65), sends the webhook deliveries due and announces lost batches again",
      timeout: Duration.seconds(FUNCTION_SIZES.MonitoringMinuteFunction.timeoutSeconds),
      environment: { TABLE_NAME: table.tableName, READINGS_QUEUE_URL: readingsQueue.queueUrl },
    });
    grantTable(monitoringMinute, readWrite);
    // A batch still queued whose announcement was lost (stored, then its SQS send failed) is sent again
    // (domain/monitoring/minutes/consumer.ts reannounceQueued): send only, on the readings' queue.
    readingsQueue.grantSendMessages(monitoringMinute);
    // Its rate is the one schedule's (functions/src/events/schedule.ts): its most frequent AWS line's.
    new events.Rule(this, "MonitoringMinuteSchedule", {
      description: "Stale channels and webhook retries, every minute",
      schedule: events.Schedule.rate(Duration.minutes(MINUTE_FUNCTION_EVERY_MS / 60_000)),
      // No retry of a failed run: the next minute's run does the same from what is stored.
      targets: [new eventTargets.LambdaFunction(monitoringMinute, { retryAttempts: 0 })],
    });

    // HeadObject is authorised by s3:GetObject.
    grantObjects(uploadCheck, uploads, ["uploads"], ["s3:GetObject", "s3:DeleteObject"]);
    uploads.addEventNotification(s3.EventType.OBJECT_CREATED, new LambdaDestination(uploadCheck), { prefix: "uploads/" });

    // The stream handler writes the audit trail (AUDIT#…), adds each change to its company's year
    // aggregates and list counts (COMPANY#…) and keeps the last sequence applied per item (STATSEQ#…): no other
    // partition, no other action; it reads no company's data.
    audit.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ["dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"],
        resources: [table.tableArn],
        conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["AUDIT#*", "COMPANY#*", "STATSEQ#*"] } },
      }),
    );
    // The reconciliation lists the companies (GSI1 COMPANIES), reads their projects and calculations
    // and repairs their year aggregates and list counts (COMPANY#…); the old whole-company snapshot is deleted.
    // It reads the inventory's write counter (GetItem) to level it once the stream has settled, and moves
    // a company's sensors to their places once (PutItem of the sensor and the migration's mark).
    reconcile.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [
          "dynamodb:BatchGetItem",
          "dynamodb:GetItem",
          "dynamodb:Query",
          "dynamodb:PutItem",
          "dynamodb:UpdateItem",
          "dynamodb:DeleteItem",
        ],
        resources: [table.tableArn, `${table.tableArn}/index/${GSI1}`],
        conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["COMPANY#*", "COMPANIES"] } },
      }),
    );
    // The orphan sweep reads which files each company's calculations and sensor verifications name (Query of COMPANY#…),
    // lists uploads/ and forecasts/ and deletes there; it reads no object.
    orphanSweep.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ["dynamodb:Query"],
        resources: [table.tableArn],
        conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["COMPANY#*"] } },
      }),
    );
    grantObjects(orphanSweep, uploads, ["uploads", "forecasts"], ["s3:DeleteObject"]);
    audit.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(5),
        // Both parts are idempotent (conditional audit puts, the last sequence applied per item
        // for the statistics), so a retried batch is harmless; a stuck one alarms. The handler
        // names the records that failed, and delivery resumes from the first of them.
        retryAttempts: 10,
        reportBatchItemFailures: true,
      }),
    );
    acknowledge(
      audit.role!,
      "AwsSolutions-IAM5[Resource::*]",
      "dynamodb:ListStreams, added by the event source mapping, has no resource-level permissions in IAM; the stream itself is granted by its ARN.",
    );

    // --- HTTP API (payload 2.0) for /api/*; throttled so a runaway client cannot run up costs.
    const httpApi = new apigw.HttpApi(this, "HttpApi", {
      description: `Fugitive emissions API (${props.stage})`,
      createDefaultStage: false,
    });
    // One JSON line per request: who, what, status, timing. No headers, so no tokens; no bodies.
    const apiAccessLogs = new logs.LogGroup(this, "HttpApiAccessLogs", {
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new apigw.HttpStage(this, "HttpApiStage", {
      httpApi,
      stageName: "$default",
      autoDeploy: true,
      throttle: { rateLimit: 50, burstLimit: 100 },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(apiAccessLogs),
        format: AccessLogFormat.custom(JSON.stringify(API_ACCESS_LOG_FIELDS)),
      },
    });
    const [apiRoute] = httpApi.addRoutes({
      path: "/api/{proxy+}",
      methods: [apigw.HttpMethod.ANY],
      integration: new HttpLambdaIntegration("ApiIntegration", api),
    });
    acknowledge(
      apiRoute,
      "AwsSolutions-APIG4",
      "Authorization is the API's own: every route but the two token calls verifies the bearer JWT (HS256, pinned) and the user's token generation in functions/src/http, and the whole API refuses requests that did not come through CloudFront (origin header). An API Gateway authorizer would check the same token twice and add a call per request.",
    );

    // --- CloudFront: the web app from S3 (OAC) and /api/* from the HTTP API, one origin for the
    // browser. Only the admin uploads and the video playback go to the documents bucket directly
    // (presigned URLs, http/UPLOADS.md): the CSP names its regional domain for connect-src and
    // media-src, and the bucket's CORS rule admits the site's origin (below).
    const storageOrigin = `https://${documents.bucketRegionalDomainName}`;
    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, "SecurityHeaders", {
      comment: "Same security headers as the local server",
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: cloudFrontContentSecurityPolicy(storageOrigin), override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(HSTS_MAX_AGE_DAYS),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        xssProtection: { protection: false, override: true },
      },
      customHeadersBehavior: {
        customHeaders: Object.entries(EXTRA_SECURITY_HEADERS).map(([header, value]) => ({ header, value, override: true })),
      },
    });
    // Client-side routes (/projects/12) have no file extension: they all get the app shell. Only
    // on the default behaviour, so an API 404 stays a JSON 404.
    const spaFallback = new cloudfront.Function(this, "SpaFallback", {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: "SPA fallback: paths without a file extension serve /index.html",
      code: cloudfront.FunctionCode.fromInline(
        [
          "function handler(event) {",
          "  var request = event.request;",
          "  if (!/\\.[A-Za-z0-9]+$/.test(request.uri)) request.uri = '/index.html';",
          "  return request;",
          "}",
        ].join("\n"),
      ),
    });
    const apiDomain = Fn.select(2, Fn.split("/", httpApi.apiEndpoint));
    const webAcl = props.waf ? siteWebAcl(this) : undefined;
    const distribution = new cloudfront.Distribution(this, "Site", {
      comment: `Fugitive emissions (${props.stage})`,
      defaultRootObject: "index.html",
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      ...(props.domain
        ? {
            domainNames: [props.domain.name],
            certificate: acm.Certificate.fromCertificateArn(this, "SiteCertificate", props.domain.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      enableLogging: true,
      logBucket,
      logFilePrefix: "cloudfront/",
      webAclId: webAcl?.attrArn,
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(web),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [{ function: spaFallback, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        "/api/*": {
          origin: new origins.HttpOrigin(apiDomain, {
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            // A dynamic reference, resolved by CloudFormation at deploy time.
            customHeaders: { [ORIGIN_VERIFY_HEADER]: originVerify.secretValue.unsafeUnwrap() },
          }),
          // A redirect would turn a POST into a GET: plain http is refused instead.
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Every viewer header but Host (API Gateway routes by its own host name), plus
          // CloudFront-Viewer-Address for the login throttle.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: securityHeaders,
        },
      },
    });

    if (!props.domain) {
      acknowledge(
        distribution,
        "AwsSolutions-CFR4",
        "Without a domain of its own the site is served on *.cloudfront.net with CloudFront's default certificate, whose minimum protocol AWS fixes at TLSv1; deploy with -c domainName=… -c certificateArn=… to get TLSv1.2_2021 (docs/deployment.md).",
      );
    }
    acknowledge(
      distribution,
      "AwsSolutions-CFR1",
      "No geo restriction: the company's staff sign in from wherever they work, and every call but sign-in needs a token.",
    );
    if (!webAcl) {
      acknowledge(
        distribution,
        "AwsSolutions-CFR2",
        "AWS WAF is optional (-c waf=true) because a web ACL costs a monthly fee even at idle; without it, the HTTP API's throttle and the login throttle bound abuse (docs/deployment.md).",
      );
    }

    // The browser PUTs admin uploads to presigned URLs of the documents bucket (XMLHttpRequest, with
    // the signed Content-Type, If-None-Match and x-amz-tagging) and may GET from it; only the site's
    // origin may.
    // Set by a custom resource after the distribution exists: as a property of the bucket it would
    // close a dependency cycle (bucket → distribution → security headers → bucket domain).
    const siteOrigins = [`https://${distribution.distributionDomainName}`, ...(props.domain ? [`https://${props.domain.name}`] : [])];
    new cr.AwsCustomResource(this, "DocumentsBucketCors", {
      resourceType: "Custom::DocumentsBucketCors",
      installLatestAwsSdk: false,
      onUpdate: {
        service: "S3",
        action: "putBucketCors",
        parameters: { Bucket: documents.bucketName, CORSConfiguration: { CORSRules: [documentsCorsRule(siteOrigins)] } },
        physicalResourceId: cr.PhysicalResourceId.of(`${documents.node.addr}-cors`),
      },
      onDelete: {
        service: "S3",
        action: "deleteBucketCors",
        parameters: { Bucket: documents.bucketName },
        ignoreErrorCodesMatching: "NoSuchBucket",
      },
      // PutBucketCors and DeleteBucketCors are both authorised by s3:PutBucketCORS.
      policy: cr.AwsCustomResourcePolicy.fromStatements([
        new iam.PolicyStatement({ actions: ["s3:PutBucketCORS"], resources: [documents.bucketArn] }),
      ]),
      logGroup: new logs.LogGroup(this, "DocumentsBucketCorsLogs", {
        retention: logs.RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });

    if (existsSync(join(webDist, "index.html"))) {
      const deployment = new s3deploy.BucketDeployment(this, "WebDeployment", {
        // The build's chunk map (web/vite.config.ts) is for the tests, not the site.
        sources: [s3deploy.Source.asset(webDist, { exclude: [".vite"] })],
        destinationBucket: web,
        distribution,
        distributionPaths: ["/*"],
        // Old hashed chunks stay, so a tab opened before a deploy can still load its lazy routes.
        prune: false,
        memoryLimit: 512,
        logGroup: new logs.LogGroup(this, "WebDeploymentLogs", {
          retention: logs.RetentionDays.ONE_MONTH,
          removalPolicy: RemovalPolicy.DESTROY,
        }),
      });
      // CDK's deployment handler copies the built app from CDK's asset bucket into the web bucket.
      const webBucketId = this.getLogicalId(web.node.defaultChild as CfnElement);
      for (const rule of [
        "Action::s3:GetObject*",
        "Action::s3:GetBucket*",
        "Action::s3:List*",
        "Action::s3:DeleteObject*",
        "Action::s3:Abort*",
        `Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-${nagValue(this.account, "AWS::AccountId")}-${nagValue(this.region, "AWS::Region")}/*`,
        `Resource::<${webBucketId}.Arn>/*`,
      ]) {
        acknowledge(
          deployment.handlerRole,
          `AwsSolutions-IAM5[${rule}]`,
          "CDK's web deployment handler: it reads the built web app from CDK's asset bucket and replaces the whole web bucket's content, which takes every object of both.",
        );
      }
    } else {
      Annotations.of(this).addWarningV2(
        "fugitive:web-not-built",
        `${webDist}/index.html not found: the site is deployed without the web app. Run "npm run build" and deploy again.`,
      );
    }

    // --- Alarms to one SNS topic.
    const alarmTopic = new sns.Topic(this, "AlarmTopic", {
      displayName: `Fugitive emissions alarms (${props.stage})`,
      enforceSSL: true,
    });
    if (props.alarmEmail) alarmTopic.addSubscription(new EmailSubscription(props.alarmEmail));
    const period = Duration.minutes(5);
    const alarm = (id: string, metric: cloudwatch.IMetric, threshold: number, description: string) =>
      new cloudwatch.Alarm(this, id, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      }).addAlarmAction(new SnsAction(alarmTopic));
    alarm("Api5xxAlarm", httpApi.metricServerError({ period, statistic: "Sum" }), 5, "HTTP API answered 5xx five times in 5 minutes");
    for (const [name, f] of [
      ["Api", api],
      ["UploadCheck", uploadCheck],
      ["StreamAudit", audit],
      ["Spreadsheet", spreadsheets],
    ] as const) {
      alarm(`${name}ErrorsAlarm`, f.metricErrors({ period, statistic: "Sum" }), 1, `${name} function failed`);
      alarm(`${name}ThrottlesAlarm`, f.metricThrottles({ period, statistic: "Sum" }), 1, `${name} function throttled`);
    }
    // A batch the stream handler keeps failing holds up every later record of its shard (audit
    // trail and statistics fall behind): the age of the oldest record read tells.
    alarm(
      "StreamBehindAlarm",
      audit.metric("IteratorAge", { period, statistic: "Maximum" }),
      Duration.minutes(5).toMilliseconds(),
      "Stream handler is more than 5 minutes behind the table's changes",
    );

    // --- Outputs (docs/deployment.md).
    const output = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    output(
      "SiteUrl",
      props.domain ? `https://${props.domain.name}` : `https://${distribution.distributionDomainName}`,
      "The web app and /api/",
    );
    output(
      "LogBucketName",
      logBucket.bucketName,
      `Access logs of the buckets (s3/) and CloudFront (cloudfront/), kept ${ACCESS_LOG_DAYS} days`,
    );

    acknowledgeCdkHandlers(this);
    output("ApiEndpoint", httpApi.apiEndpoint, "HTTP API (answers 403 unless called through CloudFront)");
    output("TableName", table.tableName, "TABLE_NAME for npm run admin with STORAGE=dynamodb");
    output("UploadsBucketName", uploads.bucketName, "Uploaded files (uploads/)");
    output("ExportsBucketName", exportsBucket.bucketName, "Exports (exports/), expire after 7 days");
    output(
      "DocumentsBucketName",
      documents.bucketName,
      "Normative documents (documents/), videos (media/) and forecast histories uploaded directly (forecast-uploads/)",
    );
    output("WebBucketName", web.bucketName, "The built web app");
    output("AppSecretArn", appSecret.secretArn, "jwt_secret and optional guardant_code");
    output("ApiFunctionName", api.functionName, "API_FUNCTION_NAME for npm run admin -- rotate-jwt-secret");
    output("AlarmTopicArn", alarmTopic.topicArn, "Subscribe to receive the alarms");
  }
}

/** The documents bucket's CORS rule: the site may PUT (direct admin uploads and forecast histories;
 *  the signed Content-Length of a history is the browser's own header, never preflighted) and GET/HEAD. */
export function documentsCorsRule(siteOrigins: string[]) {
  return {
    AllowedOrigins: siteOrigins,
    AllowedMethods: ["PUT", "GET", "HEAD"],
    AllowedHeaders: ["content-type", "if-none-match", "x-amz-tagging", "range"],
    ExposeHeaders: ["ETag", "Content-Length", "Content-Range", "Accept-Ranges"],
    MaxAgeSeconds: 3600,
  };
}

/** How cdk-nag writes a value in a finding's id: an unresolved pseudo parameter as <AWS::…>. */
function nagValue(value: string, pseudo: string): string {
  return Token.isUnresolved(value) ? `<${pseudo}>` : value;
}

const acknowledgedPrefixes = new WeakMap<IConstruct, Set<string>>();

/** Object actions under the given prefixes only, plus ListBucket: without it S3 answers a
 *  missing key with 403 instead of 404, and the blob store could not tell "absent" from "denied". */
function grantObjects(fn: lambda.IFunction, bucket: s3.Bucket, prefixes: string[], actions: string[], options = { list: true }) {
  fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: prefixes.map((prefix) => bucket.arnForObjects(`${prefix}/*`)) }));
  if (options.list) fn.addToRolePolicy(new iam.PolicyStatement({ actions: ["s3:ListBucket"], resources: [bucket.bucketArn] }));
  const bucketId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnElement);
  for (const prefix of prefixes) {
    const rule = `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}/*]`;
    const done = acknowledgedPrefixes.get(fn.role!) ?? new Set<string>();
    acknowledgedPrefixes.set(fn.role!, done);
    if (done.has(rule)) continue;
    done.add(rule);
    acknowledge(
      fn.role!,
      rule,
      `Objects under the ${prefix}/ prefix only: their keys are made per object at run time (ids), so an object ARN cannot name them one by one.`,
    );
  }
}

/** The HTTP API's access log line (API Gateway context variables; no headers, no bodies). */
const API_ACCESS_LOG_FIELDS = {
  requestId: "$context.requestId",
  time: "$context.requestTime",
  ip: "$context.identity.sourceIp",
  method: "$context.httpMethod",
  path: "$context.path",
  status: "$context.status",
  responseLength: "$context.responseLength",
  latencyMs: "$context.responseLatency",
  integrationLatencyMs: "$context.integrationLatency",
  integrationError: "$context.integrationErrorMessage",
};

/** Requests to the token call per IP in 5 minutes before WAF blocks that IP for a while. */
export const WAF_TOKEN_RATE_LIMIT = 100;
/** WAF's rate rule counts over 5 minutes: the blocked answer says to come back after them. */
const WAF_RETRY_AFTER_SECONDS = 300;

/** A CloudFront web ACL: AWS's common rule set, known bad inputs, and a per-IP rate limit on the
 *  sign-in call. CloudFront web ACLs exist in us-east-1 only, so the stack must be deployed there. */
function siteWebAcl(stack: Stack): wafv2.CfnWebACL {
  if (!Token.isUnresolved(stack.region) && stack.region !== "us-east-1") {
    throw new Error(`-c waf=true needs the stack in us-east-1 (CloudFront web ACLs live there), not ${stack.region}`);
  }
  const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
  const managed = (name: string, priority: number) => ({
    name,
    priority,
    overrideAction: { none: {} },
    statement: { managedRuleGroupStatement: { vendorName: "AWS", name } },
    visibilityConfig: visibility(name),
  });
  return new wafv2.CfnWebACL(stack, "SiteWebAcl", {
    scope: "CLOUDFRONT",
    defaultAction: { allow: {} },
    visibilityConfig: visibility("SiteWebAcl"),
    // The rate rule's refusal answers as the API's own sign-in throttle does: 429, JSON, Retry-After.
    customResponseBodies: {
      TooManySignIns: {
        contentType: "APPLICATION_JSON",
        content: JSON.stringify({ detail: "Слишком много попыток входа с этого адреса. Повторите попытку через 5 мин." }),
      },
    },
    rules: [
      managed("AWSManagedRulesCommonRuleSet", 1),
      managed("AWSManagedRulesKnownBadInputsRuleSet", 2),
      {
        name: "SignInRateLimit",
        priority: 3,
        action: {
          block: {
            customResponse: {
              responseCode: 429,
              customResponseBodyKey: "TooManySignIns",
              responseHeaders: [{ name: "Retry-After", value: String(WAF_RETRY_AFTER_SECONDS) }],
            },
          },
        },
        statement: {
          rateBasedStatement: {
            limit: WAF_TOKEN_RATE_LIMIT,
            evaluationWindowSec: 300,
            aggregateKeyType: "IP",
            scopeDownStatement: {
              andStatement: {
                statements: [
                  {
                    byteMatchStatement: {
                      fieldToMatch: { method: {} },
                      positionalConstraint: "EXACTLY",
                      searchString: "POST",
                      textTransformations: [{ priority: 0, type: "NONE" }],
                    },
                  },
                  {
                    byteMatchStatement: {
                      fieldToMatch: { uriPath: {} },
                      positionalConstraint: "STARTS_WITH",
                      searchString: "/api/token",
                      textTransformations: [{ priority: 0, type: "LOWERCASE" }],
                    },
                  },
                ],
              },
            },
          },
        },
        visibilityConfig: visibility("SignInRateLimit"),
      },
    ],
  });
}

/** The Lambda functions CDK itself adds (S3 notifications, the CORS custom resource, the web
 *  deployment, emptying dev buckets) come with AWS-managed policies and runtimes CDK chooses;
 *  their roles are not ours to shape. */
function acknowledgeCdkHandlers(stack: Stack): void {
  const reasons: Record<string, string> = {
    "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]":
      "A handler CDK adds for its own constructs (bucket notifications, custom resource, web deployment): its role comes with AWSLambdaBasicExecutionRole, which only writes logs.",
    "AwsSolutions-L1": "A handler CDK adds and versions with aws-cdk-lib; its runtime is CDK's choice and follows CDK upgrades.",
    "AwsSolutions-IAM5[Resource::*]":
      "CDK's own handler: the bucket-notifications handler needs s3:PutBucketNotification on buckets it is given at deploy time.",
  };
  for (const child of stack.node.children) {
    if (
      !/^(BucketNotificationsHandler|AWS679f53fac002430cb0da5b7982bd2287|Custom::CDKBucketDeployment|Custom::S3AutoDeleteObjects)/.test(
        child.node.id,
      )
    )
      continue;
    for (const [rule, reason] of Object.entries(reasons)) acknowledge(child, rule, reason);
  }
}
