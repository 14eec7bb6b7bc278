// A detached CMS signature (GOST R 34.10-2012, as CryptoPro and КриптоАРМ save it) checked against the
// file it claims to sign by OpenSSL's `cms -verify` with the GOST engine (Debian's
// libengine-gost-openssl): a child process run with its arguments as a list (never through a shell),
// over files in a fresh temporary folder, under a time limit. The signature's bytes are bounded
// before they get here (LIMITS.climate.signatureBytes). The signer's certificate is the one OpenSSL
// verified the signature with (`-signer`); its names and dates are read by node:crypto, which parses
// a GOST certificate though its own OpenSSL has no GOST engine.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIMITS } from "../../contract/schemas/limits";
import type { GostCmsCheck, GostCmsVerifier } from "../../ports/gost-signatures";
import { CHAIN_REASONS, checkedSignature, firstCertificate } from "./gost-common";

export interface GostCmsOptions {
  /** The openssl executable (OPENSSL_BIN; `openssl` on the PATH by default). */
  binary?: string;
  /** The engine's id (`gost`). */
  engine?: string;
  /** How long one openssl run may take. */
  timeoutMs?: number;
}

const OUTPUT_BYTES = 256 * 1024;

interface Run {
  code: number;
  stderr: string;
  /** The executable is missing or the run was stopped by the time limit. */
  failed?: string;
}

function run(binary: string, args: readonly string[], timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    execFile(binary, args, { timeout: timeoutMs, maxBuffer: OUTPUT_BYTES, windowsHide: true, shell: false }, (error, _stdout, stderr) => {
      if (!error) return resolve({ code: 0, stderr: String(stderr) });
      const { code, killed, signal } = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string };
      if (code === "ENOENT") return resolve({ code: -1, stderr: "", failed: `${binary}: не найден` });
      if (killed || signal) return resolve({ code: -1, stderr: String(stderr), failed: `openssl остановлен через ${timeoutMs} мс` });
      resolve({ code: typeof code === "number" ? code : 1, stderr: String(stderr) });
    });
  });
}

const ENGINE_MISSING = /invalid engine|no such engine|could not load the shared library/i;

/** The last line of OpenSSL's words that says what went wrong. */
const reasonOf = (stderr: string) =>
  stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !/^Engine ".*" set\.$/.test(line))
    .join(" | ")
    .slice(0, LIMITS.text.logExcerpt);

export function opensslGostCms(options: GostCmsOptions = {}): GostCmsVerifier {
  const binary = options.binary ?? process.env.OPENSSL_BIN ?? "openssl";
  const engine = options.engine ?? "gost";
  const timeoutMs = options.timeoutMs ?? LIMITS.climate.signatureCheckMs;
  return {
    async verify({ signature, content, roots, at }): Promise<GostCmsCheck> {
      const dir = await mkdtemp(join(tmpdir(), "gost-cms-"));
      try {
        const file = (name: string) => join(dir, name);
        await writeFile(file("signature.der"), signature);
        await writeFile(file("content.bin"), content);
        const common = ["cms", "-verify", "-engine", engine, "-binary", "-inform", "DER", "-in", file("signature.der")];
        const checked = await run(
          binary,
          [...common, "-content", file("content.bin"), "-noverify", "-signer", file("signer.pem"), "-out", file("out.bin")],
          timeoutMs,
        );
        if (checked.failed) return { ok: false, reason: "unavailable", detail: checked.failed };
        if (checked.code !== 0) {
          if (ENGINE_MISSING.test(checked.stderr)) return { ok: false, reason: "unavailable", detail: reasonOf(checked.stderr) };
          // The signed digest differs from the file's: a signature, valid or not, of another file.
          const content = /CMS_SignerInfo_verify_content/.test(checked.stderr);
          return { ok: false, reason: content ? "content" : "broken", detail: reasonOf(checked.stderr) };
        }
        const certificate = firstCertificate(await readFile(file("signer.pem"), "utf8").catch(() => ""));
        if (!certificate) return { ok: false, reason: "broken", detail: "no signer's certificate in the signature" };
        let chain: Extract<GostCmsCheck, { ok: true }>["chain"] = { state: "unchecked" };
        if (roots.length > 0) {
          await writeFile(file("roots.pem"), `${roots.map((pem) => pem.trim()).join("\n")}\n`);
          const attime = String(Math.floor(at.getTime() / 1000));
          const trusted = await run(
            binary,
            [
              ...common,
              "-content",
              file("content.bin"),
              "-CAfile",
              file("roots.pem"),
              "-partial_chain",
              "-purpose",
              "any",
              "-attime",
              attime,
              "-out",
              file("out.bin"),
            ],
            timeoutMs,
          );
          if (trusted.failed) return { ok: false, reason: "unavailable", detail: trusted.failed };
          chain = trusted.code === 0 ? { state: "verified" } : { state: "failed", reason: chainReason(trusted.stderr) };
        }
        return checkedSignature(certificate, signature, chain);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** OpenSSL's verify error in Russian where it is one of the usual. */
function chainReason(stderr: string): string {
  const error = /Verify error:\s*([^\n]+)/.exec(stderr)?.[1]?.trim() ?? reasonOf(stderr);
  const known: [RegExp, string][] = [
    [/unable to get local issuer certificate|unable to get issuer certificate|self.signed certificate/i, CHAIN_REASONS.issuer],
    [/certificate has expired/i, CHAIN_REASONS.expired],
    [/certificate is not yet valid/i, CHAIN_REASONS.notYetValid],
    [/certificate signature failure/i, CHAIN_REASONS.signature],
    [/certificate revoked/i, CHAIN_REASONS.revoked],
  ];
  return known.find(([pattern]) => pattern.test(error))?.[1] ?? error;
}
