// v1/documents/ (docs/user-guide.md, /documents): the normative documents for everyone signed in, and their PDFs.
// The declarations are in routes/documents.ts.
import { wholeList } from "../contract/routes/declare";
import { getDocumentFile, listDocuments } from "../domain/reference/documents";
import { PDF_TYPE } from "../domain/files/uploads";
import { attachmentDisposition } from "../files/file-names";
import { routeApp } from "./openapi-routes";
import { downloadRoute, listRoute } from "../contract/routes/documents";

export const documentRoutes = routeApp()
  .openapi(listRoute, async (c) => c.json(wholeList(await listDocuments(c.get("deps"))), 200))
  .openapi(downloadRoute, async (c) => {
    const file = await getDocumentFile(c.get("deps"), c.req.valid("param").id);
    // In AWS the PDF (up to 50 MB) does not fit a Lambda answer: a short-lived storage address
    // instead, as for large exports (http/exports.ts), which the page navigates to.
    if (file.kind === "redirect") {
      return c.json({ download_url: file.url, file_name: file.fileName }, 200, { "Cache-Control": "no-store" });
    }
    return c.body(file.body as ReadableStream<Uint8Array<ArrayBuffer>>, 200, {
      "Content-Type": PDF_TYPE,
      "Content-Disposition": attachmentDisposition(file.fileName, "Документ.pdf"),
      ...(file.size !== undefined ? { "Content-Length": String(file.size) } : {}),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-cache",
    });
  });
