// Normative documents (platform-wide) and the PDFs kept for them.
import type { DocumentKind } from "../contract/schemas/document";

/** A PDF kept in the blob store; the key is made of ids only, never of the uploaded file's name. */
export interface StoredPdf {
  key: string;
  name: string;
  size: number;
  uploaded_at: string;
  uploaded_by: string;
}

/** A normative document (docs/user-guide.md, /documents). Platform-wide, like dictionaries. Catalogue entries
 *  (functions/src/documents/catalogue.json) exist without a stored item until an admin edits one. */
export interface NormativeDocument {
  id: string;
  title: string;
  number: string;
  /** yyyy-MM-dd, or "" when the document has no single date (IPCC volume, UNECE guidance). */
  date: string;
  kind: DocumentKind;
  /** Who issued it: «Минприроды России», «Правительство Российской Федерации», «МГЭИК», … */
  issuer: string;
  source_url: string;
  source_label: string;
  file?: StoredPdf;
  is_deleted: boolean;
  version: number;
  created_at: string;
  updated_at: string;
  updated_by: string;
}

export interface DocumentRepository {
  list(): Promise<NormativeDocument[]>;
  get(id: string): Promise<NormativeDocument | undefined>;
  /** expectedVersion 0 creates (Conflict if it exists); otherwise the stored version must match. */
  put(next: NormativeDocument, expectedVersion: number): Promise<void>;
}
