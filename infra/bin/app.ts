// The CDK app: one stack per stage, `npx cdk synth|deploy|destroy -c stage=dev|prod` (default dev).
// Synth needs no network and no Docker: esbuild bundles the functions on this machine.
import { App } from "aws-cdk-lib";
import { AppStack } from "../lib/stack";
import { stageFrom } from "../lib/stage";

const app = new App();
const stage = stageFrom(app.node.tryGetContext("stage"));
const alarmEmail = app.node.tryGetContext("alarmEmail") as string | undefined;
const domainName = app.node.tryGetContext("domainName") as string | undefined;
const certificateArn = app.node.tryGetContext("certificateArn") as string | undefined;
if (Boolean(domainName) !== Boolean(certificateArn)) {
  throw new Error("-c domainName=… and -c certificateArn=… (an ACM certificate in us-east-1) go together");
}

new AppStack(app, `FugitiveEmissions-${stage}`, {
  stage,
  alarmEmail,
  domain: domainName && certificateArn ? { name: domainName, certificateArn } : undefined,
  waf: String(app.node.tryGetContext("waf") ?? "false") === "true",
  // Unset without credentials: the stack is then environment-agnostic, which synth allows.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: `Fugitive emissions platform (${stage})`,
  tags: { project: "fugitive-emissions", stage },
});
