// The prod stack synthesized in this process (as `npx cdk synth -c stage=prod` does: offline,
// esbuild bundles on this machine) into a temporary cloud assembly.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App } from "aws-cdk-lib";
import { AppStack } from "../../infra/lib/stack";

export type Template = { Resources: Record<string, Resource> };
export interface Resource {
  Type: string;
  Properties: Record<string, any>;
}

export interface Synthesized {
  template: Template;
  /** The cloud assembly folder: the template and the functions' bundles (asset.<hash>/). */
  outdir: string;
}

export function synthesizeProd(): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), "rehearsal-cdk-"));
  const app = new App({ outdir });
  const stack = new AppStack(app, "Rehearsal-prod", { stage: "prod" });
  const artifact = app.synth().getStackByName(stack.stackName);
  return { template: JSON.parse(readFileSync(join(outdir, artifact.templateFile), "utf8")) as Template, outdir };
}
