// The deploy rehearsal: the synthesized prod stack's own bundles, run as Lambda runs them, on
// local endpoints, with every AWS call checked against the role the template gives the function.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { startDynalite } from "@server/local/dynalite";
import { startLocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/company/users";
import { REPO_ROOT } from "../../infra/lib/stack";
import { type Call, type Credentials, type Endpoints, type InvokeAnswer, startEndpoints } from "./aws-endpoint";
import { bundleProblems, handlerPath } from "./checks";
import { startGateway } from "./gateway";
import { checkCalls } from "./iam";
import { CALCULATION_TYPES } from "@core/registry";
import { calculationForm, validInputs } from "../support/tenant-objects";
import { runAdmin } from "../support/admin-command";
import type { Synthesized, Template } from "./synth";
import {
  ACCOUNT,
  apiOriginHeaders,
  CLOUDFRONT_DOMAIN,
  apiRoutes,
  bucketConfigs,
  type FunctionPlan,
  functionPlans,
  notifications,
  REGION,
  resourcesOf,
  queueConsumers,
  scheduledEvent,
  schedules,
  secretArns,
  streamMappings,
  tableShapes,
} from "./template";

export interface WalkStep {
  step: string;
  /** The status through CloudFront and API Gateway to the API's bundle. */
  lambda: number;
  /** The status of the same request on the local host. */
  local?: number;
}

export interface RehearsalResult {
  /** Each a failure naming the function and what is wrong. */
  problems: string[];
  /** Granted actions no call used (least-privilege report, not a failure). */
  unused: string[];
  walk: WalkStep[];
  calls: Call[];
  initMs: Record<string, number>;
  /** Per function, the events it received. */
  invoked: Record<string, number>;
}

/** The Node binary of a runtime major: the one running (npm scripts run on the `node` dev
 *  dependency, the functions' Node), or that major fetched from the npm registry into a cache when
 *  LAMBDA_NODE_VERSION names another release. */
export function lambdaNode(major: number): string {
  const version = process.env.LAMBDA_NODE_VERSION;
  if (!version && Number(process.versions.node.split(".")[0]) === major) return process.execPath;
  if (!version)
    throw new Error(`the functions run on Node ${major}; run through npm (the \`node\` dev dependency) or set LAMBDA_NODE_VERSION`);
  if (Number(version.split(".")[0]) !== major)
    throw new Error(`the functions run on Node ${major}; set LAMBDA_NODE_VERSION to a ${major}.x release`);
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const prefix = join(REPO_ROOT, "node_modules/.cache", `node-${version}-${arch}`);
  const bin = join(prefix, "node_modules", `node-linux-${arch}`, "bin", "node");
  if (!existsSync(bin)) {
    const out = spawnSync(
      "npm",
      ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "--no-package-lock", `node-linux-${arch}@${version}`],
      { stdio: "inherit" },
    );
    if (out.status !== 0) throw new Error(`could not install node-linux-${arch}@${version}`);
  }
  return bin;
}

/** The table as the template defines it: keys, indexes, stream (dynalite does not implement TTL, see checks below). */
export async function createTables(template: Template, endpoint: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: REGION, credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  for (const { name, resource } of resourcesOf(template, "AWS::DynamoDB::Table")) {
    const p = resource.Properties;
    await client.send(
      new CreateTableCommand({
        TableName: name,
        AttributeDefinitions: p.AttributeDefinitions,
        KeySchema: p.KeySchema,
        GlobalSecondaryIndexes: p.GlobalSecondaryIndexes,
        BillingMode: p.BillingMode,
        StreamSpecification: p.StreamSpecification
          ? { StreamEnabled: true, StreamViewType: p.StreamSpecification.StreamViewType }
          : undefined,
      }),
    );
  }
  client.destroy();
}

/** Each secret with a value of the shape the template generates (a JSON object when it names a key). */
export function secretValues(template: Template): Record<string, string> {
  return Object.fromEntries(
    secretArns(template).map(({ id, arn }) => {
      const generate = template.Resources[id].Properties.GenerateSecretString ?? {};
      const value = randomBytes(36)
        .toString("base64url")
        .slice(0, generate.PasswordLength ?? 48);
      const template_ = generate.GenerateStringKey
        ? JSON.stringify({
            ...JSON.parse(generate.SecretStringTemplate ?? "{}"),
            [generate.GenerateStringKey]: randomBytes(48).toString("base64url"),
          })
        : value;
      return [arn, template_];
    }),
  );
}

/** Set beyond the template's environment, where the template leaves it unset: the statistics
 *  reconciliation pauses 1 s between its two looks at the table instead of its default 20 s. The
 *  rehearsal delivers the stream before the schedule runs it, so nothing arrives in between either
 *  way, and the function makes the same calls. */
const REHEARSAL_ENV: Record<string, string> = { SETTLE_SECONDS: "1" };

export interface HostedFunction {
  invoke(event: unknown): Promise<any>;
  stop(): void;
}

/** A fresh Lambda-like process for one function, with exactly the plan's `env` (REHEARSAL_ENV where it leaves those unset) plus what the runtime sets.
 *  Like a Lambda instance it handles one event at a time. */
export async function host(
  plan: FunctionPlan,
  endpoint: string,
  credentials: Credentials,
  onInit: (ms: number) => void,
): Promise<HostedFunction> {
  const handler = handlerPath(plan)!;
  const env: Record<string, string> = {
    ...REHEARSAL_ENV,
    ...plan.env,
    PATH: "/usr/bin:/bin",
    TZ: ":UTC",
    LAMBDA_TASK_ROOT: plan.bundleDir,
    AWS_EXECUTION_ENV: `AWS_Lambda_nodejs${plan.runtimeMajor}.x`,
    AWS_LAMBDA_FUNCTION_NAME: plan.name,
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_SESSION_TOKEN: "rehearsal",
    AWS_ENDPOINT_URL: endpoint,
  };
  const child: ChildProcess = spawn(
    lambdaNode(plan.runtimeMajor),
    [join(import.meta.dirname, "lambda-host.mjs"), handler, plan.handlerExport, plan.name],
    {
      cwd: plan.bundleDir,
      env,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const waiting: ((message: any) => void)[] = [];
  child.on("message", (message) => waiting.shift()?.(message));
  child.on("exit", (code) => {
    for (const w of waiting.splice(0)) w({ type: "init-error", message: `exited with ${code}: ${stderr}` });
  });
  const next = () => new Promise<any>((resolve) => waiting.push(resolve));
  const ready = await next();
  if (ready.type !== "ready") {
    child.kill();
    throw new Error(`${plan.name}: init failed: ${String(ready.message).split("\n")[0]}`);
  }
  onInit(ready.initMs);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    invoke(event) {
      const run = async () => {
        const answer = next();
        child.send(event as object);
        const message = await answer;
        if (message.type !== "result") throw new Error(`${plan.name}: ${String(message.message).split("\n")[0]}`);
        return message.result;
      };
      const result = queue.then(run, run);
      queue = result.catch(() => {});
      return result;
    },
    stop: () => child.kill(),
  };
}

/** What Lambda itself does with the function's role: writes its logs to its log group. */
function runtimeCalls(plan: FunctionPlan): Call[] {
  const group = plan.logGroup ?? `/aws/lambda/${plan.name}`;
  const resource = `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${group}:log-stream:2026/01/01/[$LATEST]rehearsal`;
  return ["logs:CreateLogStream", "logs:PutLogEvents"].map((action) => ({ caller: plan.name, action, resource }));
}

/** Callers that are not functions: the operator's admin command and the bench, whose calls are not checked against a role. */
export const OPERATORS = new Set(["admin command", "bench"]);

const ADMIN_EMAIL = "rehearsal-admin@example.com";
const SERIES_CSV = "year,element,value\n2018,B,50\n2019,B,30\n2020,B,\n2021,B,10\n2022,B,\n";

/** Ids, times, tokens and links differ between the two hosts, and so do an upload grant's headers
 *  (S3 signs more of them than the local host asks for); the rest of an answer must not. */
function comparable(value: unknown, key = ""): unknown {
  if (/(^id$|_id$|^ids?$|_at$|^access$|^refresh$|url$|^token$|^key$|^etag$|^version_hash$|^hash$|^headers$)/i.test(key)) return "…";
  if (typeof value === "string") {
    return value
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?/g, "<time>");
  }
  if (Array.isArray(value)) return value.map((v) => comparable(v));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, comparable(v, k)]));
  }
  return value;
}

export async function rehearse(synth: Synthesized, log: (line: string) => void = () => {}): Promise<RehearsalResult> {
  const { template, outdir } = synth;
  const plans = functionPlans(template, outdir);
  const problems = plans.flatMap(bundleProblems);
  const result: RehearsalResult = { problems, unused: [], walk: [], calls: [], initMs: {}, invoked: {} };
  // dynalite has no TTL: at least the attribute the template expires items by must be one the code writes.
  for (const { name, resource } of resourcesOf(template, "AWS::DynamoDB::Table")) {
    const ttl = resource.Properties.TimeToLiveSpecification?.AttributeName;
    if (ttl && !plans.some((p) => spawnSync("grep", ["-q", ttl, handlerPath(p) ?? "/dev/null"]).status === 0)) {
      problems.push(`table ${name}: no function writes its TTL attribute ${ttl}`);
    }
  }
  log(`${plans.length} functions, bundle check: ${problems.length ? "failed" : "passed"}`);

  const dynalite = await startDynalite();
  const secrets = secretValues(template);
  const mappings = streamMappings(template);
  const background: Promise<void>[] = [];
  let hosts: ReturnType<typeof functionHosts> | undefined;
  const endpoints = await startEndpoints({
    dynaliteUrl: dynalite.endpoint,
    secrets,
    tables: tableShapes(template),
    buckets: bucketConfigs(template),
    invoke: (name, payload) => hosts!.invoke(name, JSON.parse(payload)).then(lambdaAnswer),
    // S3 invokes the notified function asynchronously.
    onS3Event: (record) => {
      const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, " "));
      for (const n of notifications(template)) {
        const event = `s3:${record.eventName}`;
        const wanted = n.events.some((e) => e === event || (e.endsWith("*") && event.startsWith(e.slice(0, -1))));
        if (n.bucket !== record.s3.bucket.name || !wanted || !key.startsWith(n.prefix) || !key.endsWith(n.suffix)) continue;
        background.push(
          hosts!.invoke(n.functionName, { Records: [record] }).then(({ error }) => {
            if (error) problems.push(`${n.functionName}: the notification of ${key} failed: ${error}`);
          }),
        );
      }
    },
  });
  hosts = functionHosts(plans, endpoints, result);
  /** Cold starts begun ahead of the functions' first events, which then find them warm: one that
   *  fails to load fails its first event, or the check of the functions no event reached. */
  const startAhead = (names: string[]) => {
    for (const name of names) hosts!.start(name).catch(() => {});
  };
  // The API's cold start seeds the dictionaries and the calendar where missing: it starts once the
  // operator has seeded them, as on the walk's first request. The others load nothing from the table.
  const apiFunctions = new Set(apiRoutes(template).map((route) => route.functionName));
  const local = await startLocalServer({ port: 0, host: "127.0.0.1" });
  const originHeaders = Object.fromEntries(apiOriginHeaders(template).map((h) => [h.name, h.secretArn ? secrets[h.secretArn] : h.value!]));
  const gateway = await startGateway(
    apiRoutes(template),
    originHeaders,
    (name, event) => hosts!.invoke(name, event),
    (message) => problems.push(message),
  );

  /** The table's stream, delivered as each event source mapping batches it, until the stream
   *  functions' own writes leave nothing more to deliver. */
  const deliverStreams = async () => {
    for (let round = 0; round < 10; round += 1) {
      let delivered = 0;
      for (const table of new Set(mappings.map((m) => m.table))) {
        const streamArn = `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${table}/stream/2026-01-01T00:00:00.000`;
        const records = endpoints.stream.take(table).map((r) => ({ ...r, eventSourceARN: streamArn }));
        delivered += records.length;
        for (const mapping of mappings.filter((m) => m.table === table)) {
          // Lambda's poller reads the stream with the function's role.
          for (const action of ["DescribeStream", "GetShardIterator", "GetRecords"]) {
            result.calls.push({ caller: mapping.functionName, action: `dynamodb:${action}`, resource: streamArn });
          }
          for (let i = 0; i < records.length; i += mapping.batchSize) {
            const { result: answer, error } = await hosts!.invoke(mapping.functionName, {
              Records: records.slice(i, i + mapping.batchSize),
            });
            const failures = answer?.batchItemFailures ?? [];
            if (error || failures.length) {
              problems.push(`${mapping.functionName}: a batch of ${table}'s stream failed: ${error ?? JSON.stringify(failures)}`);
            }
          }
        }
      }
      if (delivered === 0) return;
    }
    problems.push("the stream functions keep writing what they are fed: the stream did not settle after 10 rounds");
  };
  /** Waits for S3's notifications and delivers the stream. */
  const settle = async () => {
    while (background.length) await Promise.all(background.splice(0));
    await deliverStreams();
  };

  try {
    await createTables(template, dynalite.endpoint);
    startAhead(plans.map((p) => p.name).filter((name) => !apiFunctions.has(name)));

    // The user, made by the admin command against the same table (through the endpoint, so its
    // writes are in the stream as the operator's would be), and on the local host alike.
    const email = "rehearsal@example.com";
    const password = "rehearsal-password";
    const company = "Репетиция развертывания";
    const admin = endpoints.credentialsFor("admin command");
    const cliEnv = {
      STORAGE: "dynamodb",
      TABLE_NAME: resourcesOf(template, "AWS::DynamoDB::Table")[0].name,
      AWS_REGION: REGION,
      // DynamoDB and S3 alike: `seed` puts the default forecast models in the uploads bucket.
      AWS_ENDPOINT_URL: endpoints.url,
      UPLOADS_BUCKET: plans.find((p) => p.env.UPLOADS_BUCKET)?.env.UPLOADS_BUCKET ?? "",
      AWS_ACCESS_KEY_ID: admin.accessKeyId,
      AWS_SECRET_ACCESS_KEY: admin.secretAccessKey,
    };
    const dataDir = mkdtempSync(join(tmpdir(), "rehearsal-admin-"));
    // `npm run admin`'s command in this process (its entry as a process of its own is tested in
    // tests/integration/admin-cli.test.ts), with the environment it reads set for the call: one
    // command at a time.
    const operator = async (args: string[]) => {
      const { status, stderr } = await runAdmin(dataDir, args, cliEnv);
      if (status !== 0) throw new Error(`admin ${args[0]} failed: ${stderr}`);
    };
    // As docs/deployment.md tells the operator: the dictionaries and the default forecast models first.
    await operator(["seed"]);
    await operator(["create-company", "--name", company]);
    await operator(["create-user", "--company", company, "--email", email, "--password", password]);
    await operator(["create-user", "--company", company, "--email", ADMIN_EMAIL, "--password", password, "--role", "admin"]);
    startAhead([...apiFunctions]);
    const localCompany = await createCompany(local.deps, { name: company });
    await createUser(local.deps, { companyId: localCompany.id, email, password });
    await createUser(local.deps, { companyId: localCompany.id, email: ADMIN_EMAIL, password, role: "admin" });

    const tokens = { lambda: "", local: "" };
    type Request = { method?: string; path: string; json?: unknown; form?: FormData };
    /** One request of the walk to both hosts: the same status, and the same JSON but for ids and times. */
    const send = async (step: string, request: (side: "lambda" | "local") => Request) => {
      const fetchOn = (base: string, side: "lambda" | "local") => {
        const r = request(side);
        return fetch(`${base}${r.path}`, {
          method: r.method ?? (r.json === undefined && r.form === undefined ? "GET" : "POST"),
          headers: {
            ...(r.json === undefined ? {} : { "content-type": "application/json" }),
            ...(tokens[side] ? { authorization: `Bearer ${tokens[side]}` } : {}),
          },
          body: r.form ?? (r.json === undefined ? undefined : JSON.stringify(r.json)),
        });
      };
      const [lambda, localAnswer] = await Promise.all([fetchOn(gateway.url, "lambda"), fetchOn(local.url, "local")]);
      const entry: WalkStep = { step, lambda: lambda.status, local: localAnswer.status };
      result.walk.push(entry);
      log(`${step}: Lambda ${entry.lambda}, local host ${entry.local}`);
      const type = lambda.headers.get("content-type") ?? "";
      const bodies: { lambda: any; local: any } = {
        lambda: type.includes("json") ? await lambda.json() : Buffer.from(await lambda.arrayBuffer()),
        local: (localAnswer.headers.get("content-type") ?? "").includes("json")
          ? await localAnswer.json()
          : Buffer.from(await localAnswer.arrayBuffer()),
      };
      if (entry.local !== entry.lambda) {
        problems.push(
          `ApiFunction: ${step} answered ${entry.lambda} where the local host answers ${entry.local}: ${JSON.stringify(bodies.lambda).slice(0, 300)}`,
        );
      } else if (type !== localAnswer.headers.get("content-type")) {
        problems.push(`ApiFunction: ${step} answered ${type} where the local host answers ${localAnswer.headers.get("content-type")}`);
      } else if (type.includes("json")) {
        const [a, b] = [JSON.stringify(comparable(bodies.lambda)), JSON.stringify(comparable(bodies.local))];
        if (a !== b) problems.push(`ApiFunction: ${step} answered ${a.slice(0, 400)} where the local host answers ${b.slice(0, 400)}`);
      }
      return bodies;
    };

    const bypass = await fetch(`${gateway.directUrl}/api/v1/projects/`);
    result.walk.push({ step: "a request that bypasses CloudFront", lambda: bypass.status });
    if (bypass.status !== 403) problems.push(`ApiFunction: a request without the origin-verify header was not refused (${bypass.status})`);
    const signIn = await send("sign-in", () => ({ path: "/api/token/", json: { email, password, guardant_code: "" } }));
    tokens.lambda = signIn.lambda?.access ?? "";
    tokens.local = signIn.local?.access ?? "";
    const project = await send("create a project", () => ({
      path: "/api/v1/projects/create_project/",
      json: { name: "Шахта «Репетиция»", start_date: "2014-01-01", end_date: "2024-12-31" },
    }));
    const ids = { lambda: project.lambda?.id, local: project.local?.id };
    // One calculation of every registry type, as a user makes it (JSON, or a form with its file).
    for (const type of CALCULATION_TYPES) {
      const inputs = validInputs(type);
      await send(`create a calculation (${type})`, (side) =>
        inputs.json
          ? { path: `/api/v1/${type}/`, json: { project: ids[side], name: `Расчет ${type}`, ...inputs.json } }
          : {
              path: `/api/v1/${type}/`,
              form: calculationForm({ project: ids[side], name: `Расчет ${type}`, ...inputs.form }, inputs.file),
            },
      );
    }
    await send("list the projects", () => ({ path: "/api/v1/projects/" }));
    await send("get the inventory", () => ({ path: `/api/v1/inventory/?year=${new Date().getUTCFullYear()}` }));
    await send("page the inventory's calculations", () => ({
      path: `/api/v1/inventory/calculations/?year=${new Date().getUTCFullYear()}&limit=5`,
    }));
    // A series file: stored under uploads/, where S3 notifies the upload check.
    const series = await send("upload a series file", (side) => {
      const form = new FormData();
      form.set("project", ids[side]);
      form.set("name", "Пропуски");
      form.set("name_value", "value");
      form.set("name_element", "element");
      form.set("file_data", new Blob([SERIES_CSV]), "ряд.csv");
      return { path: "/api/v1/filling_blanks/", form };
    });
    const seriesIds = { lambda: series.lambda?.id, local: series.local?.id };
    await send("download the series file", (side) => ({ path: `/api/v1/filling_blanks/${seriesIds[side]}/file/` }));
    for (const format of ["txt", "xls", "xlsx"]) {
      await send(`export the project as ${format} (the spreadsheet worker)`, (side) => ({
        path: `/api/v1/projects/${ids[side]}/export_to_${format}/`,
      }));
    }

    const year = new Date().getUTCFullYear();
    await send("download the inventory report (xlsx, the spreadsheet worker)", () => ({
      path: `/api/v1/inventory/${year}/report/?format=xlsx`,
    }));

    // A normative document through the presigned flow, as the admin's browser on the site does it:
    // the grant's URL is S3's (presigned) in AWS and the API's own locally; the file goes there
    // after the bucket's CORS admits the site's origin, then the upload is completed and downloaded.
    const adminSignIn = await send("the admin signs in", () => ({
      path: "/api/token/",
      json: { email: ADMIN_EMAIL, password, guardant_code: "" },
    }));
    tokens.lambda = adminSignIn.lambda?.access ?? "";
    tokens.local = adminSignIn.local?.access ?? "";
    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n% rehearsal\n"), randomBytes(4000)]);
    const grant = await send("ask for a document upload URL", () => ({
      path: "/api/v1/admin/documents/upload-url/",
      json: { content_type: "application/pdf", size: pdf.length, name: "МР-2.pdf" },
    }));
    const site = `https://${CLOUDFRONT_DOMAIN}`;
    /** What the site's page does with a URL an answer gave it: the API's own (with the bearer), or
     *  S3's from the site's origin, which the bucket's CORS must admit (s3rver answers a preflight
     *  that matched a rule with "*", the request itself with the origin). */
    const browser = async (
      step: string,
      request: (side: "lambda" | "local") => { url: string; method?: string; headers?: Record<string, string>; body?: Buffer },
    ) => {
      const answers: Record<string, { status: number; bytes: Buffer }> = {};
      for (const side of ["lambda", "local"] as const) {
        const { url, method = "GET", headers = {}, body } = request(side);
        const base = side === "lambda" ? gateway.url : local.url;
        const target = new URL(url, base);
        const toS3 = target.origin !== new URL(base).origin;
        if (toS3 && method !== "GET") {
          const preflight = await fetch(target, {
            method: "OPTIONS",
            headers: {
              origin: site,
              "access-control-request-method": method,
              "access-control-request-headers": Object.keys(headers).join(",").toLowerCase(),
            },
          });
          if (preflight.status !== 200 || !["*", site].includes(preflight.headers.get("access-control-allow-origin") ?? "")) {
            problems.push(`${step}: the bucket's CORS refuses ${method} from ${site} (${preflight.status})`);
          }
        }
        let answer = await fetch(target, {
          method,
          body,
          redirect: "manual",
          headers: { ...headers, ...(toS3 ? { origin: site } : { authorization: `Bearer ${tokens[side]}` }) },
        });
        // A download the API answers with S3's presigned URL ({download_url}, or a redirect): the page fetches it from the site's origin.
        const location =
          answer.status >= 300 && answer.status < 400
            ? answer.headers.get("location")
            : (answer.headers.get("content-type") ?? "").includes("json") && method === "GET"
              ? ((await answer.clone().json()) as { download_url?: string }).download_url
              : undefined;
        if (location) {
          answer = await fetch(new URL(location, base), { headers: { origin: site } });
          if (answer.headers.get("access-control-allow-origin") !== site) {
            problems.push(`${step}: S3's answer does not admit the site's origin ${site}`);
          }
        }
        if (toS3 && answer.headers.get("access-control-allow-origin") !== site) {
          problems.push(`${step}: S3's answer does not admit the site's origin ${site}`);
        }
        answers[side] = { status: answer.status, bytes: Buffer.from(await answer.arrayBuffer()) };
      }
      const entry: WalkStep = { step, lambda: answers.lambda.status, local: answers.local.status };
      result.walk.push(entry);
      log(`${step}: Lambda ${entry.lambda}, local host ${entry.local}`);
      if (entry.lambda !== entry.local) {
        problems.push(
          `${step} answered ${entry.lambda} where the local host answers ${entry.local}: ${answers.lambda.bytes.toString("utf8").slice(0, 300)}`,
        );
      }
      return { lambda: answers.lambda.bytes, local: answers.local.bytes };
    };
    await browser("upload the document to the granted URL", (side) => ({
      url: grant[side].url,
      method: grant[side].method,
      headers: grant[side].headers,
      body: pdf,
    }));
    const document = await send("complete the document upload", (side) => ({
      path: "/api/v1/admin/documents/complete/",
      json: { upload_id: grant[side].upload_id, title: "Методические рекомендации по дегазации", number: "МР-2", kind: "guidelines" },
    }));
    const downloaded = await browser("download the document", (side) => ({ url: document[side]?.download_url ?? "/missing" }));
    if (!downloaded.lambda.equals(pdf)) {
      problems.push(
        `download the document: ${downloaded.lambda.length} bytes where ${pdf.length} were uploaded, starting ${JSON.stringify(downloaded.lambda.subarray(0, 80).toString("utf8"))}`,
      );
    }

    // The stream functions get the walk's writes; then each scheduled function runs once.
    await settle();
    for (const schedule of schedules(template)) {
      const { error } = await hosts.invoke(schedule.functionName, scheduledEvent(schedule));
      if (error) problems.push(`${schedule.functionName}: its scheduled run (${schedule.rule}) failed: ${error}`);
      log(`${schedule.functionName} ran on its schedule ${schedule.rule}${error ? ": failed" : ""}`);
    }
    await settle();
    // A queue's consumer gets a message as SQS delivers it: a batch no push stored is answered as
    // missing (read from the table, nothing written), not failed.
    for (const consumer of queueConsumers(template)) {
      const messageId = randomUUID();
      const { error, result: answer } = await hosts.invoke(consumer.functionName, {
        Records: [
          {
            messageId,
            receiptHandle: randomUUID(),
            body: JSON.stringify({ company: randomUUID(), batch: randomUUID() }),
            attributes: {},
            messageAttributes: {},
            md5OfBody: "",
            eventSource: "aws:sqs",
            eventSourceARN: `arn:aws:sqs:${REGION}:${ACCOUNT}:${consumer.queue}`,
            awsRegion: REGION,
          },
        ],
      });
      const failed = (answer as { batchItemFailures?: unknown[] } | undefined)?.batchItemFailures ?? [];
      if (error || failed.length > 0)
        problems.push(`${consumer.functionName}: a message of ${consumer.queue} failed: ${error ?? JSON.stringify(failed)}`);
      log(`${consumer.functionName} consumed a message of ${consumer.queue}${error ? ": failed" : ""}`);
    }
    await settle();

    // A function no trigger of the walk reached still has to load as its cold start would.
    for (const plan of plans.filter((p) => !result.invoked[p.name])) {
      await hosts.start(plan.name);
      log(
        `${plan.name} loads on Node ${plan.runtimeMajor} in ${Math.round(result.initMs[plan.name])} ms (no event of the walk reached it)`,
      );
    }
    result.calls.push(...endpoints.calls);
    for (const call of result.calls) {
      if (!plans.some((p) => p.name === call.caller) && !OPERATORS.has(call.caller)) {
        problems.push(`${call.action} on ${call.resource} came from ${call.caller}, which is no function of the stack`);
      }
    }
    const iam = await checkCalls(plans, result.calls);
    problems.push(...iam.denied);
    result.unused = iam.unused;
  } catch (error) {
    problems.push((error as Error).message);
  } finally {
    hosts.stopAll();
    await gateway.close();
    await local.close();
    await endpoints.close();
    await dynalite.close();
  }
  return result;
}

/** Lambda's Invoke answer for a handler's result or error. */
function lambdaAnswer({ result, error }: { result?: unknown; error?: string }): InvokeAnswer {
  return error === undefined
    ? { payload: JSON.stringify(result ?? null) }
    : { payload: JSON.stringify({ errorType: "Error", errorMessage: error }), functionError: "Unhandled" };
}

/** The stack's functions by name, each started on its first event (its cold start) and kept warm. */
function functionHosts(plans: FunctionPlan[], endpoints: Endpoints, result: RehearsalResult) {
  const running = new Map<string, Promise<HostedFunction>>();
  const start = (name: string) => {
    const plan = plans.find((p) => p.name === name);
    if (!plan) throw new Error(`${name} is invoked but is no function of the template`);
    let hosted = running.get(name);
    if (!hosted) {
      result.calls.push(...runtimeCalls(plan));
      hosted = host(plan, endpoints.url, endpoints.credentialsFor(name), (ms) => {
        result.initMs[name] = ms;
      });
      running.set(name, hosted);
    }
    return hosted;
  };
  return {
    start,
    async invoke(name: string, event: unknown): Promise<{ result?: any; error?: string }> {
      result.invoked[name] = (result.invoked[name] ?? 0) + 1;
      try {
        return { result: await (await start(name)).invoke(event) };
      } catch (error) {
        return { error: (error as Error).message };
      }
    },
    stopAll() {
      for (const hosted of running.values())
        hosted.then(
          (h) => h.stop(),
          () => {},
        );
    },
  };
}
