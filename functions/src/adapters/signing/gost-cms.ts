// A detached CMS signature (GOST R 34.10-2012, as CryptoPro and КриптоАРМ save it) checked against the
// file it claims to sign by OpenSSL's `cms -verify` with the GOST engine (Debian's
// libengine-gost-openssl): a child process run with its arguments as a list (never through a shell),
// over files in a fresh temporary folder, under a time limit. The signature's bytes are bounded
// before they get here (LIMITS.climate.signatureBytes). The signer's certificate is the one OpenSSL
// verified the signature with (`-signer`); its names and dates are read by node:crypto, which parses
// a GOST certificate though its own OpenSSL has no GOST engine.
import { execFile } from "node:child_process";
import { X509Certificate, createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIMITS } from "../../contract/schemas/limits";
import type { GostCmsCheck, GostCmsVerifier, SignerCertificate } from "../../ports/gost-signatures";

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

/** The DER bytes of OIDs 1.2.643.7.1.1.1.1 and .2 (GOST R 34.10-2012, 256 and 512 bit keys) and of
 *  the signingTime attribute (1.2.840.113549.1.9.5). */
const GOST_256 = Buffer.from("06082a85030701010101", "hex");
const GOST_512 = Buffer.from("06082a85030701010102", "hex");
const SIGNING_TIME = Buffer.from("06092a864886f70d010905", "hex");

/** The key algorithm of a certificate's SubjectPublicKeyInfo. */
function algorithmOf(der: Buffer): "gost2012_256" | "gost2012_512" | "other" {
  if (der.includes(GOST_256)) return "gost2012_256";
  if (der.includes(GOST_512)) return "gost2012_512";
  return "other";
}

/** The signingTime of the signature's signed attributes: SEQUENCE { OID, SET { UTCTime | GeneralizedTime } }. */
export function signingTimeOf(der: Uint8Array): string | undefined {
  const bytes = Buffer.from(der);
  const at = bytes.indexOf(SIGNING_TIME);
  if (at < 0) return undefined;
  let i = at + SIGNING_TIME.length;
  if (bytes[i] !== 0x31) return undefined;
  i += 2;
  const tag = bytes[i];
  const length = bytes[i + 1];
  if ((tag !== 0x17 && tag !== 0x18) || length > 20) return undefined;
  const text = bytes.subarray(i + 2, i + 2 + length).toString("latin1");
  const m = (tag === 0x17 ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/ : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/).exec(text);
  if (!m) return undefined;
  const year = tag === 0x17 ? (Number(m[1]) >= 50 ? 1900 : 2000) + Number(m[1]) : Number(m[1]);
  const instant = Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isNaN(instant) ? undefined : new Date(instant).toISOString();
}

/** One value of a name's attribute, by its short name or its OID (an attribute given twice: joined). */
function nameValue(name: Record<string, string[] | undefined>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = name[key];
    if (value !== undefined) return value.join(", ").trim() || undefined;
  }
  return undefined;
}

/** A name as node:crypto prints it (one «KEY=value» a line, RFC 2253 escapes) by attribute. Its
 *  toLegacyObject() is not used: Node 24's crashes on a GOST certificate's key it cannot decode. */
export function nameAttributes(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).replace(/\\(.)/g, "$1");
    (out[key] ??= []).push(value);
  }
  return out;
}

/** The certificate's names and dates as the screen shows them. */
export function signerOf(certificate: X509Certificate): SignerCertificate {
  const subject = nameAttributes(certificate.subject);
  const issuer = nameAttributes(certificate.issuer);
  const optional = (key: keyof SignerCertificate, value: string | undefined) => (value ? { [key]: value } : {});
  return {
    common_name: nameValue(subject, "CN") ?? certificate.subject.replace(/\n/g, ", "),
    ...optional("surname", nameValue(subject, "SN", "2.5.4.4")),
    ...optional("given_name", nameValue(subject, "GN", "2.5.4.42")),
    ...optional("organization", nameValue(subject, "O")),
    ...optional("title", nameValue(subject, "title", "T", "2.5.4.12")),
    ...optional("inn", nameValue(subject, "INN", "1.2.643.3.131.1.1")),
    ...optional("inn_le", nameValue(subject, "INNLE", "1.2.643.100.4")),
    ...optional("ogrn", nameValue(subject, "OGRN", "1.2.643.100.1")),
    ...optional("ogrnip", nameValue(subject, "OGRNIP", "1.2.643.100.5")),
    ...optional("snils", nameValue(subject, "SNILS", "1.2.643.100.3")),
    issuer: nameValue(issuer, "CN") ?? certificate.issuer.replace(/\n/g, ", "),
    serial: certificate.serialNumber,
    valid_from: new Date(Date.parse(certificate.validFrom)).toISOString(),
    valid_to: new Date(Date.parse(certificate.validTo)).toISOString(),
    fingerprint_sha256: createHash("sha256").update(certificate.raw).digest("hex"),
  };
}

/** The first certificate of a PEM file. */
function firstCertificate(pem: string): X509Certificate | undefined {
  const block = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem);
  if (!block) return undefined;
  try {
    return new X509Certificate(block[0]);
  } catch {
    return undefined;
  }
}

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
        const signing_time = signingTimeOf(signature);
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
        return {
          ok: true,
          signer: signerOf(certificate),
          certificate_pem: certificate.toString(),
          ...(signing_time ? { signing_time } : {}),
          algorithm: algorithmOf(certificate.raw),
          chain,
        };
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
    [
      /unable to get local issuer certificate|unable to get issuer certificate|self.signed certificate/i,
      "сертификат выдан не тем УЦ, чьи корневые сертификаты загружены",
    ],
    [/certificate has expired/i, "срок действия сертификата в цепочке истек"],
    [/certificate is not yet valid/i, "сертификат в цепочке еще не действует"],
    [/certificate signature failure/i, "подпись сертификата в цепочке не сходится"],
    [/certificate revoked/i, "сертификат отозван"],
  ];
  return known.find(([pattern]) => pattern.test(error))?.[1] ?? error;
}
