// GET v1/signing-keys/, declared: the public keys the platform signs approved versions
// with, old ones included, for a verifier to check a verification pack. No token. Served by
// http/signing-keys.ts.
import * as z from "zod";
import { access, json, route } from "./declare";

export const signingKeySchema = z.object({
  kid: z.string().meta({ description: "The first 16 hex digits of fingerprint_sha256; a version's signature names it" }),
  alg: z.literal("RS256").meta({ description: "RSASSA-PKCS1-v1_5 with SHA-256" }),
  pem: z.string().meta({ description: "The public key, PEM (SubjectPublicKeyInfo)" }),
  fingerprint_sha256: z.string().meta({ description: "SHA-256 of the key's DER, hex: the passport prints it" }),
  from: z.string().meta({ description: "Signs from (ISO 8601)" }),
  to: z.optional(z.string().meta({ description: "Signed until (a newer key signs since)" })),
});

const keys = access("signingKeys", "public", { scope: "public" });

export const signingKeysRoute = route(keys("signingKeys", "The platform's version-signing public keys, oldest first", []), {
  get: "/",
  cost: "light",
  200: json(
    z.object({
      keys: z.array(signingKeySchema),
      verify_py_sha256: z.string().meta({
        description:
          "SHA-256 of the published verify.py (the security review's R9): compare a pack's verify.py with it before running it (docs/security.md prints it too)",
      }),
    }),
    "The keys, and the published verify.py's SHA-256",
  ),
});

export const SIGNING_KEY_ROUTES = [signingKeysRoute] as const;
