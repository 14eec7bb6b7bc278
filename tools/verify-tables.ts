// `npm run verify-tables`: writes verify.py's tables from the core (functions/src/export/verify-tables.ts:
// the climate device kinds and every sensor kind's D58 range), and the script's new SHA-256 where it is
// published (functions/src/export/verify-script.ts, docs/security.md). Run it after adding or changing
// a device or sensor kind (or any change to verify.py: it writes the SHA-256 too);
// verify-tables.test.ts fails while the script's tables differ from the core's.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withVerifierTables } from "../functions/src/export/verify-tables";

const ROOT = join(import.meta.dirname, "..");
const VERIFY_PY = join(ROOT, "functions/src/export/verify/verify.py");

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const after = withVerifierTables(readFileSync(VERIFY_PY, "utf8"));
writeFileSync(VERIFY_PY, after);
// The SHA-256 as published now (verify-script.ts holds it), replaced by the script's wherever it is printed.
const scriptTs = join(ROOT, "functions/src/export/verify-script.ts");
const published = /VERIFY_PY_SHA256 = "([0-9a-f]{64})"/.exec(readFileSync(scriptTs, "utf8"))?.[1];
if (!published) throw new Error("verify-script.ts: no VERIFY_PY_SHA256");
for (const path of [scriptTs, join(ROOT, "docs/security.md")]) {
  writeFileSync(path, readFileSync(path, "utf8").replaceAll(published, sha(after)));
}
console.log(`written: verify.py's device and sensor kinds; its SHA-256 ${sha(after)}`);
