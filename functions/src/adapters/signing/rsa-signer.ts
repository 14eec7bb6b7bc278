// a version signer over RSA keys held by this process (the local host's data folder, the
// tests): RSASSA-PKCS1-v1_5 with SHA-256 over a digest already taken, as KMS signs a DIGEST — the
// DigestInfo of SHA-256 (RFC 8017 9.2) before the hash, padded and raised with the private key.
import { createHash, createPublicKey, generateKeyPairSync, privateEncrypt, constants, type KeyObject } from "node:crypto";
import type { SigningKey, VersionSignature, VersionSigner } from "../../ports";

/** RFC 8017 9.2, note 1: DigestInfo of SHA-256 before the 32 bytes of the hash. */
export const SHA256_DIGEST_INFO = Buffer.from("3031300d060960864801650304020105000420", "hex");

/** A public key as GET v1/signing-keys/ lists it, from its PEM (or any form node:crypto reads). */
export function signingKeyOf(publicKey: string | KeyObject | Uint8Array, from: string, to?: string): SigningKey {
  const key =
    typeof publicKey === "string"
      ? createPublicKey(publicKey)
      : publicKey instanceof Uint8Array
        ? createPublicKey({ key: Buffer.from(publicKey), format: "der", type: "spki" })
        : publicKey;
  const der = key.export({ format: "der", type: "spki" });
  const fingerprint = createHash("sha256").update(der).digest("hex");
  return {
    kid: fingerprint.slice(0, 16),
    alg: "RS256",
    pem: key.export({ format: "pem", type: "spki" }).toString(),
    fingerprint_sha256: fingerprint,
    from,
    ...(to ? { to } : {}),
  };
}

export function checkedDigest(sha256Hex: string): Buffer {
  if (!/^[0-9a-f]{64}$/.test(sha256Hex)) throw new Error("a version signature is over a SHA-256 of 64 hex digits");
  return Buffer.from(sha256Hex, "hex");
}

/** Signs with `privateKeyPem`; `keys` lists it (the last) and those before it. */
export function rsaSigner(privateKeyPem: string, keys: SigningKey[]): VersionSigner {
  const current = keys.at(-1);
  if (!current) throw new Error("no signing key");
  return {
    async sign(sha256Hex) {
      const value = privateEncrypt(
        { key: privateKeyPem, padding: constants.RSA_PKCS1_PADDING },
        Buffer.concat([SHA256_DIGEST_INFO, checkedDigest(sha256Hex)]),
      );
      return {
        kid: current.kid,
        alg: "RS256",
        fingerprint_sha256: current.fingerprint_sha256,
        value: value.toString("base64"),
      } satisfies VersionSignature;
    },
    async keys() {
      return keys;
    },
  };
}

/** A fresh RSA-2048 key pair as PEM (PKCS#8 private, SPKI public). */
export function newRsaKey(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { format: "pem", type: "spki" },
    privateKeyEncoding: { format: "pem", type: "pkcs8" },
  });
}

let ephemeral: VersionSigner | undefined;
/** A key of this process alone (a server without a data folder, the tests): made once. */
export function ephemeralSigner(from = "2024-01-01T00:00:00.000Z"): VersionSigner {
  if (!ephemeral) {
    const { privateKey, publicKey } = newRsaKey();
    ephemeral = rsaSigner(privateKey, [signingKeyOf(publicKey, from)]);
  }
  return ephemeral;
}
