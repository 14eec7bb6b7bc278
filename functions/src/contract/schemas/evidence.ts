// Evidence files of custom coefficients (methodology D10): the formats accepted, each told by its
// first bytes, not by its name or declared type. Shared by the API (domain/calculations/evidence.ts) and the S3
// upload check (events/upload-check.ts), which must keep what the API stored under uploads/.
// No dependencies, so the upload check's bundle stays small.
export const EVIDENCE_MAX_BYTES = 10 * 1024 * 1024;
export const EVIDENCE_MAX_TEXT = "10 МБ";

export const EVIDENCE_FORMATS = {
  pdf: { contentType: "application/pdf", signature: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  xlsx: { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", signature: [0x50, 0x4b, 0x03, 0x04] },
  png: { contentType: "image/png", signature: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  jpg: { contentType: "image/jpeg", signature: [0xff, 0xd8, 0xff] },
} as const;

export type EvidenceFormat = keyof typeof EVIDENCE_FORMATS;

export const startsWith = (head: Uint8Array, signature: readonly number[]) => signature.every((byte, i) => head[i] === byte);

/** The format the first bytes show; undefined for anything else. An .xlsx is a ZIP archive here:
 *  the API also looks inside it (domain/calculations/evidence.ts). */
export function evidenceFormatOf(head: Uint8Array): EvidenceFormat | undefined {
  return (Object.keys(EVIDENCE_FORMATS) as EvidenceFormat[]).find((format) => startsWith(head, EVIDENCE_FORMATS[format].signature));
}
