// What both checks of a КЭП share (OpenSSL's, gost-cms.ts, and the TypeScript one, gost-native.ts):
// the signer's certificate as the screen shows it (read by node:crypto, which parses a GOST
// certificate though its own OpenSSL has no GOST engine), the key's algorithm, the signing time the
// signed attributes state, and the chain's reasons in Russian.
import { X509Certificate, createHash } from "node:crypto";
import type { ChainState, GostCmsCheck, SignerCertificate } from "../../ports/gost-signatures";
import { readDerAt, timeOf } from "./der";
import { certificateText, unescapedName } from "../../contract/certificate-text";

/** The DER bytes of OIDs 1.2.643.7.1.1.1.1 and .2 (GOST R 34.10-2012, 256 and 512 bit keys) and of
 *  the signingTime attribute (1.2.840.113549.1.9.5). */
const GOST_256 = Buffer.from("06082a85030701010101", "hex");
const GOST_512 = Buffer.from("06082a85030701010102", "hex");
const SIGNING_TIME = Buffer.from("06092a864886f70d010905", "hex");

/** The key algorithm of a certificate's SubjectPublicKeyInfo. */
export function algorithmOf(der: Buffer): "gost2012_256" | "gost2012_512" | "other" {
  if (der.includes(GOST_256)) return "gost2012_256";
  if (der.includes(GOST_512)) return "gost2012_512";
  return "other";
}

/** The signingTime of the signature's signed attributes: SEQUENCE { OID, SET { UTCTime | GeneralizedTime } }. */
export function signingTimeOf(der: Uint8Array): string | undefined {
  const bytes = Buffer.from(der.buffer, der.byteOffset, der.length);
  const at = bytes.indexOf(SIGNING_TIME);
  if (at < 0) return undefined;
  try {
    const values = readDerAt(der, at + SIGNING_TIME.length);
    if (values.tag !== 0x31 || values.children.length !== 1) return undefined;
    return timeOf(values.children[0]).toISOString();
  } catch {
    return undefined;
  }
}

/** One value of a name's attribute, by its short name or its OID (an attribute given twice: joined). */
function nameValue(name: Record<string, string[] | undefined>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = name[key];
    if (value !== undefined) return certificateText(value.join(", ")) || undefined;
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
    const value = unescapedName(line.slice(eq + 1));
    (out[key] ??= []).push(value);
  }
  return out;
}

/** The certificate's names and dates as the screen shows them; undefined where its dates are not
 *  readable (a damaged certificate the signature's check, which does not verify it, let through). */
export function signerOf(certificate: X509Certificate): SignerCertificate | undefined {
  const validFrom = Date.parse(certificate.validFrom);
  const validTo = Date.parse(certificate.validTo);
  if (Number.isNaN(validFrom) || Number.isNaN(validTo)) return undefined;
  const subject = nameAttributes(certificate.subject);
  const issuer = nameAttributes(certificate.issuer);
  const optional = (key: keyof SignerCertificate, value: string | undefined) => (value ? { [key]: value } : {});
  return {
    common_name: nameValue(subject, "CN") ?? certificateText(unescapedName(certificate.subject.replace(/\n/g, ", "))),
    ...optional("surname", nameValue(subject, "SN", "2.5.4.4")),
    ...optional("given_name", nameValue(subject, "GN", "2.5.4.42")),
    ...optional("organization", nameValue(subject, "O")),
    ...optional("title", nameValue(subject, "title", "T", "2.5.4.12")),
    ...optional("inn", nameValue(subject, "INN", "1.2.643.3.131.1.1")),
    ...optional("inn_le", nameValue(subject, "INNLE", "1.2.643.100.4")),
    ...optional("ogrn", nameValue(subject, "OGRN", "1.2.643.100.1")),
    ...optional("ogrnip", nameValue(subject, "OGRNIP", "1.2.643.100.5")),
    ...optional("snils", nameValue(subject, "SNILS", "1.2.643.100.3")),
    issuer: nameValue(issuer, "CN") ?? certificateText(unescapedName(certificate.issuer.replace(/\n/g, ", "))),
    serial: certificate.serialNumber,
    valid_from: new Date(validFrom).toISOString(),
    valid_to: new Date(validTo).toISOString(),
    fingerprint_sha256: createHash("sha256").update(certificate.raw).digest("hex"),
  };
}

/** The answer of a signature that holds, whichever check found it so: its signer's certificate read
 *  (broken when its dates cannot be read), the signing time its signed attributes state (`signature`:
 *  the CMS's DER) and the chain's state. */
export function checkedSignature(certificate: X509Certificate, signature: Uint8Array, chain: ChainState): GostCmsCheck {
  const signer = signerOf(certificate);
  if (!signer) return { ok: false, reason: "broken", detail: "the signer's certificate has unreadable dates" };
  const signing_time = signingTimeOf(signature);
  return {
    ok: true,
    signer,
    certificate_pem: certificate.toString(),
    ...(signing_time ? { signing_time } : {}),
    algorithm: algorithmOf(certificate.raw),
    chain,
  };
}

/** The first certificate of a PEM file. */
export function firstCertificate(pem: string): X509Certificate | undefined {
  const block = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem);
  if (!block) return undefined;
  try {
    return new X509Certificate(block[0]);
  } catch {
    return undefined;
  }
}

/** Why a chain is not confirmed, in the words the screen shows after «цепочка не подтверждена: ». */
export const CHAIN_REASONS = {
  issuer: "сертификат выдан не тем УЦ, чьи корневые сертификаты загружены",
  expired: "срок действия сертификата в цепочке истек",
  notYetValid: "сертификат в цепочке еще не действует",
  signature: "подпись сертификата в цепочке не сходится",
  revoked: "сертификат отозван",
} as const;
