import { App, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { mkdtempSync, readdirSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppStack } from "./infra/lib/stack";
const stage = (process.argv[2] ?? "prod") as "prod" | "dev";
const outdir = mkdtempSync(join(tmpdir(), "nag-"));
const app = new App({ outdir });
new AppStack(app, `Nag-${stage}`, { stage, webDist: "/nonexistent" });
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
try { app.synth(); console.log("synth ok"); } catch (e) { console.log("synth threw", String(e).slice(0, 3000)); }
console.log(readdirSync(outdir));
const f = join(outdir, "policy-validation-report.json");
if (existsSync(f)) console.log(readFileSync(f, "utf8").slice(0, 6000));
