// The deploy rehearsal: the synthesized prod stack's own bundles, run as Lambda runs them, on
// local endpoints, with every AWS call checked against the role the template gives the function.
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { startDynalite } from "@server/local/dynalite";
import { startLocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/users";
import { REPO_ROOT } from "../../infra/lib/stack";
import { apiGatewayEvent } from "../infra/api-gateway-event";
import { type Call, startEndpoints } from "./aws-endpoint";
import { bundleProblems, handlerPath } from "./checks";
import { checkCalls } from "./iam";
import type { Synthesized, Template } from "./synth";
import { type FunctionPlan, functionPlans, REGION, resourcesOf, secretArns } from "./template";

const run = promisify(execFile);

export interface WalkStep {
  step: string;
  lambda: number;
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
}

/** The Node binary of a runtime major, fetched from the npm registry as tests/node-runtime.sh does (same cache). */
export function lambdaNode(major: number): string {
  const version = process.env.LAMBDA_NODE_VERSION ?? "24.21.0";
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

export interface HostedFunction {
  invoke(event: unknown): Promise<any>;
  stop(): void;
}

/** A fresh Lambda-like process for one function, with exactly `env` plus what the runtime sets. */
export async function host(plan: FunctionPlan, endpoint: string, onInit: (ms: number) => void): Promise<HostedFunction> {
  const handler = handlerPath(plan)!;
  const env: Record<string, string> = {
    ...plan.env,
    PATH: "/usr/bin:/bin",
    TZ: ":UTC",
    LAMBDA_TASK_ROOT: plan.bundleDir,
    AWS_EXECUTION_ENV: `AWS_Lambda_nodejs${plan.runtimeMajor}.x`,
    AWS_LAMBDA_FUNCTION_NAME: plan.name,
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_ACCESS_KEY_ID: "ASIAREHEARSAL",
    AWS_SECRET_ACCESS_KEY: "rehearsal",
    AWS_SESSION_TOKEN: "rehearsal",
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
    AWS_ENDPOINT_URL_LAMBDA: endpoint,
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
  return {
    async invoke(event) {
      const answer = next();
      child.send(event as object);
      const message = await answer;
      if (message.type !== "result") throw new Error(`${plan.name}: ${String(message.message).split("\n")[0]}`);
      return message.result;
    },
    stop: () => child.kill(),
  };
}

const UNDERGROUND = { volume: 1000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };

export async function rehearse(synth: Synthesized, log: (line: string) => void = () => {}): Promise<RehearsalResult> {
  const { template, outdir } = synth;
  const plans = functionPlans(template, outdir);
  const problems = plans.flatMap(bundleProblems);
  const result: RehearsalResult = { problems, unused: [], walk: [], calls: [], initMs: {} };
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
  const endpoints = await startEndpoints({
    dynaliteUrl: dynalite.endpoint,
    secrets,
    buckets: resourcesOf(template, "AWS::S3::Bucket").map((b) => b.name),
  });
  const local = await startLocalServer({ port: 0, host: "127.0.0.1" });
  const running: HostedFunction[] = [];
  try {
    await createTables(template, dynalite.endpoint);
    const api = plans.find((p) => p.name === "ApiFunction");
    if (!api) throw new Error("the template has no ApiFunction");

    // The user, made by the admin command against the same table, and on the local host alike.
    const email = "rehearsal@example.com";
    const password = "rehearsal-password";
    const company = "Репетиция развертывания";
    const cliEnv = {
      ...process.env,
      STORAGE: "dynamodb",
      TABLE_NAME: resourcesOf(template, "AWS::DynamoDB::Table")[0].name,
      AWS_REGION: REGION,
      AWS_ENDPOINT_URL_DYNAMODB: dynalite.endpoint,
      AWS_ACCESS_KEY_ID: "local",
      AWS_SECRET_ACCESS_KEY: "local",
      DATA_DIR: mkdtempSync(join(tmpdir(), "rehearsal-admin-")),
    };
    for (const args of [
      ["create-company", "--name", company],
      ["create-user", "--company", company, "--email", email, "--password", password],
    ]) {
      // Asynchronously: dynalite answers from this process.
      await run(process.execPath, ["--import", "tsx", join(REPO_ROOT, "functions/src/admin/cli.ts"), ...args], {
        env: cliEnv,
        cwd: REPO_ROOT,
      }).catch((error: Error & { stderr?: string }) => {
        throw new Error(`admin ${args[0]} failed: ${error.stderr ?? error.message}`);
      });
    }
    const localCompany = await createCompany(local.deps, { name: company });
    await createUser(local.deps, { companyId: localCompany.id, email, password });

    const apiHost = await host(api, endpoints.urlFor(api.name), (ms) => {
      result.initMs[api.name] = ms;
    });
    running.push(apiHost);
    log(`ApiFunction initialised on Node ${api.runtimeMajor} in ${Math.round(result.initMs[api.name])} ms`);

    const originVerify = secrets[api.env.ORIGIN_VERIFY_SECRET_ARN];
    const tokens = { lambda: "", local: "" };
    type Request = { method?: string; path: string; json?: unknown };
    const send = async (step: string, request: (side: "lambda" | "local") => Request, viaCloudFront = true) => {
      const toLambda = request("lambda");
      const [path, query] = toLambda.path.split("?");
      const event = apiGatewayEvent({
        method: toLambda.method,
        path,
        query,
        json: toLambda.json,
        headers: {
          "x-origin-verify": viaCloudFront ? originVerify : undefined,
          authorization: tokens.lambda ? `Bearer ${tokens.lambda}` : undefined,
        },
      });
      const answer = await apiHost.invoke(event);
      const toLocal = request("local");
      const localAnswer = viaCloudFront
        ? await fetch(`${local.url}${toLocal.path}`, {
            method: toLocal.method ?? (toLocal.json === undefined ? "GET" : "POST"),
            headers: { "content-type": "application/json", ...(tokens.local ? { authorization: `Bearer ${tokens.local}` } : {}) },
            body: toLocal.json === undefined ? undefined : JSON.stringify(toLocal.json),
          })
        : undefined;
      const entry: WalkStep = { step, lambda: answer.statusCode, local: localAnswer?.status };
      result.walk.push(entry);
      log(`${step}: Lambda ${entry.lambda}${entry.local === undefined ? "" : `, local host ${entry.local}`}`);
      if (entry.local !== undefined && entry.local !== entry.lambda) {
        problems.push(
          `ApiFunction: ${step} answered ${entry.lambda} where the local host answers ${entry.local}: ${String(answer.body).slice(0, 300)}`,
        );
      }
      const parse = (text: string) => {
        try {
          return JSON.parse(text);
        } catch {
          return undefined;
        }
      };
      return {
        lambda: parse(answer.isBase64Encoded ? Buffer.from(answer.body, "base64").toString("utf8") : answer.body),
        local: localAnswer ? parse(await localAnswer.text()) : undefined,
      };
    };

    const refused = await send("a request that bypasses CloudFront", () => ({ path: "/api/v1/projects/" }), false);
    if (result.walk.at(-1)!.lambda !== 403)
      problems.push(`ApiFunction: a request without ${"x-origin-verify"} was not refused (${JSON.stringify(refused.lambda)})`);
    const signIn = await send("sign-in", () => ({ path: "/api/token/", json: { email, password, guardant_code: "" } }));
    tokens.lambda = signIn.lambda?.access ?? "";
    tokens.local = signIn.local?.access ?? "";
    const project = await send("create a project", () => ({
      path: "/api/v1/projects/create_project/",
      json: { name: "Шахта «Репетиция»", start_date: "2014-01-01", end_date: "2024-12-31" },
    }));
    const ids = { lambda: project.lambda?.id, local: project.local?.id };
    await send("create a calculation", (side) => ({
      path: "/api/v1/underground/",
      json: { project: ids[side], name: "Дегазация", ...UNDERGROUND },
    }));
    await send("list the projects", () => ({ path: "/api/v1/projects/" }));
    await send("get the inventory", () => ({ path: `/api/v1/inventory/?year=${new Date().getUTCFullYear()}` }));

    // The other functions' bundles are loaded as their cold start would (ESM, top-level code, their env).
    for (const plan of plans.filter((p) => p !== api)) {
      const hosted = await host(plan, endpoints.urlFor(plan.name), (ms) => {
        result.initMs[plan.name] = ms;
      });
      hosted.stop();
      log(`${plan.name} loads on Node ${plan.runtimeMajor} in ${Math.round(result.initMs[plan.name])} ms`);
    }

    result.calls = endpoints.calls;
    const iam = checkCalls(plans, endpoints.calls);
    problems.push(...iam.denied);
    result.unused = iam.unused;
  } catch (error) {
    problems.push((error as Error).message);
  } finally {
    result.calls = endpoints.calls;
    for (const r of running) r.stop();
    await local.close();
    await endpoints.close();
    await dynalite.close();
  }
  return result;
}
