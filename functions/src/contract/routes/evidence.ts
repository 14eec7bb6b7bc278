// v1/{type}/{id}/evidence/{field}/ (methodology D10), declared: the evidence file of a custom
// coefficient: PUT (multipart: `file`, optional `version`) stores or replaces it, GET downloads
// it, DELETE removes it. Served by http/evidence.ts.
import * as z from "zod";
import { calculationSchema } from "../schemas/answers";
import { calculationScoped, calculationTypeParam } from "./calculations";
import { binaryFile, fileAnswer, formBody, json, pathParam, route, XLSX } from "./declare";

const evidenceParams = z.object({
  type: calculationTypeParam,
  id: pathParam("Calculation id"),
  field: pathParam("The coefficient's field (ef, p_ch4, …)"),
});

// The form is read by the handler (readUploadForm), which names what is wrong with it.
export const attachRoute = route(
  calculationScoped(
    "attachEvidence",
    "Attach (or replace) the evidence file of a custom coefficient (D10)",
    [400, 404, 409, 413, 415],
    "Multipart with `file`: PDF, .xlsx, PNG or JPEG, at most 10 MB, told by its first bytes; optional `version`. Only a coefficient recorded as «Фактическое значение» (source custom) takes a file; the file it replaces is deleted.",
  ),
  {
    put: "/{type}/{id}/evidence/{field}",
    cost: "light",
    params: evidenceParams,
    body: formBody({
      type: "object",
      properties: { file: binaryFile("PDF, .xlsx, PNG or JPEG, at most 10 MB").schema, version: { type: "integer" } },
      required: ["file"],
    }),
    bodyCap: "evidence",
    200: json(calculationSchema, "The calculation"),
  },
);

export const downloadRoute = route(calculationScoped("downloadEvidence", "The evidence file of a custom coefficient", [404]), {
  get: "/{type}/{id}/evidence/{field}",
  cost: "light",
  params: evidenceParams,
  200: fileAnswer("The file as attached", "application/pdf", XLSX, "image/png", "image/jpeg"),
});

export const removeRoute = route(calculationScoped("removeEvidence", "Remove the evidence file of a custom coefficient", [400, 404, 409]), {
  delete: "/{type}/{id}/evidence/{field}",
  cost: "light",
  params: evidenceParams,
  200: json(calculationSchema, "The calculation"),
});

/** Every route of v1/{type}/{id}/evidence/ above, in the order http/evidence.ts serves them. */
export const EVIDENCE_ROUTES = [attachRoute, downloadRoute, removeRoute] as const;
