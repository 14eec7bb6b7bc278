// the platform's signature over each approved version's snapshot hash, so that a
// verification pack proves who signed it (RSASSA-PKCS1-v1_5 with SHA-256: a key in the data folder
// locally, a KMS asymmetric key in AWS). The public keys, old ones included, are served at
// GET v1/signing-keys/ (no token) for a verifier to check a pack against.
import type * as z from "zod";
import type { signingKeySchema } from "../contract/routes/signing-keys";
import type { versionSignatureSchema } from "../contract/routes/inventory";

/** A public key of the platform: PEM (SubjectPublicKeyInfo), the SHA-256 of its DER as the
 *  fingerprint, kid its first 16 hex digits; `to` once a newer key signs. */
export type SigningKey = z.output<typeof signingKeySchema>;

/** A version's signature: over the SHA-256 of the snapshot's canonical JSON (base64). */
export type VersionSignature = z.output<typeof versionSignatureSchema>;

export interface VersionSigner {
  /** Signs a snapshot's SHA-256 (64 hex digits) with the key in force. */
  sign(sha256Hex: string): Promise<VersionSignature>;
  /** Every key that signed or signs, oldest first. */
  keys(): Promise<SigningKey[]>;
}
