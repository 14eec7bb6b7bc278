// The evidence file of a custom coefficient (methodology D10) over the API: the check the dialog
// makes before sending (the server checks the first bytes again), the upload after the calculation
// is saved, and the download. PUT/GET {type}/{id}/evidence/{field}/.
import { api, encoded, routePath } from "../../api/client";
import type { CalculationType } from "@core/registry";
import { EVIDENCE_MAX_BYTES, EVIDENCE_MAX_TEXT } from "@server/contract";
import { saveBlob } from "../../shared/saveBlob";
import type { Calculation } from "../../api/calculations";

export const EVIDENCE_ACCEPT = ".pdf,.xlsx,.png,.jpg,.jpeg";
export const EVIDENCE_WRONG_TYPE = "Приложите PDF, книгу Excel (.xlsx) или изображение PNG или JPEG";
export const EVIDENCE_TOO_LARGE = `Файл больше ${EVIDENCE_MAX_TEXT}`;
export { EVIDENCE_MAX_TEXT };

/** Why a chosen file cannot be attached, or undefined. */
export function evidenceProblem(file: { name: string; size: number }): string | undefined {
  if (!/\.(pdf|xlsx|png|jpe?g)$/i.test(file.name)) return EVIDENCE_WRONG_TYPE;
  if (file.size > EVIDENCE_MAX_BYTES) return EVIDENCE_TOO_LARGE;
  if (file.size === 0) return "Файл пуст";
  return undefined;
}

const evidencePath = (type: CalculationType, id: string, field: string) =>
  routePath("evidence", (c) => c[":type"][":id"].evidence[":field"].$path({ param: encoded({ type, id, field }) }));

/** Attaches the chosen files to the saved calculation one by one; answers it as last saved. */
export async function uploadEvidence(saved: Calculation, files: Readonly<Record<string, File>>): Promise<Calculation> {
  let current = saved;
  for (const [field, file] of Object.entries(files)) {
    // Only a value still recorded as the user's own takes a file (a field switched back to the dictionary does not).
    if (current.coefficients[field]?.source !== "custom") continue;
    const form = new FormData();
    form.set("file", file, file.name);
    form.set("version", String(current.version));
    current = await api.upload<Calculation>("PUT", await evidencePath(current.type, current.id, field), form);
  }
  return current;
}

export async function downloadEvidence(calculation: Calculation, field: string): Promise<void> {
  const file = await api.download(await evidencePath(calculation.type, calculation.id, field));
  saveBlob(file.blob, file.fileName ?? calculation.coefficients[field]?.evidence?.name ?? "document");
}
