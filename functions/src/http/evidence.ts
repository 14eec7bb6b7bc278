// v1/{type}/{id}/evidence/{field}/ (methodology D10): the evidence file of a custom coefficient.
// PUT (multipart: `file`, optional `version`) stores or replaces it, GET downloads it, DELETE
// removes it. The rules (formats by first bytes, size, company, custom only) are domain/calculations/evidence.ts.
// The declarations are in routes/evidence.ts.
import { attachEvidence, getEvidence, removeEvidence } from "../domain/calculations/evidence";
import { calculationView } from "../domain/calculations/calculations";
import { invalidAt } from "../domain/errors";
import { attachmentDisposition } from "../files/file-names";
import { readUploadForm } from "./multipart";
import { routeApp } from "./openapi-routes";
import { attachRoute, downloadRoute, removeRoute } from "../contract/routes/evidence";

const versionOf = (raw: string | undefined): number | undefined => {
  if (raw === undefined || raw.trim() === "") return undefined;
  const version = Number(raw);
  if (!Number.isInteger(version)) throw invalidAt("version", "ожидается целое число");
  return version;
};

export const evidenceRoutes = routeApp()
  .openapi(attachRoute, async (c) => {
    const form = await readUploadForm(c, "file", "Документ");
    const { type, id, field } = c.req.valid("param");
    const updated = await attachEvidence(c.get("deps"), c.get("actor"), type, id, field, form.file, versionOf(form.fields.version));
    return c.json(calculationView(updated), 200);
  })
  .openapi(downloadRoute, async (c) => {
    const { type, id, field } = c.req.valid("param");
    const file = await getEvidence(c.get("deps"), c.get("actor"), type, id, field);
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": attachmentDisposition(file.name, "Документ"),
      "X-Content-Type-Options": "nosniff",
    });
  })
  .openapi(removeRoute, async (c) => {
    const { type, id, field } = c.req.valid("param");
    const updated = await removeEvidence(c.get("deps"), c.get("actor"), type, id, field);
    return c.json(calculationView(updated), 200);
  });
