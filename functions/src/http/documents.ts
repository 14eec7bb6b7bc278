// v1/documents/ (docs/user-guide.md, /documents): the normative documents for everyone signed in, and their PDFs.
// The declarations are in routes/documents.ts.
import { wholeList } from "../contract/routes/declare";
import { getDocumentFile, listDocuments } from "../domain/reference/documents";
import { storedFileAnswer } from "./stored-file";
import { routeApp } from "./openapi-routes";
import { downloadRoute, listRoute } from "../contract/routes/documents";

export const documentRoutes = routeApp()
  .openapi(listRoute, async (c) => c.json(wholeList(await listDocuments(c.get("deps"))), 200))
  // In AWS the PDF (up to 50 MB) does not fit a Lambda answer: a short-lived storage address instead, as
  // for large exports (http/exports.ts), which the page navigates to.
  .openapi(downloadRoute, async (c) => storedFileAnswer(c, await getDocumentFile(c.get("deps"), c.req.valid("param").id), "Документ.pdf"));
