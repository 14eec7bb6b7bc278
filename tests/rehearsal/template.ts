// What the synthesized template gives each application function, resolved to the local names the
// rehearsal uses: its bundle folder in the cloud assembly, handler, runtime, environment (Refs and
// GetAtts of the table, buckets, secrets and functions turned into names and ARNs as AWS forms
// them) and the IAM statements of its role.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Resource, Template } from "./synth";

export const REGION = "eu-central-1";
export const ACCOUNT = "123456789012";
export const CLOUDFRONT_DOMAIN = "d111111abcdef8.cloudfront.net";

/** One statement of a function's role as the template writes it, its Resource resolved to local ARNs. */
export interface Statement {
  Effect: "Allow" | "Deny";
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, unknown>;
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
  roleArn: string;
  /** The log group the runtime writes the function's logs to (its LoggingConfig), if the template names one. */
  logGroup?: string;
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
    // The distribution's domain, as the browser's Origin names it.
    if (attribute === "DomainName" && r.Type === "AWS::CloudFront::Distribution") return CLOUDFRONT_DOMAIN;
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
    for (const { Sid: _sid, Resource, NotResource, ...s } of document.Statement) {
      out.push({
        ...s,
        ...(Resource === undefined ? {} : { Resource: list(Resource).map((r) => resolve(template, r)) }),
        ...(NotResource === undefined ? {} : { NotResource: list(NotResource).map((r) => resolve(template, r)) }),
        policy,
      });
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
    const logGroup = r.Properties.LoggingConfig?.LogGroup;
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
      roleArn: arnOf(roleId, template.Resources[roleId]),
      logGroup: logGroup === undefined ? undefined : resolve(template, logGroup),
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

/** The function a Ref or ARN names, by its local name. */
const functionNamed = (template: Template, value: unknown) => resolve(template, value).split(":").at(-1)!;

/** Each table's key attributes and stream view type (what the stream's records carry). */
export function tableShapes(template: Template): Record<string, { keys: string[]; viewType?: string }> {
  return Object.fromEntries(
    resourcesOf(template, "AWS::DynamoDB::Table").map(({ name, resource }) => [
      name,
      {
        keys: (resource.Properties.KeySchema as { AttributeName: string }[]).map((k) => k.AttributeName),
        viewType: resource.Properties.StreamSpecification?.StreamViewType,
      },
    ]),
  );
}

interface CorsRule {
  AllowedOrigins: string[];
  AllowedMethods: string[];
  AllowedHeaders?: string[];
  ExposedHeaders?: string[];
  ExposeHeaders?: string[];
  MaxAge?: number;
  MaxAgeSeconds?: number;
}

/** A bucket's CORS rules as S3's PutBucketCors XML. */
function corsXml(rules: CorsRule[]): string {
  const tags = (tag: string, values: string[] | undefined) => (values ?? []).map((v) => `<${tag}>${v}</${tag}>`).join("");
  const body = rules
    .map((r) => {
      const maxAge = r.MaxAgeSeconds ?? r.MaxAge;
      return `<CORSRule>${tags("AllowedOrigin", r.AllowedOrigins)}${tags("AllowedMethod", r.AllowedMethods)}${tags("AllowedHeader", r.AllowedHeaders)}${tags("ExposeHeader", r.ExposeHeaders ?? r.ExposedHeaders)}${maxAge === undefined ? "" : `<MaxAgeSeconds>${maxAge}</MaxAgeSeconds>`}</CORSRule>`;
    })
    .join("");
  return `<CORSConfiguration>${body}</CORSConfiguration>`;
}

/** The buckets with their CORS: the bucket's own CorsConfiguration, or the putBucketCors call of a
 *  custom resource (the stack sets the documents bucket's CORS once the distribution's domain is known). */
export function bucketConfigs(template: Template): { name: string; corsXml?: string }[] {
  const cors = new Map<string, CorsRule[]>();
  for (const r of Object.values(template.Resources)) {
    if (!r.Type.startsWith("Custom::") || r.Properties.Create === undefined) continue;
    const call = JSON.parse(resolve(template, r.Properties.Create));
    if (call.service === "S3" && call.action === "putBucketCors") {
      cors.set(call.parameters.Bucket, call.parameters.CORSConfiguration.CORSRules);
    }
  }
  return resourcesOf(template, "AWS::S3::Bucket").map(({ name, resource }) => {
    const rules = resource.Properties.CorsConfiguration?.CorsRules ?? cors.get(name);
    return { name, ...(rules ? { corsXml: corsXml(rules) } : {}) };
  });
}

export interface Notification {
  bucket: string;
  /** S3 event patterns, e.g. s3:ObjectCreated:*. */
  events: string[];
  prefix: string;
  suffix: string;
  functionName: string;
}

/** The buckets' Lambda notifications (CDK's Custom::S3BucketNotifications). */
export function notifications(template: Template): Notification[] {
  return resourcesOf(template, "Custom::S3BucketNotifications").flatMap(({ resource }) =>
    (resource.Properties.NotificationConfiguration.LambdaFunctionConfigurations ?? []).map((c: any) => {
      const rules = (c.Filter?.Key?.FilterRules ?? []) as { Name: string; Value: string }[];
      const rule = (name: string) => rules.find((r) => r.Name.toLowerCase() === name)?.Value ?? "";
      return {
        bucket: resolve(template, resource.Properties.BucketName),
        events: c.Events,
        prefix: rule("prefix"),
        suffix: rule("suffix"),
        functionName: functionNamed(template, c.LambdaFunctionArn),
      };
    }),
  );
}

export interface StreamMapping {
  functionName: string;
  table: string;
  batchSize: number;
}

/** The event source mappings that feed a function from a table's stream. */
export function streamMappings(template: Template): StreamMapping[] {
  return resourcesOf(template, "AWS::Lambda::EventSourceMapping").flatMap(({ resource }) => {
    const source = resource.Properties.EventSourceArn;
    if (source?.["Fn::GetAtt"]?.[1] !== "StreamArn") return [];
    const tableId = source["Fn::GetAtt"][0] as string;
    return [
      {
        functionName: functionNamed(template, resource.Properties.FunctionName),
        table: localName(tableId, template.Resources[tableId]),
        // DynamoDB streams' default batch size.
        batchSize: resource.Properties.BatchSize ?? 100,
      },
    ];
  });
}

/** The scheduled functions: each EventBridge rule with a schedule and its Lambda targets. */
export function schedules(template: Template): { rule: string; ruleArn: string; functionName: string }[] {
  return resourcesOf(template, "AWS::Events::Rule").flatMap(({ name, resource }) =>
    resource.Properties.ScheduleExpression
      ? (resource.Properties.Targets as { Arn: unknown }[]).map((t) => ({
          rule: name,
          ruleArn: `arn:aws:events:${REGION}:${ACCOUNT}:rule/${name}`,
          functionName: functionNamed(template, t.Arn),
        }))
      : [],
  );
}

/** The event EventBridge sends a scheduled function when its rule fires now. */
export function scheduledEvent(schedule: { ruleArn: string }) {
  return {
    version: "0",
    id: randomUUID(),
    "detail-type": "Scheduled Event",
    source: "aws.events",
    account: ACCOUNT,
    time: new Date().toISOString(),
    region: REGION,
    resources: [schedule.ruleArn],
    detail: {},
  };
}

/** The functions an SQS queue feeds (an event source mapping of a queue), with the queue's name. */
export function queueConsumers(template: Template): { queue: string; functionName: string }[] {
  return resourcesOf(template, "AWS::Lambda::EventSourceMapping").flatMap(({ resource }) => {
    const source = resource.Properties.EventSourceArn?.["Fn::GetAtt"] as [string, string] | undefined;
    if (!source || template.Resources[source[0]]?.Type !== "AWS::SQS::Queue") return [];
    return [{ queue: source[0], functionName: functionNamed(template, resource.Properties.FunctionName) }];
  });
}

/** The HTTP API's routes and the functions their integrations call. */
export function apiRoutes(template: Template): { routeKey: string; functionName: string; payloadFormat: string; authorization: string }[] {
  return resourcesOf(template, "AWS::ApiGatewayV2::Route").map(({ resource }) => {
    const integrationId = (resource.Properties.Target["Fn::Join"][1] as unknown[]).map((p: any) => p.Ref).find(Boolean) as string;
    const integration = template.Resources[integrationId].Properties;
    return {
      routeKey: resource.Properties.RouteKey,
      functionName: functionNamed(template, integration.IntegrationUri),
      payloadFormat: integration.PayloadFormatVersion,
      authorization: resource.Properties.AuthorizationType ?? "NONE",
    };
  });
}

/** The headers CloudFront adds to requests for the API origin: name and the secret ARN of a
 *  `{{resolve:secretsmanager:…}}` value, or the value itself. */
export function apiOriginHeaders(template: Template): { name: string; value?: string; secretArn?: string }[] {
  return resourcesOf(template, "AWS::CloudFront::Distribution").flatMap(({ resource }) =>
    (resource.Properties.DistributionConfig.Origins as any[])
      .filter((o) => o.CustomOriginConfig && o.OriginCustomHeaders)
      .flatMap((o) =>
        (o.OriginCustomHeaders as { HeaderName: string; HeaderValue: unknown }[]).map((h) => {
          const value = resolve(template, h.HeaderValue);
          const secret = /^\{\{resolve:secretsmanager:(.+?):SecretString:/.exec(value);
          return secret ? { name: h.HeaderName, secretArn: secret[1] } : { name: h.HeaderName, value };
        }),
      ),
  );
}
