// The first check, on the bundles as the cloud assembly holds them: the handler file is there,
// every environment variable the bundle reads is set by the template (or by the Lambda runtime,
// or has a default), and the files the code opens beside itself (WASM, the PDF fonts) are there.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PASSPORT_FONTS } from "@server/export/formats";
import { WASM_FILES } from "../../infra/lib/stack";
import type { FunctionPlan } from "./template";

/** Read by the bundles and fine unset: library switches and the app's optional settings. */
export const OPTIONAL_ENV: Record<string, string> = {
  GUARDANT_CODE: "the Guardant code comes from the app secret in AWS",
  SETTLE_SECONDS: "the reconciliation's pause has a default",
  NODE_DEBUG: "Node's debug switch (bundled readable-stream)",
  READABLE_STREAM: "bundled readable-stream's switch",
  GRACEFUL_FS_PLATFORM: "bundled graceful-fs's test switch",
  TEST_GRACEFUL_FS_GLOBAL_PATCH: "bundled graceful-fs's test switch",
};

/** AWS_* is set by the Lambda runtime (region, credentials, function name) or read by the SDK with a default. */
const fromRuntime = (name: string) => name.startsWith("AWS_") || name === "LAMBDA_TASK_ROOT" || name === "TZ";

export function handlerPath(plan: FunctionPlan): string | undefined {
  return [".mjs", ".js", ".cjs"].map((ext) => join(plan.bundleDir, plan.handlerFile + ext)).find((p) => existsSync(p));
}

/** Problems of one function's bundle, each naming the function and what is missing. */
export function bundleProblems(plan: FunctionPlan): string[] {
  const problems: string[] = [];
  const handler = handlerPath(plan);
  if (!handler) return [`${plan.name}: handler file ${plan.handlerFile}.mjs is not in its bundle`];
  const code = readFileSync(handler, "utf8");
  if (
    !new RegExp(
      `export\\s*\\{[^}]*\\bas ${plan.handlerExport}\\b|export\\s*\\{[^}]*\\b${plan.handlerExport}\\b[^}]*\\}|export (const|function|let) ${plan.handlerExport}\\b`,
    ).test(code)
  ) {
    problems.push(`${plan.name}: the bundle exports no ${plan.handlerExport}`);
  }
  const read = new Set([...code.matchAll(/process\.env(?:\.([A-Za-z_]\w*)|\[["']([A-Za-z_]\w*)["']\])/g)].map((m) => m[1] ?? m[2]));
  for (const name of [...read].sort()) {
    if (!(name in plan.env) && !fromRuntime(name) && !(name in OPTIONAL_ENV)) {
      problems.push(`${plan.name}: the bundle reads environment variable ${name}, which the template does not set`);
    }
  }
  // The WASM loader (wasm-core/src/wasm-file.ts) looks for <name>.wasm beside the bundle.
  if (code.includes("npm run build:wasm")) {
    for (const file of WASM_FILES) {
      const base = file.replace(/\.wasm$/, "");
      if ((code.includes(`"${base}"`) || code.includes(file)) && !existsSync(join(plan.bundleDir, file))) {
        problems.push(`${plan.name}: the bundle loads ${file}, which is not in its bundle`);
      }
    }
  }
  if (code.includes(PASSPORT_FONTS.regular)) {
    for (const font of [PASSPORT_FONTS.regular, PASSPORT_FONTS.bold]) {
      if (!existsSync(join(plan.bundleDir, PASSPORT_FONTS.dir, font)))
        problems.push(`${plan.name}: font ${PASSPORT_FONTS.dir}/${font} is not in its bundle`);
    }
  }
  return problems;
}
