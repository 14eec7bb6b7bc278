// v1/{type}/{id}/evidence/{field}/ (methodology D10): the evidence file of a custom coefficient.
// PUT (multipart: `file`, optional `version`) stores or replaces it, GET downloads it, DELETE
// removes it. The rules (formats by first bytes, size, company, custom only) are domain/evidence.ts.
import * as z from "zod";
import { attachEvidence, getEvidence, removeEvidence } from "../domain/evidence";
import { calculationView } from "../domain/calculations";
import { Invalid } from "../domain/errors";
import { calculationSchema } from "../schemas/answers";
import { calculationScoped, calculationTypeParam } from "../routes/calculations";
import { attachmentDisposition } from "./download";
import { readUploadForm } from "./multipart";
import { routeApp } from "./openapi-routes";
import { binaryFile, declareRoute, json, pathParam } from "../routes/declare";

const versionOf = (raw: string | undefined): number | undefined => {
  if (raw === undefined || raw.trim() === "") return undefined;
  const version = Number(raw);
  if (!Number.isInteger(version)) throw new Invalid("version: ожидается целое число");
  return version;
};

const evidenceParams = z.object({
  type: calculationTypeParam,
  id: pathParam("Calculation id"),
  field: pathParam("The coefficient's field (ef, p_ch4, …)"),
});

// The form is read by the handler (readUploadForm), which names what is wrong with it.
const attachRoute = declareRoute(
  calculationScoped({
    operationId: "attachEvidence",
    summary: "Attach (or replace) the evidence file of a custom coefficient (D10)",
    description:
      "Multipart with `file`: PDF, .xlsx, PNG or JPEG, at most 10 MB, told by its first bytes; optional `version`. Only a coefficient recorded as «Фактическое значение» (source custom) takes a file; the file it replaces is deleted.",
    errors: [400, 404, 409, 413, 415],
  }),
  {
    method: "put",
    path: "/{type}/{id}/evidence/{field}",
    request: {
      params: evidenceParams,
      body: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              properties: { file: binaryFile("PDF, .xlsx, PNG or JPEG, at most 10 MB").schema, version: { type: "integer" } },
              required: ["file"],
            },
          },
        },
      },
    },
    responses: { 200: json(calculationSchema, "The calculation") },
  },
);

const downloadRoute = declareRoute(
  calculationScoped({ operationId: "downloadEvidence", summary: "The evidence file of a custom coefficient", errors: [404] }),
  {
    method: "get",
    path: "/{type}/{id}/evidence/{field}",
    request: { params: evidenceParams },
    responses: {
      200: {
        description: "The file as attached",
        content: {
          "application/pdf": binaryFile(),
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": binaryFile(),
          "image/png": binaryFile(),
          "image/jpeg": binaryFile(),
        },
      },
    },
  },
);

const removeRoute = declareRoute(
  calculationScoped({
    operationId: "removeEvidence",
    summary: "Remove the evidence file of a custom coefficient",
    errors: [400, 404, 409],
  }),
  {
    method: "delete",
    path: "/{type}/{id}/evidence/{field}",
    request: { params: evidenceParams },
    responses: { 200: json(calculationSchema, "The calculation") },
  },
);

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
