// The deploy rehearsal in the infra tier: the prod stack's bundles run on Node 24 against local
// endpoints and pass; a role missing an action or a function missing a variable fails it by name.
import { beforeAll, describe, expect, it } from "vitest";
import { CALCULATION_TYPES } from "@core/registry";
import { startDynalite } from "@server/local/dynalite";
import { startEndpoints } from "./aws-endpoint";
import { host, rehearse, type RehearsalResult, secretValues } from "./rehearse";
import { prodAssembly, type Synthesized, type Template } from "./synth";
import { checkCalls } from "./iam";
import { bundleProblems } from "./checks";
import { bucketConfigs, functionPlans, tableShapes } from "./template";

let synth: Synthesized;
let result: RehearsalResult;

beforeAll(async () => {
  // The stack test may have bundled it already in this run (tests/infra/stack.test.ts).
  synth = await prodAssembly();
  result = await rehearse(synth);
  // About 3 minutes on this machine; a cold synth bundles six functions, and on two cores shared
  // with other test runs (load 15–20) the whole took up to 6.
}, 480_000);

const functionOf = (template: Template, name: string) =>
  Object.entries(template.Resources).find(([id, r]) => r.Type === "AWS::Lambda::Function" && id.startsWith(name))!;

/** The template with `action` taken out of every statement of `policyPrefix`'s policies. */
function withoutAction(template: Template, policyPrefix: string, action: string): Template {
  const copy = structuredClone(template);
  for (const [id, r] of Object.entries(copy.Resources)) {
    if (r.Type !== "AWS::IAM::Policy" || !id.startsWith(policyPrefix)) continue;
    for (const s of r.Properties.PolicyDocument.Statement) {
      s.Action = Array.isArray(s.Action) ? s.Action.filter((a: string) => a !== action) : s.Action === action ? [] : s.Action;
    }
  }
  return copy;
}

describe("deploy rehearsal", () => {
  it("passes: bundles complete, the API answers as the local host does, every call allowed", () => {
    expect(result.problems).toEqual([]);
    expect(result.walk.map((w) => [w.step, w.lambda])).toEqual([
      ["a request that bypasses CloudFront", 403],
      ["sign-in", 200],
      ["create a project", 201],
      ...CALCULATION_TYPES.map((type) => [`create a calculation (${type})`, 201]),
      ["list the projects", 200],
      ["get the inventory", 200],
      ["page the inventory's calculations", 200],
      ["upload a series file", 201],
      ["download the series file", 200],
      ["export the project as txt (the spreadsheet worker)", 200],
      ["export the project as xls (the spreadsheet worker)", 200],
      ["export the project as xlsx (the spreadsheet worker)", 200],
      ["download the inventory report (xlsx, the spreadsheet worker)", 200],
      ["the admin signs in", 200],
      ["ask for a document upload URL", 200],
      ["upload the document to the granted URL", 200],
      ["complete the document upload", 201],
      ["download the document", 200],
    ]);
    const made = (caller: string, action: string) => result.calls.some((c) => c.caller === caller && c.action === action);
    expect(made("ApiFunction", "secretsmanager:GetSecretValue")).toBe(true);
    expect(result.calls.some((c) => c.action === "dynamodb:Query" && c.resource.endsWith("/index/GSI1"))).toBe(true);
    // Each function got the events its triggers send: the worker the API's invokes, the upload
    // check S3's notification of the series file, the stream function the walk's writes, the
    // scheduled ones their rule's event.
    expect(made("ApiFunction", "lambda:InvokeFunction")).toBe(true);
    expect(made("SpreadsheetFunction", "dynamodb:Query")).toBe(true);
    expect(made("UploadCheckFunction", "s3:GetObject")).toBe(true);
    expect(made("StreamAuditFunction", "dynamodb:GetRecords")).toBe(true);
    expect(made("StatisticsReconcileFunction", "dynamodb:Query")).toBe(true);
    expect(made("OrphanSweepFunction", "s3:ListBucket")).toBe(true);
    // The job function runs only reports beyond the job sizes (domain/heavy-work.ts), which the
    // walk does not make: it must still load as its cold start would; every other one was invoked.
    for (const name of functionPlans(synth.template, synth.outdir).map((p) => p.name)) {
      if (name === "ExportJobFunction") expect(result.initMs[name]).toBeGreaterThan(0);
      else expect(result.invoked[name], name).toBeGreaterThan(0);
    }
  });

  it("lists what a role grants and no call used, without failing", () => {
    expect(result.unused).toContain(
      "StreamAuditFunction: dynamodb:ListStreams on * (" +
        Object.keys(synth.template.Resources).find((id) => id.startsWith("StreamAuditFunctionRoleDefaultPolicy")) +
        ")",
    );
    expect(result.unused.some((line) => line.includes("logs:"))).toBe(false);
  });

  it("fails naming the action, the resource and the missing statement when a role lacks one the function calls", async () => {
    const template = withoutAction(synth.template, "ApiFunctionRoleDefaultPolicy", "lambda:InvokeFunction");
    const { denied } = await checkCalls(functionPlans(template, synth.outdir), result.calls);
    expect(denied).toEqual([
      expect.stringMatching(
        /^ApiFunction: lambda:InvokeFunction on arn:aws:lambda:eu-central-1:\d+:function:SpreadsheetFunction is denied: its role has no statement allowing it; missing \{"Effect":"Allow","Action":"lambda:InvokeFunction","Resource":"arn:aws:lambda:.*:function:SpreadsheetFunction"\}$/,
      ),
    ]);
  });

  it("fails naming the action the runtime needs when the log grant is gone", async () => {
    const template = withoutAction(synth.template, "UploadCheckFunctionRoleDefaultPolicy", "logs:PutLogEvents");
    const { denied } = await checkCalls(functionPlans(template, synth.outdir), result.calls);
    expect(denied).toEqual([
      expect.stringMatching(/^UploadCheckFunction: logs:PutLogEvents on arn:aws:logs:.*:log-group:UploadCheckFunctionLogs:/),
    ]);
  });

  it("fails naming the variable when the template stops setting one the bundle reads", () => {
    const template = structuredClone(synth.template);
    delete functionOf(template, "ApiFunction")[1].Properties.Environment.Variables.ORIGIN_VERIFY_SECRET_ARN;
    const api = functionPlans(template, synth.outdir).find((p) => p.name === "ApiFunction")!;
    expect(bundleProblems(api)).toEqual([
      "ApiFunction: the bundle reads environment variable ORIGIN_VERIFY_SECRET_ARN, which the template does not set",
    ]);
  });

  it("fails naming the variable the function needs at init", async () => {
    const template = structuredClone(synth.template);
    delete functionOf(template, "ApiFunction")[1].Properties.Environment.Variables.TABLE_NAME;
    const api = functionPlans(template, synth.outdir).find((p) => p.name === "ApiFunction")!;
    const dynalite = await startDynalite();
    const endpoints = await startEndpoints({
      dynaliteUrl: dynalite.endpoint,
      secrets: secretValues(template),
      tables: tableShapes(template),
      buckets: bucketConfigs(template),
    });
    try {
      await expect(host(api, endpoints.url, endpoints.credentialsFor(api.name), () => {})).rejects.toThrow(
        "ApiFunction: init failed: Error: TABLE_NAME is not set",
      );
    } finally {
      await endpoints.close();
      await dynalite.close();
    }
  });
});
