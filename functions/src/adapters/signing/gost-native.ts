// A detached CMS signature (GOST R 34.10-2012, as CryptoPro and КриптоАРМ save it) checked against
// the file it claims to sign in plain TypeScript, for a host with no OpenSSL GOST engine (AWS Lambda:
// lambda/deps.ts): the same port and the same answers as gost-cms.ts, which runs `openssl cms -verify`
// with the engine. Streebog is streebog.ts, the curves and the signature equation gost-curves.ts, the
// DER der.ts; the signer's names, the signing time and the chain's reasons are gost-common.ts, shared
// with the OpenSSL check.
//
// As OpenSSL's CMS verification does it: every SignerInfo's signature is verified first (over its
// signed attributes, re-tagged as a SET, hashed by its digest algorithm) — a failure is a broken
// signature; then the content's digest is compared with each messageDigest attribute — a difference
// is a signature of another file (`content`, as CMS_SignerInfo_verify_content); a SignerInfo without
// signed attributes signs the content's digest itself, checked in that second step. The signer's
// certificate is found among the signature's by issuer and serial (or subject key identifier). A
// GOST signature is s‖r big-endian (gost_pmeth.c unpack_cp_signature), in CMS as in X.509; a key is
// X‖Y little-endian in an OCTET STRING (gost_ameth.c). A signature by another algorithm (RSA, ECDSA)
// is verified by node:crypto so that it is answered as OpenSSL answers it (valid, algorithm "other",
// which the domain refuses).
//
// The chain (roots given) is built as OpenSSL's verification with -partial_chain builds it: from the
// signer's certificate up through the signature's certificates to one the administrator loaded (a
// loaded intermediate is an anchor too); every CA in it must be a CA; then from the top down each
// certificate's signature by its issuer's key and its validity at `at`. Revocation (CRL, OCSP) is not
// checked, as OpenSSL's check here does not.
import { X509Certificate, createHash, createPublicKey, verify as nodeVerify } from "node:crypto";
import type { GostCmsCheck, GostCmsVerifier } from "../../ports/gost-signatures";
import {
  type Der,
  DerError,
  TAG,
  bitStringBytes,
  canonicalName,
  childrenOf,
  context,
  contextPrimitive,
  encode,
  expectTag,
  octets,
  oidText,
  readDer,
  same,
  timeOf,
} from "./der";
import { CHAIN_REASONS, checkedSignature } from "./gost-common";
import { GOST_CURVES, type GostCurve, type Point, bigEndian, gostVerify, littleEndian } from "./gost-curves";
import { type StreebogBits, streebog } from "./streebog";

const OID = {
  signedData: "1.2.840.113549.1.7.2",
  messageDigest: "1.2.840.113549.1.9.4",
  gost256: "1.2.643.7.1.1.1.1",
  gost512: "1.2.643.7.1.1.1.2",
  subjectKeyIdentifier: "2.5.29.14",
  authorityKeyIdentifier: "2.5.29.35",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
} as const;

/** Digest algorithms by OID: Streebog by its bits, the others by node:crypto's name. */
const DIGESTS: Record<string, StreebogBits | string> = {
  "1.2.643.7.1.1.2.2": 256,
  "1.2.643.7.1.1.2.3": 512,
  "1.3.14.3.2.26": "sha1",
  "2.16.840.1.101.3.4.2.1": "sha256",
  "2.16.840.1.101.3.4.2.2": "sha384",
  "2.16.840.1.101.3.4.2.3": "sha512",
  "2.16.840.1.101.3.4.2.4": "sha224",
};

/** The GOST certificate signature algorithms (GOST R 34.10-2012 with GOST R 34.11-2012) by their
 *  digest's bits. */
const GOST_CERT_SIGNATURES: Record<string, StreebogBits> = {
  "1.2.643.7.1.1.3.2": 256,
  "1.2.643.7.1.1.3.3": 512,
};

function digestOf(algorithm: StreebogBits | string, bytes: Uint8Array): Uint8Array {
  return typeof algorithm === "number" ? streebog(algorithm, bytes) : createHash(algorithm).update(bytes).digest();
}

/** A certificate's parts the check reads. */
interface Certificate {
  der: Uint8Array;
  tbs: Uint8Array;
  signatureAlgorithm: string;
  signature: Uint8Array;
  serial: Uint8Array;
  /** The issuer's and the subject's names in canonical form (der.ts canonicalName). */
  issuer: string;
  subject: string;
  notBefore: Date;
  notAfter: Date;
  /** The SubjectPublicKeyInfo's encoding. */
  spki: Uint8Array;
  key: PublicKey;
  /** Version 3 (has extensions). */
  v3: boolean;
  subjectKeyId?: Uint8Array;
  authorityKeyId?: Uint8Array;
  /** basicConstraints' cA (undefined: no such extension). */
  ca?: boolean;
  /** keyUsage allows keyCertSign (undefined: no such extension). */
  certSign?: boolean;
  /** The signature algorithm inside the signed part is the one outside it. */
  algorithmsAgree: boolean;
  /** One of the extensions read here does not parse. */
  invalidExtension?: boolean;
}

type PublicKey = { kind: "gost"; curve: GostCurve; point: Point; bits: StreebogBits } | { kind: "other"; spki: Uint8Array };

function publicKeyOf(spki: Der): PublicKey {
  const [algorithm, key] = spki.children;
  const [oid, params] = expectTag(algorithm, TAG.sequence, "AlgorithmIdentifier").children;
  const keyAlgorithm = oidText(oid);
  if (keyAlgorithm !== OID.gost256 && keyAlgorithm !== OID.gost512) return { kind: "other", spki: spki.raw };
  const [paramsetOid, digestOid] = expectTag(params, TAG.sequence, "GOST key parameters").children;
  const paramset = oidText(paramsetOid);
  // The key's digest, where stated, must be one GOST R 34.10-2012 keys use.
  if (digestOid && typeof DIGESTS[oidText(digestOid)] !== "number") throw new DerError("GOST key parameters: unknown digest");
  const curve = GOST_CURVES[paramset];
  if (!curve) throw new DerError(`unknown GOST parameter set ${paramset}`);
  const bits: StreebogBits = keyAlgorithm === OID.gost256 ? 256 : 512;
  const xy = expectTag(readDer(bitStringBytes(key)), TAG.octetString, "GOST public key").content;
  if (xy.length !== 2 * curve.size || curve.size !== bits / 8) throw new DerError("GOST public key of a wrong length");
  return {
    kind: "gost",
    curve,
    bits,
    point: { x: littleEndian(xy.subarray(0, curve.size)), y: littleEndian(xy.subarray(curve.size)) },
  };
}

function parseCertificate(element: Der): Certificate {
  const [tbs, algorithm, signature] = expectTag(element, TAG.sequence, "Certificate").children;
  const fields = expectTag(tbs, TAG.sequence, "TBSCertificate").children;
  let i = fields[0]?.tag === context(0) ? 1 : 0;
  const serial = expectTag(fields[i++], TAG.integer, "serialNumber").content;
  // The signature algorithm, repeated inside what is signed: a certificate whose two differ is not
  // one an issuer is looked for (OpenSSL marks it invalid).
  const inner = expectTag(fields[i++], TAG.sequence, "signature");
  const issuer = canonicalName(expectTag(fields[i++], TAG.sequence, "issuer").raw);
  const [notBefore, notAfter] = expectTag(fields[i++], TAG.sequence, "validity").children;
  const subject = canonicalName(expectTag(fields[i++], TAG.sequence, "subject").raw);
  const spki = expectTag(fields[i++], TAG.sequence, "subjectPublicKeyInfo");
  const certificate: Certificate = {
    der: element.raw,
    tbs: tbs.raw,
    signatureAlgorithm: algorithmOid(algorithm, "signatureAlgorithm"),
    algorithmsAgree: same(inner.raw, algorithm.raw),
    signature: bitStringBytes(signature),
    serial,
    issuer,
    subject,
    notBefore: timeOf(notBefore),
    notAfter: timeOf(notAfter),
    spki: spki.raw,
    key: publicKeyOf(spki),
    v3: false,
  };
  const extensions = fields.slice(i).find((field) => field.tag === context(3));
  for (const extension of extensions ? expectTag(extensions.children[0], TAG.sequence, "extensions").children : []) {
    certificate.v3 = true;
    const parts = expectTag(extension, TAG.sequence, "Extension").children;
    const id = oidText(parts[0]);
    const known = [OID.subjectKeyIdentifier, OID.authorityKeyIdentifier, OID.basicConstraints, OID.keyUsage] as string[];
    if (!known.includes(id)) continue;
    // An extension's value is read when it is used, as OpenSSL reads it: a damaged one leaves the
    // signature's check alone and makes the certificate unfit for a chain.
    let value: Der;
    try {
      value = readDer(octets(parts[parts.length - 1]));
      if (id === OID.keyUsage) expectTag(value, TAG.bitString, "keyUsage");
    } catch {
      certificate.invalidExtension = true;
      continue;
    }
    if (id === OID.subjectKeyIdentifier) certificate.subjectKeyId = expectTag(value, TAG.octetString, "subjectKeyIdentifier").content;
    else if (id === OID.authorityKeyIdentifier) {
      const keyId = value.children.find((child) => child.tag === contextPrimitive(0));
      if (keyId) certificate.authorityKeyId = keyId.content;
    } else if (id === OID.basicConstraints) {
      const flag = value.children[0];
      certificate.ca = flag?.tag === 0x01 && flag.content[0] !== 0;
    } else if (id === OID.keyUsage) {
      // keyCertSign is bit 5: the 6th bit from the top of the first byte.
      const bits = value.content;
      certificate.certSign = bits.length > 1 && (bits[1] & 0x04) !== 0;
    }
  }
  return certificate;
}

/** Verifies `signature` over `data` by `key`: GOST by the digest's bits, another algorithm by
 *  node:crypto with the digest named. */
function verifySignature(key: PublicKey, digest: StreebogBits | string, data: Uint8Array, signature: Uint8Array): boolean {
  if (key.kind === "gost") {
    if (typeof digest !== "number" || signature.length !== 2 * key.curve.size) return false;
    const half = key.curve.size;
    const s = bigEndian(signature.subarray(0, half));
    const r = bigEndian(signature.subarray(half));
    return gostVerify(key.curve, key.point, digestOf(digest, data), r, s);
  }
  if (typeof digest === "number") return false;
  try {
    return nodeVerify(digest, data, createPublicKey({ key: Buffer.from(key.spki), format: "der", type: "spki" }), signature);
  } catch {
    return false;
  }
}

/** A certificate's signature by its issuer's key. */
function certificateSigned(certificate: Certificate, issuer: Certificate): boolean {
  const bits = GOST_CERT_SIGNATURES[certificate.signatureAlgorithm];
  if (bits !== undefined) return verifySignature(issuer.key, bits, certificate.tbs, certificate.signature);
  try {
    // RSA, ECDSA and the like: node:crypto knows the algorithm from the certificate.
    return (
      issuer.key.kind === "other" &&
      new X509Certificate(certificate.der).verify(createPublicKey({ key: Buffer.from(issuer.spki), format: "der", type: "spki" }))
    );
  } catch {
    return false;
  }
}

interface SignerInfo {
  certificate: Certificate;
  digest: StreebogBits | string;
  /** The signed attributes re-tagged as a SET (what was signed), and their messageDigest. */
  signed?: { bytes: Uint8Array; messageDigest: Uint8Array };
  signature: Uint8Array;
}

function parseSignerInfo(element: Der, certificates: readonly Certificate[]): SignerInfo {
  const fields = expectTag(element, TAG.sequence, "SignerInfo").children;
  const [version, sid, digestAlgorithm] = fields;
  expectTag(version, TAG.integer, "SignerInfo version");
  let certificate: Certificate | undefined;
  if (sid?.tag === TAG.sequence) {
    const [issuer, serial] = sid.children;
    const issuerName = canonicalName(expectTag(issuer, TAG.sequence, "issuer").raw);
    const serialNumber = expectTag(serial, TAG.integer, "serial").content;
    certificate = certificates.find((c) => c.issuer === issuerName && same(c.serial, serialNumber));
  } else if (sid?.tag === contextPrimitive(0)) {
    certificate = certificates.find((c) => c.subjectKeyId && same(c.subjectKeyId, sid.content));
  } else throw new DerError("SignerIdentifier");
  if (!certificate) throw new DerError("signer certificate not found");
  const digestOid = algorithmOid(digestAlgorithm, "digestAlgorithm");
  const digest = DIGESTS[digestOid];
  if (digest === undefined) throw new DerError(`unknown digest algorithm ${digestOid}`);
  let i = 3;
  let signed: SignerInfo["signed"];
  if (fields[i]?.tag === context(0) || fields[i]?.tag === contextPrimitive(0)) {
    // What was signed is the attributes' DER as a SET, in their order (CMS_Attributes_Verify): made
    // again from the parts, as OpenSSL re-encodes them, so that a BER encoding verifies as there.
    let messageDigest: Uint8Array | undefined;
    const attributes = childrenOf(fields[i++]).map((attribute) => {
      const [type, values] = expectTag(attribute, TAG.sequence, "Attribute").children;
      if (attribute.children.length !== 2 || (values.tag !== TAG.set && values.tag !== (TAG.set & ~0x20))) {
        throw new DerError("Attribute: expected its type and a SET of values");
      }
      const items = childrenOf(values);
      if (oidText(type) === OID.messageDigest) {
        if (messageDigest || items.length !== 1) throw new DerError("messageDigest: one value");
        messageDigest = expectTag(items[0], TAG.octetString, "messageDigest").content;
      }
      return encode(TAG.sequence, type.raw, encode(TAG.set, ...items.map((item) => item.raw)));
    });
    if (!messageDigest) throw new DerError("no messageDigest attribute");
    signed = { bytes: encode(TAG.set, ...attributes), messageDigest };
  }
  algorithmOid(fields[i++], "signatureAlgorithm");
  const signature = expectTag(fields[i++], TAG.octetString, "signature").content;
  const unsigned = fields[i];
  if (unsigned && unsigned.tag !== context(1)) throw new DerError("SignerInfo: unexpected field");
  if (fields.length > i + (unsigned ? 1 : 0)) throw new DerError("SignerInfo: trailing fields");
  return { certificate, digest, signed, signature };
}

/** An AlgorithmIdentifier's OID (its parameters, if any, read but not used). */
function algorithmOid(element: Der | undefined, what: string): string {
  const parts = expectTag(element, TAG.sequence, what).children;
  if (parts.length < 1 || parts.length > 2) throw new DerError(`${what}: expected an OID and its parameters`);
  return oidText(parts[0]);
}

/** The certificates of a PEM text (a bundle: each one). */
function pemCertificates(pem: string): Certificate[] {
  const out: Certificate[] = [];
  for (const block of pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g)) {
    try {
      out.push(parseCertificate(readDer(new Uint8Array(Buffer.from(block[1].replace(/\s+/g, ""), "base64")))));
    } catch {
      // Not a certificate this check reads: as good as not loaded.
    }
  }
  return out;
}

const sameKey = (a: Certificate, b: Certificate) => a.subject === b.subject && same(a.spki, b.spki);

/** May sign certificates: basicConstraints cA, or, without that extension, a version 1 certificate or
 *  one whose keyUsage allows keyCertSign (OpenSSL's check_ca). */
const isCa = (c: Certificate) => (c.ca !== undefined ? c.ca : !c.v3 || c.certSign === true);

const MAX_CHAIN = 10;

/** The chain of the signer's certificate to a loaded root at `at`: undefined when it holds, else the
 *  reason in Russian (or OpenSSL's words where the reason is not one of the usual). */
function chainFailure(leaf: Certificate, embedded: readonly Certificate[], roots: readonly Certificate[], at: Date): string | undefined {
  const chain = [leaf];
  for (;;) {
    const current = chain[chain.length - 1];
    if (roots.some((root) => sameKey(root, current))) break;
    const candidates = [...roots, ...embedded].filter(
      (c) =>
        c.subject === current.issuer &&
        current.algorithmsAgree &&
        !chain.includes(c) &&
        !(current.authorityKeyId && c.subjectKeyId && !same(current.authorityKeyId, c.subjectKeyId)),
    );
    const valid = candidates.find((c) => c.notBefore <= at && at <= c.notAfter);
    const issuer = valid ?? candidates[0];
    if (!issuer || chain.length >= MAX_CHAIN) return CHAIN_REASONS.issuer;
    chain.push(issuer);
  }
  // OpenSSL's words where its reason is not one of the usual (as gost-cms.ts passes them on).
  if (chain.some((c) => c.invalidExtension)) return "invalid or inconsistent certificate extension";
  if (chain.slice(1).some((c) => !isCa(c))) return "invalid CA certificate";
  // From the anchor down: its own signature is not checked (it is trusted), each other certificate's
  // by its issuer's key, then each one's validity at `at` (OpenSSL's -attime, whole seconds).
  const seconds = Math.floor(at.getTime() / 1000) * 1000;
  for (let n = chain.length - 1; n >= 0; n--) {
    const certificate = chain[n];
    if (n < chain.length - 1 && !certificateSigned(certificate, chain[n + 1])) return CHAIN_REASONS.signature;
    if (certificate.notBefore.getTime() > seconds) return CHAIN_REASONS.notYetValid;
    if (certificate.notAfter.getTime() < seconds) return CHAIN_REASONS.expired;
  }
  return undefined;
}

const broken = (detail: string): GostCmsCheck => ({ ok: false, reason: "broken", detail });

function check(signature: Uint8Array, content: Uint8Array, rootPems: readonly string[], at: Date): GostCmsCheck {
  const contentInfo = expectTag(readDer(signature), TAG.sequence, "ContentInfo").children;
  const [type, explicit] = contentInfo;
  if (oidText(type) !== OID.signedData) return broken("not a CMS SignedData");
  if (contentInfo.length !== 2 || expectTag(explicit, context(0), "content").children.length !== 1) {
    throw new DerError("ContentInfo: expected its type and one content");
  }
  // SignedData: version, digestAlgorithms, encapContentInfo, [0] certificates, [1] crls, signerInfos.
  const fields = expectTag(explicit.children[0], TAG.sequence, "SignedData").children;
  expectTag(fields[0], TAG.integer, "SignedData version");
  // OpenSSL sets up every digest the signature lists before reading the content: one it does not
  // know refuses the signature.
  for (const algorithm of expectTag(fields[1], TAG.set, "digestAlgorithms").children) {
    const oid = algorithmOid(algorithm, "digestAlgorithm");
    if (DIGESTS[oid] === undefined) throw new DerError(`unsupported digest algorithm ${oid}`);
  }
  oidText(expectTag(fields[2], TAG.sequence, "encapContentInfo").children[0]);
  let i = 3;
  const certificateSet = fields[i]?.tag === context(0) ? fields[i++] : undefined;
  if (fields[i]?.tag === context(1)) i++;
  const signerInfos = expectTag(fields[i], TAG.set, "signerInfos").children;
  if (fields.length !== i + 1) throw new DerError("SignedData: trailing fields");
  // Other certificate formats (attribute certificates, [0]…[3]) carry no signer's key: left aside.
  const certificates = (certificateSet?.children ?? []).filter((c) => c.tag === TAG.sequence).map(parseCertificate);
  if (signerInfos.length === 0) return broken("no signers");
  const signers = signerInfos.map((info) => parseSignerInfo(info, certificates));
  // First each signature over its signed attributes (a failure: broken), then the content's digest
  // against each (a difference: another file's signature), as OpenSSL's cms -verify.
  for (const signer of signers) {
    if (signer.signed && !verifySignature(signer.certificate.key, signer.digest, signer.signed.bytes, signer.signature)) {
      return broken("signature failure");
    }
  }
  for (const signer of signers) {
    if (signer.signed) {
      if (!same(digestOf(signer.digest, content), signer.signed.messageDigest)) {
        return { ok: false, reason: "content", detail: "messageDigest differs from the content's digest" };
      }
    } else if (!verifySignature(signer.certificate.key, signer.digest, content, signer.signature)) {
      return { ok: false, reason: "content", detail: "signature of the content does not verify" };
    }
  }
  const signerCertificate = signers[0].certificate;
  let chain: Extract<GostCmsCheck, { ok: true }>["chain"] = { state: "unchecked" };
  if (rootPems.length > 0) {
    const roots = rootPems.flatMap(pemCertificates);
    const failures = signers.map((s) => chainFailure(s.certificate, certificates, roots, at));
    const failure = failures.find((reason) => reason !== undefined);
    chain = failure === undefined ? { state: "verified" } : { state: "failed", reason: failure };
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from(signerCertificate.der));
  } catch (error) {
    return broken(`the signer's certificate: ${(error as Error).message}`);
  }
  return checkedSignature(certificate, signature, chain);
}

/** The check of a КЭП in TypeScript: the same answers as opensslGostCms() without OpenSSL. */
export function nativeGostCms(): GostCmsVerifier {
  return {
    async verify({ signature, content, roots, at }): Promise<GostCmsCheck> {
      try {
        return check(signature, content, roots, at);
      } catch (error) {
        if (error instanceof DerError) return broken(error.message);
        // A TypeError of a field missing where the structure is cut short: broken too.
        if (error instanceof TypeError || error instanceof RangeError) return broken(error.message);
        throw error;
      }
    },
  };
}
