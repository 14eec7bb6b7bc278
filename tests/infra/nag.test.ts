// cdk-nag's AwsSolutions rules over the stacks as they deploy: dev with the web app, prod
// without, and prod with its own domain and WAF. Synthesis fails on any finding that is not
// acknowledged; each acknowledgement sits next to its construct in infra/lib/stack.ts with a
// reason, and the fixes the rules asked for are checked here too.
import { mkdtempSync, writeFileSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, Validations } from "aws-cdk-lib";
import { BUNDLING_STACKS } from "aws-cdk-lib/cx-api";
import { Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { beforeAll, describe, expect, it } from "vitest";
import { AppStack, type AppStackProps } from "../../infra/lib/stack";

interface Checked {
  stack: AppStack;
  template: Template;
  /** The report of findings, when synthesis failed on them. */
  failure?: string;
}

function synthWithNag(id: string, props: AppStackProps): Checked {
  const outdir = mkdtempSync(join(tmpdir(), `nag-${id}-`));
  // The rules read the template only: the functions' code is not bundled (as `cdk synth
  // --exclusively` does for stacks it leaves out), which spares four syntheses esbuild's work.
  // CDK's own check against the CloudFormation schemas runs in tests/infra/stack.test.ts.
  const app = new App({ outdir, context: { [BUNDLING_STACKS]: [] }, builtinCloudFormationValidation: false });
  const stack = new AppStack(app, id, props);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  let failure: string | undefined;
  try {
    app.synth();
  } catch (error) {
    const report = join(outdir, "validation-report.json");
    failure = existsSync(report) ? readFileSync(report, "utf8") : String(error);
  }
  return { stack, template: Template.fromJSON(readTemplate(outdir, id)), failure };
}

function readTemplate(outdir: string, id: string) {
  return JSON.parse(readFileSync(join(outdir, `${id}.template.json`), "utf8"));
}

/** The unacknowledged findings of a failed synthesis, one line each (empty when it passed). */
function findings(checked: Checked): string[] {
  if (!checked.failure) return [];
  try {
    const report = JSON.parse(checked.failure) as {
      pluginReports?: { violations?: { ruleName: string; description: string; violatingConstructs?: { constructPath?: string }[] }[] }[];
    };
    return (report.pluginReports ?? []).flatMap((plugin) =>
      (plugin.violations ?? []).flatMap((v) =>
        (v.violatingConstructs ?? [{}]).map((c) => `${v.ruleName} ${c.constructPath ?? ""}: ${v.description}`),
      ),
    );
  } catch {
    return [checked.failure];
  }
}

const DOMAIN = {
  name: "co2.example.ru",
  certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555",
};
let dev: Checked;
let prod: Checked;
let prodWithDomain: Checked;

beforeAll(() => {
  const webDist = mkdtempSync(join(tmpdir(), "web-dist-"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>test</title>");
  dev = synthWithNag("NagDev", { stage: "dev", webDist });
  prod = synthWithNag("NagProd", { stage: "prod", webDist: join(webDist, "missing") });
  prodWithDomain = synthWithNag("NagProdDomain", {
    stage: "prod",
    webDist,
    domain: DOMAIN,
    waf: true,
    env: { account: "123456789012", region: "us-east-1" },
  });
}, 240_000);

describe("cdk-nag AwsSolutions", () => {
  it("finds nothing unacknowledged in dev, prod, and prod with a domain and WAF", () => {
    expect(findings(dev)).toEqual([]);
    expect(findings(prod)).toEqual([]);
    expect(findings(prodWithDomain)).toEqual([]);
  });

  it("gives every acknowledgement a reason a reviewer can read", () => {
    for (const { stack } of [dev, prod, prodWithDomain]) {
      const acknowledged = stack.node
        .findAll()
        .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
        .flatMap((m) => Object.entries(m.data as Record<string, string>))
        .filter(([rule]) => rule.startsWith("AwsSolutions::"));
      expect(acknowledged.length).toBeGreaterThan(0);
      for (const [rule, reason] of acknowledged) expect(reason.length, rule).toBeGreaterThan(40);
    }
  });

  it("does not acknowledge what a domain and WAF fix", () => {
    const rules = (c: Checked) =>
      c.stack.node
        .findAll()
        .flatMap((x) => x.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
        .flatMap((m) => Object.keys(m.data as object));
    expect(rules(prod)).toEqual(expect.arrayContaining(["AwsSolutions::AwsSolutions-CFR4", "AwsSolutions::AwsSolutions-CFR2"]));
    expect(rules(prodWithDomain)).not.toContain("AwsSolutions::AwsSolutions-CFR4");
    expect(rules(prodWithDomain)).not.toContain("AwsSolutions::AwsSolutions-CFR2");
  });
});

describe("what the review asked for", () => {
  it("logs the buckets' access to a log bucket that expires them", () => {
    const buckets = prod.template.findResources("AWS::S3::Bucket");
    const logBucketId = Object.keys(buckets).find((id) => id.startsWith("LogBucket"))!;
    expect(buckets[logBucketId].Properties.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([expect.objectContaining({ ExpirationInDays: 90, Status: "Enabled" })]),
    );
    const others = Object.entries(buckets).filter(([id]) => id !== logBucketId);
    expect(others).toHaveLength(4);
    for (const [id, b] of others) {
      expect(b.Properties.LoggingConfiguration, id).toEqual({
        DestinationBucketName: { Ref: logBucketId },
        LogFilePrefix: expect.stringMatching(/^s3\//),
      });
    }
  });

  it("logs CloudFront and the HTTP API (JSON, no headers or bodies)", () => {
    prod.template.hasResourceProperties("AWS::CloudFront::Distribution", {
      DistributionConfig: Match.objectLike({ Logging: Match.objectLike({ Prefix: "cloudfront/" }) }),
    });
    const [stage] = Object.values(prod.template.findResources("AWS::ApiGatewayV2::Stage"));
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({ requestId: "$context.requestId", status: "$context.status", path: "$context.path" });
    expect(JSON.stringify(format)).not.toMatch(/header|authorization|body/i);
  });

  it("enforces TLS on the alarm topic", () => {
    const policies = Object.values(prod.template.findResources("AWS::SNS::TopicPolicy"));
    expect(JSON.stringify(policies)).toMatch(/aws:SecureTransport/);
  });

  it("runs our functions on Node 24 with roles of their own and no AWS-managed policy", () => {
    const functions = Object.entries(prod.template.findResources("AWS::Lambda::Function")).filter(([id]) =>
      /^(Api|UploadCheck|StreamAudit|Spreadsheet)Function[0-9A-F]{8}$/.test(id),
    );
    expect(functions).toHaveLength(4);
    const roles = prod.template.findResources("AWS::IAM::Role");
    for (const [id, fn] of functions) {
      expect(fn.Properties.Runtime, id).toBe("nodejs24.x");
      const role = roles[fn.Properties.Role["Fn::GetAtt"][0]];
      expect(role.Properties.ManagedPolicyArns, id).toBeUndefined();
    }
  });

  it("names the table's index instead of index/*", () => {
    const policies = JSON.stringify(prod.template.findResources("AWS::IAM::Policy"));
    expect(policies).not.toMatch(/\/index\/\*/);
    expect(policies).toMatch(/\/index\/GSI1/);
  });

  it("serves its own domain with TLS 1.2 and lets it use the documents bucket", () => {
    prodWithDomain.template.hasResourceProperties("AWS::CloudFront::Distribution", {
      DistributionConfig: Match.objectLike({
        Aliases: [DOMAIN.name],
        ViewerCertificate: {
          AcmCertificateArn: DOMAIN.certificateArn,
          MinimumProtocolVersion: "TLSv1.2_2021",
          SslSupportMethod: "sni-only",
        },
      }),
    });
    const cors = JSON.stringify(prodWithDomain.template.findResources("Custom::DocumentsBucketCors"));
    expect(cors).toContain(`https://${DOMAIN.name}`);
    const outputs = prodWithDomain.template.findOutputs("SiteUrl");
    expect(Object.values(outputs)[0].Value).toBe(`https://${DOMAIN.name}`);
  });

  it("attaches a WAF web ACL with the managed rules and a sign-in rate limit when asked", () => {
    expect(Object.keys(prod.template.findResources("AWS::WAFv2::WebACL"))).toHaveLength(0);
    const [acl] = Object.values(prodWithDomain.template.findResources("AWS::WAFv2::WebACL"));
    expect(acl.Properties.Scope).toBe("CLOUDFRONT");
    const rules = acl.Properties.Rules as { Name: string; Statement: Record<string, any> }[];
    expect(rules.map((r) => r.Name)).toEqual(["AWSManagedRulesCommonRuleSet", "AWSManagedRulesKnownBadInputsRuleSet", "SignInRateLimit"]);
    const rate = rules[2].Statement.RateBasedStatement;
    expect(rate.AggregateKeyType).toBe("IP");
    expect(JSON.stringify(rate.ScopeDownStatement)).toContain("/api/token");
    // Blocked as the API's own throttle answers: 429 with Retry-After and a JSON detail.
    const blocked = (rules[2] as unknown as { Action: { Block: { CustomResponse: Record<string, any> } } }).Action.Block.CustomResponse;
    expect(blocked).toEqual({
      ResponseCode: 429,
      CustomResponseBodyKey: "TooManySignIns",
      ResponseHeaders: [{ Name: "Retry-After", Value: "300" }],
    });
    const body = acl.Properties.CustomResponseBodies.TooManySignIns;
    expect(body.ContentType).toBe("APPLICATION_JSON");
    expect(JSON.parse(body.Content)).toEqual({ detail: expect.stringMatching(/^Слишком много попыток входа/) });
    prodWithDomain.template.hasResourceProperties("AWS::CloudFront::Distribution", {
      DistributionConfig: Match.objectLike({ WebACLId: Match.anyValue() }),
    });
  });

  it("refuses WAF outside us-east-1, where CloudFront web ACLs cannot be", () => {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), "nag-waf-")), context: { [BUNDLING_STACKS]: [] } });
    expect(
      () =>
        new AppStack(app, "WafElsewhere", {
          stage: "prod",
          webDist: "/missing",
          waf: true,
          env: { account: "123456789012", region: "eu-central-1" },
        }),
    ).toThrow(/us-east-1/);
  });
});
