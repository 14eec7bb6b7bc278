// /documents: the normative documents (GET documents/) and their PDFs, downloaded with the bearer
// token and saved under the name the server gives (in AWS the server gives a presigned address).
import { useQuery } from "@tanstack/react-query";
import { api, typedClient, type ListPage } from "./client";
import type { DocumentView } from "@server/contract";
import { ruDate } from "@core/dates";

/** The server's view of a document (functions/src/domain/reference/documents.ts). */
export type NormativeDocument = DocumentView;

/** documents/, typed from the server's route declarations (functions/src/contract/routes/documents.ts). */
const documents = typedClient("documents");

export const documentsKey = ["documents"] as const;

export function useDocuments() {
  return useQuery({ queryKey: documentsKey, queryFn: (): Promise<ListPage<NormativeDocument>> => documents((c) => c.index.$get()) });
}

/** The client's paths are relative to /api/. */
export function apiPath(url: string): string {
  return url.replace(/^\/api\//, "");
}

export async function downloadDocument(doc: NormativeDocument): Promise<void> {
  if (!doc.download_url) return;
  const { blob, fileName, redirectUrl } = await api.download(apiPath(doc.download_url));
  // In AWS a short-lived storage address (S3 names the file itself): the browser saves it without
  // leaving the page, as for large exports.
  if (redirectUrl) {
    window.location.assign(redirectUrl);
    return;
  }
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName ?? `${doc.number || doc.title}.pdf`;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the save before the URL goes.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** A legal document's date as its requisites write it: «02.07.2021». */
export const legalDate = (iso: string) => (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? ruDate(iso) : iso);

/** «№ 296-ФЗ от 02.07.2021», «ГОСТ 2939-63», … */
export function requisites(doc: Pick<NormativeDocument, "number" | "date">): string {
  const number = doc.number ? (/^\d/.test(doc.number) ? `№ ${doc.number}` : doc.number) : "";
  return [number, doc.date ? `от ${legalDate(doc.date)}` : ""].filter(Boolean).join(" ");
}
