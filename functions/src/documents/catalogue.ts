// The normative documents of /documents (docs/user-guide.md), shipped as data (catalogue.json): /documents lists them
// from the first start, each with its official source, until an admin uploads the PDF.
import data from "./catalogue.json";
import type { DocumentKind } from "../contract/schemas/document";

export interface CatalogueEntry {
  id: string;
  kind: DocumentKind;
  issuer: string;
  number: string;
  date: string;
  title: string;
  source_url: string;
  source_label: string;
  /** false: the address is the issuer's portal, where the document is found by its requisites. */
  exact: boolean;
}

export const CATALOGUE: readonly CatalogueEntry[] = data.documents as CatalogueEntry[];

export function catalogueEntry(id: string): CatalogueEntry | undefined {
  return CATALOGUE.find((entry) => entry.id === id);
}
