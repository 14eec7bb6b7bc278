// v1/documents/ (SPEC 2 /documents): the normative documents for everyone signed in, and their PDFs.
import { Hono } from "hono";
import { getDocumentFile, listDocuments } from "../domain/documents";
import { PDF_TYPE } from "../domain/uploads";
import { attachmentDisposition } from "./download";
import type { AppEnv } from "./env";

export const documentRoutes = new Hono<AppEnv>({ strict: false })
  .get("/", async (c) => {
    const results = await listDocuments(c.get("deps"));
    return c.json({ results, count: results.length }, 200);
  })
  .get("/:id/download", async (c) => {
    const file = await getDocumentFile(c.get("deps"), c.req.param("id"));
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": PDF_TYPE,
      "Content-Disposition": attachmentDisposition(file.fileName, "Документ.pdf"),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-cache",
    });
  });
