// Cold starts of the synthesized prod stack's own bundles (`npm run bench -- lambda`): per
// application function, the bundle's size on disk, the init time (module import to handler ready,
// top-level await included, the secrets served by the local stand-in) and the time of the first
// request after it, each the median of RUNS fresh processes of the function's Node major with the
// template's environment. The parts are the deploy rehearsal's (tests/rehearsal/): the same synth,
// the same Lambda-like host and the same local endpoints (dynalite, the local S3 server, the emulated Secrets Manager).
// Not included: the runtime's own start, the download of the code and the network to real services,
// which a real cold start adds (docs/performance.md).
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { startDynalite } from "@server/local/dynalite";
import { apiGatewayEvent } from "../infra/api-gateway-event";
import { newId } from "@server/domain/ids";
import { startEndpoints } from "../rehearsal/aws-endpoint";
import { createTables, host, lambdaNode, secretValues } from "../rehearsal/rehearse";
import { type Synthesized, synthesizeProd } from "../rehearsal/synth";
import { bucketConfigs, type FunctionPlan, functionPlans, REGION, resolve, resourcesOf, tableShapes } from "../rehearsal/template";

export const RUNS = 5;

export interface ColdStart {
  name: string;
  runtimeMajor: number;
  bundleBytes: number;
  files: number;
  initMs: number;
  firstRequestMs: number;
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

interface FirstRequest {
  label: string;
  event: () => Promise<unknown>;
  /** Throws when the answer shows the request did not do its work. */
  check: (answer: any) => void;
}

/** A typical first event of each function, as its trigger delivers it. */
function firstRequest(plan: FunctionPlan, synth: Synthesized, secrets: Record<string, string>, s3: S3Client): FirstRequest {
  switch (plan.name) {
    case "ApiFunction":
      // Through CloudFront (origin header), routed, one table query: a sign-in of an unknown user.
      return {
        label: "POST /api/token/ (unknown user)",
        event: async () =>
          apiGatewayEvent({
            path: "/api/token/",
            json: { email: "nobody@example.com", password: "not-a-password", guardant_code: "" },
            headers: { "x-origin-verify": secrets[plan.env.ORIGIN_VERIFY_SECRET_ARN] },
          }),
        check: (answer) => {
          if (answer.statusCode !== 401) throw new Error(`ApiFunction answered ${answer.statusCode}: ${answer.body}`);
        },
      };
    case "SpreadsheetFunction":
      return {
        label: "template workbook (regres_methane)",
        event: async () => ({ op: "template", type: "regres_methane" }),
        check: (answer) => {
          if (answer.kind !== "body") throw new Error(`SpreadsheetFunction answered ${JSON.stringify(answer)}`);
        },
      };
    case "ExportJobFunction":
      // As the API invokes it (asynchronously) for a passport beyond the job sizes: a job of one.
      return {
        label: "passport job (xlsx) of a company with no year",
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
          if (answer.kind !== "job") throw new Error(`ExportJobFunction answered ${JSON.stringify(answer)}`);
        },
      };
    case "UploadCheckFunction": {
      // The object the notification names is written first, as a presigned PUT would.
      const notifications = resourcesOf(synth.template, "Custom::S3BucketNotifications")[0];
      const bucket = resolve(synth.template, notifications.resource.Properties.BucketName);
      return {
        label: "S3 notification of a .csv upload",
        event: async () => {
          const key = `uploads/bench-${Date.now()}.csv`;
          await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: "text/csv", Body: "year;volume\n2024;1000\n" }));
          return { Records: [{ eventName: "ObjectCreated:Put", s3: { bucket: { name: bucket }, object: { key, size: 22 } } }] };
        },
        check: () => {},
      };
    }
    case "StreamAuditFunction":
      return {
        label: "stream batch of one project write",
        event: async () => ({
          Records: [
            {
              eventName: "INSERT",
              dynamodb: {
                ApproximateCreationDateTime: Date.now() / 1000,
                Keys: { PK: { S: "COMPANY#bench" }, SK: { S: "PROJECT#bench" } },
                NewImage: { PK: { S: "COMPANY#bench" }, SK: { S: "PROJECT#bench" }, name: { S: "Шахта" } },
              },
            },
          ],
        }),
        check: () => {},
      };
    default:
      // The scheduled ones (statistics reconcile, orphan sweep): an EventBridge schedule event.
      return {
        label: "scheduled event",
        event: async () => ({ source: "aws.events", "detail-type": "Scheduled Event", detail: {} }),
        check: () => {},
      };
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
      const request = firstRequest(plan, synth, secrets, s3);
      const inits: number[] = [];
      const firsts: number[] = [];
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
  console.log("function                      node  bundle            init ms  first request ms  DynamoDB calls  first request");
  for (const r of results) {
    const bundle = `${(r.bundleBytes / 1024 / 1024).toFixed(2)} MB (${r.files} files)`;
    console.log(
      `${r.name.padEnd(30)}${String(r.runtimeMajor).padEnd(6)}${bundle.padEnd(18)}${r.initMs.toFixed(0).padStart(7)}  ${r.firstRequestMs.toFixed(0).padStart(16)}  ${String(r.dynamoCalls).padStart(14)}  ${r.request}`,
    );
  }
}
