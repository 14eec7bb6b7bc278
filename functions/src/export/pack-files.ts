// The pieces every verifier's pack of the platform shares (an approved version's, verification-pack.ts;
// a climate period's, climate-pack.ts): each file's SHA-256 as the manifest lists it, the manifest with
// the platform's signature over it (the security review's R9), a CSV cell as the exports write it, and verify.py, which
// checks either pack. Light on purpose: nothing here renders a spreadsheet.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { canonicalJson } from "../domain/inventory/versions";
import type { VersionSigner } from "../ports";
import { MANIFEST_SIGNATURE_FILE, VERIFY_SCRIPT } from "./formats";
import type { ZipEntry } from "./zip-writer";

/** verify.py beside this module (in AWS beside the worker's bundle, where the stack copies it). */
const scriptFile = () => fileURLToPath(new URL(`./${VERIFY_SCRIPT.dir}/${VERIFY_SCRIPT.file}`, import.meta.url));

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
export const utf8 = (text: string) => new TextEncoder().encode(text);
export const jsonFile = (value: unknown) => utf8(`${JSON.stringify(value, null, 2)}\n`);

/** Each file of a pack as its manifest lists it: name, size and SHA-256. */
export const manifestEntries = (files: readonly ZipEntry[]) =>
  files.map((f) => ({ name: f.name, bytes: f.bytes.byteLength, sha256: sha256(f.bytes) }));

/** the security review's R9: manifest.json and manifest.sig.json of a pack — the manifest carried whole beside the
 *  platform's signature over the SHA-256 of its canonical JSON (RFC 8785), so that verify.py names the
 *  file that differs from it even when manifest.json was rewritten to match. Every pack the platform
 *  makes (an approved version's, a climate period's) signs its manifest here. */
export async function signedManifest(signer: VersionSigner, manifest: Record<string, unknown>): Promise<ZipEntry[]> {
  const manifestSha = sha256(utf8(canonicalJson(manifest)));
  return [
    { name: "manifest.json", bytes: jsonFile(manifest) },
    {
      name: MANIFEST_SIGNATURE_FILE,
      bytes: jsonFile({ manifest, manifest_sha256: manifestSha, signature: await signer.sign(manifestSha) }),
    },
  ];
}

/** verify.py's bytes, as every pack carries it. */
export const verifyScript = async () => new Uint8Array(await readFile(scriptFile()));

export function csvCell(value: unknown): string {
  const text = value === undefined || value === null ? "" : String(value);
  // A text that a spreadsheet would read as a formula stays text (as the exports do).
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === "string" ? `'${text}` : text;
  return /[";\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
