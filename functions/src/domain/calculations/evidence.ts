// The evidence file of a custom coefficient (methodology D10): a PDF, workbook or picture showing
// why the mine's own value is what it is. It is stored with the calculation, under its company
// (uploads/{company}/{calculation}/{id}.{ext}, ids only), and named in the coefficient's record, so
// the orphan sweep keeps it while the calculation names it. One file per coefficient: a new file
// replaces the old one, and a file the calculation no longer names (replaced, or the value is no
// longer custom) is deleted once the calculation is saved without it. The check and the storing of such a
// file (putEvidenceFile) are also a sensor verification's certificate scan's (monitoring/instruments/verifications.ts).
import type { Actor, Deps } from "../context";
import { getCalculation } from "../calculation-lookup";
import { STALE_CALCULATION } from "../calculation-shape";
import { guardFrozen } from "../inventory/freeze";
import { getProject } from "./projects";
import { Conflict, invalidAt, NotFound, TooLarge, UnsupportedMedia } from "../errors";
import { newId } from "../ids";
import type { StoredCalculation, CoefficientUse } from "../../ports";
import type { EvidenceView } from "../../contract/views";
import type { UploadedFile } from "../../files/tabular";
import { EVIDENCE_FORMATS, EVIDENCE_MAX_BYTES, evidenceFormatOf, type EvidenceFormat } from "../../contract/schemas/evidence";
import { zipEntryNames } from "../../files/zip-guard";
import { LIMITS } from "../../contract/schemas/limits";
import { fileSize } from "../../contract/schemas/uploads";

export type Evidence = NonNullable<CoefficientUse["evidence"]>;

const WRONG_TYPE = "Неподдерживаемый тип файла: приложите PDF, книгу Excel (.xlsx) или изображение PNG или JPEG";

/** What a kind of evidence file accepts: its formats (told by the first bytes), the largest size, and
 *  what a file of any other format is told. */
export interface EvidenceRule {
  formats: readonly EvidenceFormat[];
  maxBytes: number;
  wrongType: string;
}

/** A custom coefficient's evidence (D10): PDF, .xlsx, PNG or JPEG up to 10 МБ. */
export const COEFFICIENT_EVIDENCE: EvidenceRule = {
  formats: Object.keys(EVIDENCE_FORMATS) as EvidenceFormat[],
  maxBytes: EVIDENCE_MAX_BYTES,
  wrongType: WRONG_TYPE,
};

/** The format of an acceptable file, from its bytes; refuses anything else with 413 / 415 / 400. */
export function checkEvidenceFile(file: UploadedFile | undefined, rule: EvidenceRule = COEFFICIENT_EVIDENCE): EvidenceFormat {
  if (!file) throw invalidAt("file", "приложите файл");
  if (file.bytes.byteLength > rule.maxBytes) {
    throw new TooLarge(`Файл больше ${fileSize(rule.maxBytes)}`);
  }
  if (file.bytes.byteLength === 0) throw invalidAt("file", "файл пуст");
  const format = evidenceFormatOf(file.bytes);
  // Any ZIP archive starts like a workbook; only one with a workbook part inside is one.
  if (!format || !rule.formats.includes(format) || (format === "xlsx" && !isWorkbook(file.bytes))) {
    throw new UnsupportedMedia(rule.wrongType);
  }
  return format;
}

/** Checks `file` by `rule` and stores it under uploads/{company}/{owner}/ (ids only: the area the orphan
 *  sweep reads, domain/files/orphan-blobs.ts, which keeps it while a record names it); answers what the
 *  record keeps of it. The caller deletes the blob when its record is not written. */
export async function putEvidenceFile(
  deps: Pick<Deps, "blobs" | "clock">,
  company: string,
  owner: string,
  file: UploadedFile | undefined,
  rule: EvidenceRule = COEFFICIENT_EVIDENCE,
): Promise<Evidence> {
  const format = checkEvidenceFile(file, rule);
  const key = `uploads/${company}/${owner}/${newId()}.${format}`;
  await deps.blobs.put(key, file!.bytes, EVIDENCE_FORMATS[format].contentType);
  return {
    key,
    name: file!.name.slice(0, LIMITS.name.file),
    size: file!.bytes.byteLength,
    format,
    uploaded_at: deps.clock.now().toISOString(),
  };
}

function isWorkbook(bytes: Uint8Array): boolean {
  try {
    // The archive's directory only: nothing is decompressed.
    return zipEntryNames(bytes).includes("xl/workbook.xml");
  } catch {
    return false;
  }
}

/** The custom coefficient `field` of a live calculation at `version` (when given). */
async function customCoefficient(deps: Deps, actor: Actor, typeName: string, id: string, field: string, version?: number) {
  const calculation = await getCalculation(deps, actor, typeName, id);
  if (version !== undefined && version !== calculation.version) {
    throw new Conflict(STALE_CALCULATION);
  }
  if (calculation.is_deleted) throw new Conflict("Расчет находится в архиве: восстановите его, чтобы изменить документы");
  await guardFrozen(deps, actor, {
    kind: "calculation",
    before: calculation,
    after: calculation,
    project: await getProject(deps, actor, calculation.project),
  });
  const use = calculation.coefficients[field];
  if (use?.source !== "custom") {
    throw invalidAt(field, "подтверждающий документ прикладывается только к фактическому значению коэффициента");
  }
  return { calculation, use };
}

/** Stores `file` as the evidence of the custom coefficient `field`, replacing the one before. */
export async function attachEvidence(
  deps: Deps,
  actor: Actor,
  typeName: string,
  id: string,
  field: string,
  file: UploadedFile | undefined,
  version?: number,
): Promise<StoredCalculation> {
  const { calculation, use } = await customCoefficient(deps, actor, typeName, id, field, version);
  const evidence = await putEvidenceFile(deps, calculation.company, calculation.id, file);
  try {
    return await saveWith(deps, actor, calculation, { ...calculation.coefficients, [field]: { ...use, evidence } });
  } catch (error) {
    await deps.blobs.delete(evidence.key);
    throw error;
  }
}

/** Removes the evidence file of the custom coefficient `field`. */
export async function removeEvidence(deps: Deps, actor: Actor, typeName: string, id: string, field: string): Promise<StoredCalculation> {
  const { calculation, use } = await customCoefficient(deps, actor, typeName, id, field);
  if (!use.evidence) throw new NotFound("У коэффициента нет подтверждающего документа");
  const { evidence: _removed, ...rest } = use;
  return saveWith(deps, actor, calculation, { ...calculation.coefficients, [field]: rest });
}

async function saveWith(
  deps: Deps,
  actor: Actor,
  current: StoredCalculation,
  coefficients: StoredCalculation["coefficients"],
): Promise<StoredCalculation> {
  const next: StoredCalculation = {
    ...current,
    coefficients,
    version: current.version + 1,
    updated_at: deps.clock.now().toISOString(),
    updated_by: actor.email,
  };
  await deps.repos.calculations.replace(next, current.version);
  await deleteUnnamedEvidence(deps, current, next);
  return next;
}

/** The evidence file of `field`, for download. */
export async function getEvidence(deps: Deps, actor: Actor, typeName: string, id: string, field: string) {
  const calculation = await getCalculation(deps, actor, typeName, id);
  const evidence = calculation.coefficients[field]?.evidence;
  const blob = evidence && (await deps.blobs.get(evidence.key));
  if (!evidence || !blob) throw new NotFound("Подтверждающий документ не найден");
  return { name: evidence.name, ...blob };
}

/** The blob keys of a calculation's evidence files. */
export function evidenceKeys(calculation: Pick<StoredCalculation, "coefficients">): string[] {
  return Object.values(calculation.coefficients ?? {}).flatMap((use) => (use.evidence ? [use.evidence.key] : []));
}

/** Deletes the evidence files `before` named that `after` (the saved calculation) does not. */
export async function deleteUnnamedEvidence(deps: Deps, before: StoredCalculation, after: StoredCalculation): Promise<void> {
  const kept = new Set(evidenceKeys(after));
  await Promise.all(
    evidenceKeys(before)
      .filter((key) => !kept.has(key))
      .map((key) => deps.blobs.delete(key)),
  );
}

/** A coefficient as readers see it: its evidence file without the storage key. */

/** What readers see of an evidence file: no storage key. */
export function evidenceView({ key: _key, ...visible }: Evidence): EvidenceView {
  return visible;
}
