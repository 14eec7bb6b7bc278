// Vitest global setup of the integration and browser tiers: a program a tier drives that is not
// installed fails the tier at once with the command that installs it, instead of skipping its tests
// (tests/prerequisites.sh, run by `npm test`, installs them where it can).
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { CHROMIUM_PATH } from "./browser";
import { LIBREOFFICE } from "./libreoffice";
import { hasXGBoost } from "./python-xgboost";

const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

export function missingPrograms(tier: string): string[] {
  const missing: string[] = [];
  if (tier === "e2e" && !existsSync(CHROMIUM_PATH)) missing.push("chromium");
  if (tier === "integration") {
    if (!LIBREOFFICE) missing.push("libreoffice-calc-nogui");
    if (spawnSync("pdftotext", ["-v"]).status !== 0) missing.push("poppler-utils");
    if (!hasXGBoost("/usr/bin/python3")) missing.push("python3-xgboost");
  }
  if ((tier === "e2e" || tier === "integration") && !existsSync(FONT)) missing.push("fonts-dejavu-core");
  if ((tier === "e2e" || tier === "integration") && spawnSync("openssl", ["version"]).status !== 0) missing.push("openssl");
  // A climate period's КЭП: GOST keys and signatures are made, and checked, with OpenSSL's GOST engine.
  else if ((tier === "e2e" || tier === "integration") && spawnSync("openssl", ["engine", "gost", "-t"]).status !== 0) {
    missing.push("libengine-gost-openssl");
  }
  return missing;
}

export default function setup(project: TestProject): void {
  const missing = missingPrograms(project.name);
  if (missing.length > 0) {
    const error = new Error(`The ${project.name} tier needs ${missing.join(", ")}: sudo apt-get install -y ${missing.join(" ")}`);
    // The message is the whole answer. Without frames: vitest's module cache on disk cannot map this
    // setup module's frames back to its source, and printing them would fail and hide the message.
    error.stack = `Error: ${error.message}`;
    throw error;
  }
}
