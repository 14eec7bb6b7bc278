// v1/documents/ (docs/user-guide.md, /documents), declared: the normative documents for everyone signed in, and
// their PDFs. Served by http/documents.ts.
import * as z from "zod";
import { fileOrLink } from "./export-jobs";
import { documentSchema } from "../schemas/answers";
import { json, listOf, pathParam, route, userAccess } from "./declare";

const catalogue = userAccess("documents", { scope: "platform", note: "normative documents are platform-wide" });
const downloads = userAccess("documents", { scope: "platform", note: "normative documents are platform-wide downloads" });

export const listRoute = route(catalogue("listDocuments", "The normative documents catalogue", []), {
  get: "/",
  cost: "light",
  200: json(listOf(documentSchema), "The documents"),
});

export const downloadRoute = route(downloads("downloadDocument", "A document's PDF", [404]), {
  get: "/{id}/download",
  cost: "light",
  params: z.object({ id: pathParam("Document id") }),
  200: fileOrLink("The PDF, or in AWS where to fetch it", "application/pdf"),
});

/** Every route of v1/documents/ above, in the order http/documents.ts serves them. */
export const DOCUMENT_ROUTES = [listRoute, downloadRoute] as const;
