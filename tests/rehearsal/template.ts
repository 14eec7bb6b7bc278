// What the synthesized template gives each application function, resolved to the local names the
// rehearsal uses: its bundle folder in the cloud assembly, handler, runtime, environment (Refs and
// GetAtts of the table, buckets, secrets and functions turned into names and ARNs as AWS forms
// them) and the IAM statements of its role.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Resource, Template } from "./synth";

export const REGION = "eu-central-1";
export const ACCOUNT = "123456789012";

export interface Statement {
  Effect: "Allow" | "Deny";
  Action: string[];
  Resource: string[];
  /** Where it comes from, for messages: the policy's logical id. */
  policy: string;
}

export interface FunctionPlan {
  id: string;
  /** The logical id without CDK's hash suffix, e.g. ApiFunction. */
  name: string;
  bundleDir: string;
  handlerFile: string;
  handlerExport: string;
  runtimeMajor: number;
  env: Record<string, string>;
  statements: Statement[];
  arn: string;
}

/** The name a resource gets locally: its logical id without the hash, lowercased for buckets and tables (S3 wants that). */
function localName(id: string, r: Resource): string {
  const short = id.replace(/[0-9A-F]{8}$/, "");
  switch (r.Type) {
    case "AWS::S3::Bucket":
      return `rehearsal-${short.toLowerCase()}`;
    case "AWS::DynamoDB::Table":
      return `Rehearsal-${short}`;
    default:
      return short;
  }
}

function arnOf(id: string, r: Resource): string {
  const name = localName(id, r);
  switch (r.Type) {
    case "AWS::S3::Bucket":
      return `arn:aws:s3:::${name}`;
    case "AWS::DynamoDB::Table":
      return `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`;
    case "AWS::Lambda::Function":
      return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${name}`;
    case "AWS::SecretsManager::Secret":
      // Secrets Manager appends six random characters to the name.
      return `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${name}-AbCdEf`;
    case "AWS::Logs::LogGroup":
      return `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${name}:*`;
    case "AWS::IAM::Role":
      return `arn:aws:iam::${ACCOUNT}:role/${name}`;
    default:
      return `arn:aws:unknown:${REGION}:${ACCOUNT}:${name}`;
  }
}

/** A template value with Ref, Fn::GetAtt, Fn::Join and Fn::Sub (of pseudo parameters) resolved. */
export function resolve(template: Template, value: unknown): string {
  if (typeof value === "string") return value;
  const v = value as Record<string, any>;
  if (v.Ref !== undefined) {
    const pseudo: Record<string, string> = {
      "AWS::Region": REGION,
      "AWS::AccountId": ACCOUNT,
      "AWS::Partition": "aws",
      "AWS::URLSuffix": "amazonaws.com",
    };
    if (pseudo[v.Ref]) return pseudo[v.Ref];
    const r = template.Resources[v.Ref];
    if (!r) throw new Error(`Ref to unknown resource ${v.Ref}`);
    // Ref of a secret is its ARN; of a table, bucket, function or log group its name.
    return r.Type === "AWS::SecretsManager::Secret" ? arnOf(v.Ref, r) : localName(v.Ref, r);
  }
  if (v["Fn::GetAtt"]) {
    const [id, attribute] = v["Fn::GetAtt"] as [string, string];
    const r = template.Resources[id];
    if (!r) throw new Error(`GetAtt of unknown resource ${id}`);
    if (attribute === "Arn") return arnOf(id, r);
    if (attribute === "StreamArn") return `${arnOf(id, r)}/stream/2026-01-01T00:00:00.000`;
    throw new Error(`GetAtt ${id}.${attribute} is not resolved by the rehearsal`);
  }
  if (v["Fn::Join"]) {
    const [separator, parts] = v["Fn::Join"] as [string, unknown[]];
    return parts.map((part) => resolve(template, part)).join(separator);
  }
  if (v["Fn::Sub"] && typeof v["Fn::Sub"] === "string") {
    return (v["Fn::Sub"] as string).replace(/\$\{([^}]+)\}/g, (_, name: string) => resolve(template, { Ref: name }));
  }
  throw new Error(`template value not resolved by the rehearsal: ${JSON.stringify(value)}`);
}

const list = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

function roleStatements(template: Template, roleId: string): Statement[] {
  const out: Statement[] = [];
  const add = (policy: string, document: { Statement: any[] }) => {
    for (const s of document.Statement) {
      out.push({ Effect: s.Effect, Action: list(s.Action), Resource: list(s.Resource).map((r) => resolve(template, r)), policy });
    }
  };
  const role = template.Resources[roleId];
  for (const p of role.Properties.Policies ?? []) add(`${roleId}/${p.PolicyName}`, p.PolicyDocument);
  for (const [id, r] of Object.entries(template.Resources)) {
    if (r.Type === "AWS::IAM::Policy" && list(r.Properties.Roles).some((x: any) => x.Ref === roleId)) add(id, r.Properties.PolicyDocument);
  }
  if (role.Properties.ManagedPolicyArns?.length) {
    throw new Error(
      `${roleId} has managed policies, which the rehearsal cannot read: ${JSON.stringify(role.Properties.ManagedPolicyArns)}`,
    );
  }
  return out;
}

/** The application's functions: those whose code is a bundle of the cloud assembly (not CDK's own handlers). */
export function functionPlans(template: Template, outdir: string): FunctionPlan[] {
  const plans: FunctionPlan[] = [];
  for (const [id, r] of Object.entries(template.Resources)) {
    if (r.Type !== "AWS::Lambda::Function") continue;
    const name = localName(id, r);
    if (!name.endsWith("Function") || name.startsWith("AWS") || !r.Properties.Code?.S3Key) continue;
    const hash = resolve(template, r.Properties.Code.S3Key).replace(/\.zip$/, "");
    const bundleDir = join(outdir, `asset.${hash}`);
    if (!existsSync(bundleDir)) throw new Error(`${name}: no asset folder ${bundleDir} for its Code`);
    const [file, handlerExport] = (r.Properties.Handler as string).split(".");
    const runtime = /^nodejs(\d+)\.x$/.exec(r.Properties.Runtime);
    if (!runtime) throw new Error(`${name}: runtime ${r.Properties.Runtime} is not Node.js`);
    const env = Object.fromEntries(
      Object.entries((r.Properties.Environment?.Variables ?? {}) as Record<string, unknown>).map(([k, v]) => [k, resolve(template, v)]),
    );
    const roleId = r.Properties.Role["Fn::GetAtt"][0] as string;
    plans.push({
      id,
      name,
      bundleDir,
      handlerFile: file,
      handlerExport,
      runtimeMajor: Number(runtime[1]),
      env,
      statements: roleStatements(template, roleId),
      arn: arnOf(id, r),
    });
  }
  return plans;
}

/** Buckets and the table by their local names. */
export function resourcesOf(template: Template, type: string): { id: string; name: string; resource: Resource }[] {
  return Object.entries(template.Resources)
    .filter(([, r]) => r.Type === type)
    .map(([id, r]) => ({ id, name: localName(id, r), resource: r }));
}

export function secretArns(template: Template): { id: string; arn: string }[] {
  return resourcesOf(template, "AWS::SecretsManager::Secret").map(({ id, resource }) => ({ id, arn: arnOf(id, resource) }));
}
