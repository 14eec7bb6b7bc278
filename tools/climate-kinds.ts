// `npm run climate-kinds`: writes the climate device kinds' table into verify.py (between its
// «--- device kinds ---» marks) from the kinds' modules (wasm-core/src/climate-devices/), and the
// script's new SHA-256 where it is published (functions/src/export/verify-script.ts, docs/security.md).
// Run it after adding or changing a kind (or any change to verify.py: it writes the SHA-256 too);
// kinds.test.ts fails while the script's table differs from the modules'.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { verifierTable } from "../wasm-core/src/climate-devices/index";

const ROOT = join(import.meta.dirname, "..");
const VERIFY_PY = join(ROOT, "functions/src/export/verify/verify.py");
const TABLE_START = '# --- device kinds ---\nCLIMATE_DEVICE_KINDS = json.loads(r"""\n';
const TABLE_END = '"""\n)\n# --- end of device kinds ---';

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const before = readFileSync(VERIFY_PY, "utf8");
const start = before.indexOf(TABLE_START);
const end = before.indexOf(TABLE_END);
if (start < 0 || end < start) throw new Error("verify.py: no «--- device kinds ---» block");
const after = `${before.slice(0, start + TABLE_START.length)}${JSON.stringify(verifierTable(), null, 1)}\n${before.slice(end)}`;
writeFileSync(VERIFY_PY, after);
// The SHA-256 as published now (verify-script.ts holds it), replaced by the script's wherever it is printed.
const scriptTs = join(ROOT, "functions/src/export/verify-script.ts");
const published = /VERIFY_PY_SHA256 = "([0-9a-f]{64})"/.exec(readFileSync(scriptTs, "utf8"))?.[1];
if (!published) throw new Error("verify-script.ts: no VERIFY_PY_SHA256");
for (const path of [scriptTs, join(ROOT, "docs/security.md")]) {
  writeFileSync(path, readFileSync(path, "utf8").replaceAll(published, sha(after)));
}
console.log(`written: verify.py's device kinds; its SHA-256 ${sha(after)}`);
