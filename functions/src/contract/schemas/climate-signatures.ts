// КЭП of a climate project's period and the CA certificates they are checked
// against, as the API answers them (domain/climate/signatures.ts, trust-roots.ts).
import * as z from "zod";

export const signerCertificateSchema = z.object({
  common_name: z.string().meta({ description: "CN: the person, or the organisation of an organisation's certificate" }),
  surname: z.optional(z.string()).meta({ description: "SN" }),
  given_name: z.optional(z.string()).meta({ description: "G (GN)" }),
  organization: z.optional(z.string()).meta({ description: "O" }),
  title: z.optional(z.string()).meta({ description: "T: the position" }),
  inn: z.optional(z.string()).meta({ description: "ИНН (1.2.643.3.131.1.1)" }),
  inn_le: z.optional(z.string()).meta({ description: "ИНН ЮЛ (1.2.643.100.4)" }),
  ogrn: z.optional(z.string()).meta({ description: "ОГРН (1.2.643.100.1)" }),
  ogrnip: z.optional(z.string()).meta({ description: "ОГРНИП (1.2.643.100.5)" }),
  snils: z.optional(z.string()).meta({ description: "СНИЛС (1.2.643.100.3)" }),
  issuer: z.string().meta({ description: "The issuing CA's CN" }),
  serial: z.string(),
  valid_from: z.string().meta({ description: "ISO instant" }),
  valid_to: z.string().meta({ description: "ISO instant" }),
  fingerprint_sha256: z.string(),
});

export const chainStateSchema = z
  .discriminatedUnion("state", [
    z.object({ state: z.literal("verified") }),
    z.object({ state: z.literal("failed"), reason: z.string() }),
    z.object({ state: z.literal("unchecked") }),
  ])
  .meta({
    description:
      "to a CA certificate the administrator loaded; unchecked: none is loaded («цепочка не проверена: корневые сертификаты не загружены»)",
  });

export const climateSignatureSchema = z.object({
  id: z.string(),
  project: z.string(),
  period: z.string(),
  file_name: z.string().meta({ description: "The signed file (signatures/payload/: the pack's manifest.json) as it was when signed" }),
  file_sha256: z.string().meta({ description: "Its SHA-256: the pack carries the signatures over its manifest as it is" }),
  signer: signerCertificateSchema,
  signing_time: z.optional(z.string()).meta({ description: "The signing time the signature states (the signer's clock), ISO" }),
  chain: chainStateSchema,
  current: z.boolean().meta({
    description:
      "Whether it is over the file signatures/payload/ offers now. false: «подпись к прежней версии файла» — the period, its " +
      "report or what the report is built from changed after it was signed, so it signs an older manifest; the pack does not carry " +
      "it. An approved period's file is made from its approval's snapshot and does not change.",
  }),
  created_at: z.string(),
  created_by: z.string(),
  warnings: z.array(z.string()).meta({
    description:
      "a certificate whose ИНН or ОГРН is not the executor's, one with neither of an organisation, a self-signed one — in Russian",
  }),
});

export const trustRootSchema = z.object({
  id: z.string().meta({ description: "SHA-256 of the certificate's DER, hex" }),
  subject: z.string(),
  issuer: z.string(),
  valid_from: z.string(),
  valid_to: z.string(),
  created_at: z.string(),
  created_by: z.string(),
});
