// Qualified electronic signatures (КЭП, GOST R 34.10-2012) an executor makes in their own tool
// (CryptoPro, КриптоАРМ) over a file the platform offers, and brings back detached (CMS): the check
// (OpenSSL with the GOST engine, adapters/signing/gost-cms.ts, on the local server; the same in
// TypeScript, adapters/signing/gost-native.ts, in AWS Lambda), the signatures kept with a climate
// project's period, and the CA certificates the administrator loads as trust anchors.
import type * as z from "zod";
import type {
  chainStateSchema,
  climateSignatureSchema,
  signerCertificateSchema,
  trustRootSchema,
} from "../contract/schemas/climate-signatures";

/** What the signer's certificate says (its subject's CN, O, SN, G, ИНН, ОГРН where present). */
export type SignerCertificate = z.output<typeof signerCertificateSchema>;

/** The chain's state: to a CA certificate the administrator loaded, refused by it, or not checked
 *  (none loaded). */
export type ChainState = z.output<typeof chainStateSchema>;

export type GostCmsCheck =
  | {
      ok: true;
      signer: SignerCertificate;
      /** The signer's certificate, PEM. */
      certificate_pem: string;
      /** The signing time the signature's signed attributes state (the signer's own clock), ISO. */
      signing_time?: string;
      /** The key's algorithm: GOST R 34.10-2012 with a 256 or 512 bit key, or another (refused). */
      algorithm: "gost2012_256" | "gost2012_512" | "other";
      chain: ChainState;
    }
  | {
      ok: false;
      /** `content`: a valid signature of another file; `broken`: not a CMS signature, or its value or
       *  structure does not verify; `unavailable`: this host has no OpenSSL with the GOST engine (the
       *  OpenSSL check only). */
      reason: "content" | "broken" | "unavailable";
      /** OpenSSL's own words (or the TypeScript check's), for the log. */
      detail: string;
    };

/** Checks a detached CMS signature over a file (adapters/signing/gost-cms.ts, gost-native.ts). */
export interface GostCmsVerifier {
  /** `signature` is DER; `roots` the loaded CA certificates, PEM, each a trust anchor (none: the chain
   *  is not checked); the chain is checked at `at`. */
  verify(input: { signature: Uint8Array; content: Uint8Array; roots: readonly string[]; at: Date }): Promise<GostCmsCheck>;
}

/** A signature kept with a climate project's period: as listed, with its company and the detached
 *  signature as brought (DER, base64). */
/** As kept: `current` is the list's, read against the file offered then (domain/climate/signatures.ts). */
export type ClimateSignatureRecord = Omit<z.output<typeof climateSignatureSchema>, "current" | "warnings"> & {
  company: string;
  signature_base64: string;
};

/** A CA certificate the administrator loaded as a trust anchor for КЭП chains, with its PEM. */
export type TrustRootRecord = z.output<typeof trustRootSchema> & { pem: string };

export interface ClimateSignatureRepository {
  /** Kept in the period's `place` (0-based, below LIMITS.climate.signaturesPerPeriod): refused
   *  (Conflict) when the place is taken, so two uploads racing for the last places cannot both be kept
   *  (four at once at 48 kept 53). */
  add(record: ClimateSignatureRecord, place: number): Promise<void>;
  /** The period's signatures, the earliest first. */
  list(companyId: string, project: string, period: string): Promise<ClimateSignatureRecord[]>;
  /** How many the period has, read as a count (none of their bodies). */
  count(companyId: string, project: string, period: string): Promise<number>;
}

export interface TrustRootRepository {
  /** Refused (Conflict) when the certificate is loaded already. */
  add(root: TrustRootRecord): Promise<void>;
  list(): Promise<TrustRootRecord[]>;
  /** False when there was no such certificate. */
  remove(id: string): Promise<boolean>;
}
