// v1/{type}/{id}/evidence/{field}/ (methodology D10), declared: the evidence file of a custom
// coefficient: PUT (multipart: `file`, optional `version`) stores or replaces it, GET downloads
// it, DELETE removes it. Served by http/evidence.ts.
import * as z from "zod";
import { calculationSchema } from "../schemas/answers";
import { calculationScoped, calculationTypeParam } from "./calculations";
import { binaryFile, declareRoute, formBody, json, pathParam } from "./declare";

const evidenceParams = z.object({
  type: calculationTypeParam,
  id: pathParam("Calculation id"),
  field: pathParam("The coefficient's field (ef, p_ch4, …)"),
});

// The form is read by the handler (readUploadForm), which names what is wrong with it.
export const attachRoute = declareRoute(
  calculationScoped({
    operationId: "attachEvidence",
    summary: "Attach (or replace) the evidence file of a custom coefficient (D10)",
    description:
      "Multipart with `file`: PDF, .xlsx, PNG or JPEG, at most 10 MB, told by its first bytes; optional `version`. Only a coefficient recorded as «Фактическое значение» (source custom) takes a file; the file it replaces is deleted.",
    errors: [400, 404, 409, 413, 415],
    bodyCap: "evidence",
  }),
  {
    method: "put",
    path: "/{type}/{id}/evidence/{field}",
    request: {
      params: evidenceParams,
      body: formBody({
        type: "object",
        properties: { file: binaryFile("PDF, .xlsx, PNG or JPEG, at most 10 MB").schema, version: { type: "integer" } },
        required: ["file"],
      }),
    },
    responses: { 200: json(calculationSchema, "The calculation") },
  },
);

export const downloadRoute = declareRoute(
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

export const removeRoute = declareRoute(
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

/** Every route of v1/{type}/{id}/evidence/ above, in the order http/evidence.ts serves them. */
export const EVIDENCE_ROUTES = [attachRoute, downloadRoute, removeRoute] as const;
