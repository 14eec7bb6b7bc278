// The prod stack synthesized in this process (as `npx cdk synth -c stage=prod` does: offline,
// esbuild bundles on this machine) into a temporary cloud assembly.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { App } from "aws-cdk-lib";
import { AppStack, REPO_ROOT } from "../../infra/lib/stack";

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

/** `builtinCloudFormationValidation: false` leaves out CDK's check of the template against the
 *  CloudFormation schemas (tests/infra/stack.test.ts runs it, failing on any finding). */
export function synthesizeProd(
  outdir = mkdtempSync(join(tmpdir(), "rehearsal-cdk-")),
  { builtinCloudFormationValidation = true } = {},
): Synthesized {
  const app = new App({ outdir, builtinCloudFormationValidation });
  const stack = new AppStack(app, "Rehearsal-prod", { stage: "prod" });
  const artifact = app.synth().getStackByName(stack.stackName);
  return { template: JSON.parse(readFileSync(join(outdir, artifact.templateFile), "utf8")) as Template, outdir };
}

/** What goes into the stack's template and bundles. */
const SOURCES = ["infra", "functions/src", "wasm-core/src", "wasm-core/build", "package-lock.json"];

function sourcesHash(): string {
  const hash = createHash("sha256");
  const add = (path: string) => {
    const full = join(REPO_ROOT, path);
    if (!existsSync(full)) return;
    for (const entry of readdirSync(full, { withFileTypes: true, recursive: true }).sort((a, b) =>
      join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)),
    )) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      hash.update(relative(REPO_ROOT, file)).update("\0").update(readFileSync(file)).update("\0");
    }
  };
  for (const path of SOURCES) {
    if (path.endsWith(".json")) hash.update(path).update(readFileSync(join(REPO_ROOT, path)));
    else add(path);
  }
  return hash.digest("hex").slice(0, 16);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The prod stack bundled once per test run, shared by the files that read or run its bundles (the
 *  stack test, the deploy rehearsal): kept under the run's temporary folder, named by a hash of its
 *  sources, so a source changed while the suite runs gets a synthesis of its own. The first worker to
 *  ask synthesizes; another asking meanwhile waits for it. Outside a test run: a fresh synthesis. */
export async function prodAssembly(): Promise<Synthesized> {
  const root = process.env.TEST_TEMP_ROOT;
  if (!root) return synthesizeProd();
  const outdir = join(root, `cdk-prod-${sourcesHash()}`);
  const done = join(outdir, "synthesized.json");
  const lock = `${outdir}.lock`;
  for (;;) {
    if (existsSync(done)) return { template: JSON.parse(readFileSync(done, "utf8")) as Template, outdir };
    try {
      mkdirSync(lock);
    } catch {
      // Another worker synthesizes; one that died leaves its lock to be taken over.
      let owner = 0;
      try {
        owner = Number(readFileSync(join(lock, "pid"), "utf8"));
      } catch {
        // Its pid not written yet, or the lock just gone.
      }
      if (owner && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      await sleep(250);
      continue;
    }
    try {
      writeFileSync(join(lock, "pid"), String(process.pid));
      rmSync(outdir, { recursive: true, force: true });
      const synthesized = synthesizeProd(outdir, { builtinCloudFormationValidation: false });
      writeFileSync(done, JSON.stringify(synthesized.template));
      return synthesized;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
