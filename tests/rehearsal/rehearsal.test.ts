// The deploy rehearsal in the infra tier: the prod stack's bundles run on Node 24 against local
// endpoints and pass; a role missing an action or a function missing a variable fails it by name.
import { beforeAll, describe, expect, it } from "vitest";
import { rehearse, type RehearsalResult } from "./rehearse";
import { type Synthesized, synthesizeProd, type Template } from "./synth";
import { checkCalls } from "./iam";
import { bundleProblems } from "./checks";
import { functionPlans } from "./template";

let synth: Synthesized;
let result: RehearsalResult;

beforeAll(async () => {
  synth = synthesizeProd();
  result = await rehearse(synth);
}, 180_000);

const apiOf = (template: Template) =>
  Object.entries(template.Resources).find(([id, r]) => r.Type === "AWS::Lambda::Function" && id.startsWith("ApiFunction"))!;

describe("deploy rehearsal", () => {
  it("passes: bundles complete, the API answers as the local host does, every call allowed", () => {
    expect(result.problems).toEqual([]);
    expect(result.walk.map((w) => [w.step, w.lambda])).toEqual([
      ["a request that bypasses CloudFront", 403],
      ["sign-in", 200],
      ["create a project", 201],
      ["create a calculation", 201],
      ["list the projects", 200],
      ["get the inventory", 200],
    ]);
    expect(result.calls.some((c) => c.action === "secretsmanager:GetSecretValue")).toBe(true);
    expect(result.calls.some((c) => c.action === "dynamodb:Query" && c.resource.endsWith("/index/GSI1"))).toBe(true);
  });

  it("fails naming the action when a role lacks one the function calls", () => {
    const template = structuredClone(synth.template);
    for (const r of Object.values(template.Resources)) {
      if (r.Type !== "AWS::IAM::Policy") continue;
      for (const s of r.Properties.PolicyDocument.Statement) {
        if (Array.isArray(s.Action)) s.Action = s.Action.filter((a: string) => a !== "dynamodb:Query");
      }
    }
    const { denied } = checkCalls(functionPlans(template, synth.outdir), result.calls);
    expect(denied.length).toBeGreaterThan(0);
    expect(denied[0]).toMatch(/^ApiFunction: dynamodb:Query on arn:aws:dynamodb:.*:table\/.* is denied/);
  });

  it("fails naming the variable when the template stops setting one the bundle reads", () => {
    const template = structuredClone(synth.template);
    delete apiOf(template)[1].Properties.Environment.Variables.ORIGIN_VERIFY_SECRET_ARN;
    const api = functionPlans(template, synth.outdir).find((p) => p.name === "ApiFunction")!;
    expect(bundleProblems(api)).toEqual([
      "ApiFunction: the bundle reads environment variable ORIGIN_VERIFY_SECRET_ARN, which the template does not set",
    ]);
  });

  it("fails naming the variable the function needs at init", async () => {
    const template = structuredClone(synth.template);
    delete apiOf(template)[1].Properties.Environment.Variables.TABLE_NAME;
    const broken = await rehearse({ template, outdir: synth.outdir });
    expect(broken.problems.join("\n")).toContain("ApiFunction: init failed: Error: TABLE_NAME is not set");
  }, 60_000);
});
