// v1/documents/ (docs/user-guide.md, /documents), declared: the normative documents for everyone signed in, and
// their PDFs. Served by http/documents.ts.
import * as z from "zod";
import { documentSchema, downloadLinkSchema } from "../schemas/answers";
import { binaryFile, declareRoute, json, listOf, pathParam } from "./declare";

export const listRoute = declareRoute(
  {
    operationId: "listDocuments",
    summary: "The normative documents catalogue",
    tag: "documents",
    auth: "user",
    isolation: { scope: "platform", note: "normative documents are platform-wide" },
    errors: [],
  },
  { method: "get", path: "/", responses: { 200: json(listOf(documentSchema), "The documents") } },
);

export const downloadRoute = declareRoute(
  {
    operationId: "downloadDocument",
    summary: "A document's PDF",
    tag: "documents",
    auth: "user",
    isolation: { scope: "platform", note: "normative documents are platform-wide downloads" },
    errors: [404],
  },
  {
    method: "get",
    path: "/{id}/download",
    request: { params: z.object({ id: pathParam("Document id") }) },
    responses: {
      200: {
        description: "The PDF, or in AWS where to fetch it",
        content: { "application/pdf": binaryFile(), "application/json": { schema: downloadLinkSchema } },
      },
    },
  },
);

/** Every route of v1/documents/ above, in the order http/documents.ts serves them. */
export const DOCUMENT_ROUTES = [listRoute, downloadRoute] as const;
