// Cold starts of the synthesized prod stack's own bundles (`npm run bench -- lambda`): per
// application function, the bundle's size on disk, the init time (module import to handler ready,
// top-level await included, the secrets served by the local stand-in), the time of the first
// request after it and of a second one in the same warm process, each the median of RUNS fresh
// processes of the function's Node major with the template's environment. Each function gets the
// event its trigger sends (firstRequest: API Gateway for the API, SQS records for the readings'
// consumer, a schedule event for the nightly and minute functions, stream records, an S3
// notification, the API's invoke for the worker and the job function);
// tests/infra/lambda-bench-events.test.ts holds that every function of the stack has one. The parts are the deploy rehearsal's (tests/rehearsal/): the same synth,
// the same Lambda-like host and the same local endpoints (dynalite, the local S3 server, the emulated Secrets Manager).
// Not included: the runtime's own start, the download of the code and the network to real services,
// which a real cold start adds (docs/performance.md).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { startDynalite } from "@server/local/dynalite";
import { apiGatewayEvent } from "../infra/api-gateway-event";
import { newId } from "@server/domain/ids";
import { startEndpoints } from "../rehearsal/aws-endpoint";
import { createTables, host, lambdaNode, secretValues } from "../rehearsal/rehearse";
import { type Synthesized, synthesizeProd } from "../rehearsal/synth";
import type { Template } from "../rehearsal/synth";
import {
  ACCOUNT,
  apiRoutes,
  bucketConfigs,
  type FunctionPlan,
  functionPlans,
  notifications,
  queueConsumers,
  REGION,
  scheduledEvent,
  schedules,
  streamMappings,
  tableShapes,
} from "../rehearsal/template";

export const RUNS = 5;

export interface ColdStart {
  name: string;
  runtimeMajor: number;
  bundleBytes: number;
  files: number;
  initMs: number;
  firstRequestMs: number;
  /** The next request of the same kind in the same (warm) process. */
  warmRequestMs: number;
  /** The DynamoDB calls the function made for its first request (median). */
  dynamoCalls: number;
  /** What the first request was, for the table. */
  request: string;
}

function folderSize(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
    files += 1;
  }
  return { bytes, files };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** What sends a function its events: read from the template (the HTTP API's integrations, an SQS
 *  queue's event source mapping, an EventBridge schedule, a table's stream, a bucket's notification),
 *  or the API's own invoke (the spreadsheet worker and the job function, which no trigger names). */
export type Trigger = "api" | "sqs" | "schedule" | "stream" | "s3" | "invoke";

/** The API invokes these by name (adapters/spreadsheets/lambda-worker.ts, jobs.ts). */
const INVOKED_BY_API = ["SpreadsheetFunction", "ExportJobFunction"];

/** Each trigger the template gives `name` (an application function may have none of its own only
 *  when the API invokes it). */
export function triggersOf(template: Template, name: string): Trigger[] {
  const found: Trigger[] = [];
  if (apiRoutes(template).some((r) => r.functionName === name)) found.push("api");
  if (queueConsumers(template).some((q) => q.functionName === name)) found.push("sqs");
  if (schedules(template).some((s) => s.functionName === name)) found.push("schedule");
  if (streamMappings(template).some((m) => m.functionName === name)) found.push("stream");
  if (notifications(template).some((n) => n.functionName === name)) found.push("s3");
  if (INVOKED_BY_API.includes(name)) found.push("invoke");
  return found;
}

export interface FirstRequest {
  label: string;
  trigger: Trigger;
  event: () => Promise<unknown>;
  /** Throws when the answer shows the request did not do its work. */
  check: (answer: any) => void;
}

/** A typical first event of each function, as its trigger delivers it (the same event for
 *  every function without a route gave the readings' SQS consumer a schedule event, «e.Records is not
 *  iterable», and the bench stopped). A function with no trigger here is an error, not a guess. */
export function firstRequest(
  plan: Pick<FunctionPlan, "name" | "env">,
  template: Template,
  secrets: Record<string, string>,
  s3?: S3Client,
): FirstRequest {
  const { name } = plan;
  const triggers = triggersOf(template, name);
  const [trigger] = triggers;
  if (triggers.length !== 1)
    throw new Error(
      `${name}: ${triggers.length === 0 ? "no trigger in the template" : `triggers ${triggers.join(", ")}`}, no event in the bench`,
    );
  switch (trigger) {
    case "api":
      // Through CloudFront (origin header), routed, one table query: a sign-in of an unknown user.
      return {
        label: "POST /api/token/ (unknown user)",
        trigger,
        event: async () =>
          apiGatewayEvent({
            path: "/api/token/",
            json: { email: "nobody@example.com", password: "not-a-password", guardant_code: "" },
            headers: { "x-origin-verify": secrets[plan.env.ORIGIN_VERIFY_SECRET_ARN] },
          }),
        check: (answer) => {
          if (answer.statusCode !== 401) throw new Error(`${name} answered ${answer.statusCode}: ${answer.body}`);
        },
      };
    case "invoke":
      return name === "SpreadsheetFunction"
        ? {
            label: "template workbook (regres_methane)",
            trigger,
            event: async () => ({ op: "template", type: "regres_methane" }),
            check: (answer) => {
              if (answer.kind !== "body") throw new Error(`${name} answered ${JSON.stringify(answer)}`);
            },
          }
        : {
            // As the API invokes it (asynchronously) for a passport beyond the job sizes: a job of one.
            label: "passport job (xlsx) of a company with no year",
            trigger,
            event: async () => ({
              op: "job",
              job: newId(),
              request: {
                op: "inventory_report",
                actor: { id: "bench", company: "bench", email: "bench@example.com", role: "staff" },
                year: 2024,
                format: "xlsx",
              },
            }),
            check: (answer) => {
              if (answer.kind !== "job") throw new Error(`${name} answered ${JSON.stringify(answer)}`);
            },
          };
    case "s3": {
      // The object the notification names is written first, as a presigned PUT would.
      const notification = notifications(template).find((n) => n.functionName === name)!;
      return {
        label: "S3 notification of a .csv upload",
        trigger,
        event: async () => {
          const key = `${notification.prefix}bench-${Date.now()}.csv`;
          await s3?.send(
            new PutObjectCommand({ Bucket: notification.bucket, Key: key, ContentType: "text/csv", Body: "year;volume\n2024;1000\n" }),
          );
          return {
            Records: [
              {
                eventSource: "aws:s3",
                eventName: "ObjectCreated:Put",
                s3: { bucket: { name: notification.bucket }, object: { key, size: 22 } },
              },
            ],
          };
        },
        check: () => {},
      };
    }
    case "stream":
      return {
        label: "stream batch of one project write",
        trigger,
        event: async () => ({
          Records: [
            {
              eventSource: "aws:dynamodb",
              eventName: "INSERT",
              dynamodb: {
                ApproximateCreationDateTime: Date.now() / 1000,
                Keys: { PK: { S: "COMPANY#bench" }, SK: { S: "PROJECT#bench" } },
                NewImage: { PK: { S: "COMPANY#bench" }, SK: { S: "PROJECT#bench" }, name: { S: "Шахта" } },
              },
            },
          ],
        }),
        check: (answer) => {
          if ((answer?.batchItemFailures ?? []).length > 0) throw new Error(`${name} failed ${JSON.stringify(answer)}`);
        },
      };
    case "sqs": {
      // A message as SQS delivers it: a batch no push stored is answered as missing (read from the
      // table, nothing written), not failed (as the deploy rehearsal sends it).
      const { queue } = queueConsumers(template).find((q) => q.functionName === name)!;
      return {
        label: `SQS message of ${queue} (a batch not stored)`,
        trigger,
        event: async () => ({
          Records: [
            {
              messageId: randomUUID(),
              receiptHandle: randomUUID(),
              body: JSON.stringify({ company: randomUUID(), batch: randomUUID() }),
              attributes: {},
              messageAttributes: {},
              md5OfBody: "",
              eventSource: "aws:sqs",
              eventSourceARN: `arn:aws:sqs:${REGION}:${ACCOUNT}:${queue}`,
              awsRegion: REGION,
            },
          ],
        }),
        check: (answer) => {
          if ((answer?.batchItemFailures ?? []).length > 0) throw new Error(`${name} failed ${JSON.stringify(answer)}`);
        },
      };
    }
    case "schedule": {
      // An EventBridge schedule event, as the rule delivers it.
      const schedule = schedules(template).find((s) => s.functionName === name)!;
      return {
        label: `scheduled event (${schedule.rule})`,
        trigger,
        event: async () => scheduledEvent(schedule),
        check: () => {},
      };
    }
  }
}

/** Cold starts of the stack's functions (all, or those named), on one set of local endpoints. */
export async function measureColdStarts(synth: Synthesized, runs = RUNS, only?: string[]): Promise<ColdStart[]> {
  const plans = functionPlans(synth.template, synth.outdir).filter((p) => !only || only.includes(p.name));
  const dynalite = await startDynalite();
  const secrets = secretValues(synth.template);
  const endpoints = await startEndpoints({
    dynaliteUrl: dynalite.endpoint,
    secrets,
    tables: tableShapes(synth.template),
    buckets: bucketConfigs(synth.template),
  });
  // The bench writes its own objects, signed with a key of its own.
  const s3 = new S3Client({
    endpoint: endpoints.url,
    region: REGION,
    forcePathStyle: true,
    credentials: endpoints.credentialsFor("bench"),
  });
  try {
    await createTables(synth.template, dynalite.endpoint);
    const out: ColdStart[] = [];
    for (const plan of plans) {
      const request = firstRequest(plan, synth.template, secrets, s3);
      const inits: number[] = [];
      const firsts: number[] = [];
      const warms: number[] = [];
      const dynamoCalls: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const hosted = await host(plan, endpoints.url, endpoints.credentialsFor(plan.name), (ms) => inits.push(ms));
        try {
          const event = await request.event();
          const started = performance.now();
          const callsBefore = endpoints.calls.length;
          const answer = await hosted.invoke(event);
          firsts.push(performance.now() - started);
          // The DynamoDB calls the function made for it (by its own credentials), as IAM sees them.
          dynamoCalls.push(
            endpoints.calls.slice(callsBefore).filter((c) => c.caller === plan.name && c.action.startsWith("dynamodb:")).length,
          );
          request.check(answer);
          const again = await request.event();
          const warmStarted = performance.now();
          request.check(await hosted.invoke(again));
          warms.push(performance.now() - warmStarted);
        } finally {
          hosted.stop();
        }
      }
      const size = folderSize(plan.bundleDir);
      out.push({
        name: plan.name,
        runtimeMajor: plan.runtimeMajor,
        bundleBytes: size.bytes,
        files: size.files,
        initMs: median(inits),
        firstRequestMs: median(firsts),
        warmRequestMs: median(warms),
        dynamoCalls: median(dynamoCalls),
        request: request.label,
      });
    }
    return out;
  } finally {
    s3.destroy();
    await endpoints.close();
    await dynalite.close();
  }
}

export async function run(): Promise<void> {
  console.log("synthesizing the prod stack…");
  const results = await measureColdStarts(synthesizeProd());
  const versions = [...new Set(results.map((r) => execFileSync(lambdaNode(r.runtimeMajor), ["--version"], { encoding: "utf8" }).trim()))];
  console.log(
    `functions on Node ${versions.join(", ")}, median of ${RUNS} fresh processes each; init = import to handler ready (secrets served locally)`,
  );
  console.log(
    "function                      node  bundle            init ms  first request ms  warm request ms  DynamoDB calls  request (its trigger's event)",
  );
  for (const r of results) {
    const bundle = `${(r.bundleBytes / 1024 / 1024).toFixed(2)} MB (${r.files} files)`;
    console.log(
      `${r.name.padEnd(30)}${String(r.runtimeMajor).padEnd(6)}${bundle.padEnd(18)}${r.initMs.toFixed(0).padStart(7)}  ${r.firstRequestMs.toFixed(0).padStart(16)}  ${r.warmRequestMs.toFixed(0).padStart(15)}  ${String(r.dynamoCalls).padStart(14)}  ${r.request}`,
    );
  }
}
