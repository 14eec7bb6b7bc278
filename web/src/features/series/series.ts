// The dialogs of the file-based types (filling_blanks, sensitivity; registry kind "file") as data:
// their text inputs and settings from the registry, the GWP set, the file, and the request sent —
// a multipart form when a file is chosen, JSON otherwise (docs/user-guide.md: file_data only when chosen; on
// edit the server recomputes from the stored file). Settings are sent only when they differ from
// the default (create) or the stored value (edit), so untouched ones keep their recorded source.
import type { FilledValue } from "@core/emissions-core";
import type { SensitivityElement } from "../../shared/uncertainty/tornado";
import {
  REGISTRY,
  uploadColumns,
  uploadHeader,
  type CalculationDefinition,
  type CalculationType,
  type NumberField,
  type OtherField,
} from "@core/registry";
import { GWP_DICTIONARY } from "@core/gwp-in-force";
import { russianPlural } from "@core/inventory";
import { formatStored, numberText, parseNumericInput } from "../../shared/decimals";
import type { Calculation, DictionaryEntry } from "../../api/calculations";
import type { Body } from "../../api/calculations";
import type { CalculationCreateBody, CalculationPatchBody } from "@server/contract";

export type SeriesType = Extract<CalculationType, "filling_blanks" | "sensitivity">;

export function isSeriesType(type: CalculationType): type is SeriesType {
  return REGISTRY[type].kind === "file";
}

export interface SeriesLayout {
  type: SeriesType;
  /** Text inputs (column names), in registry order. */
  texts: OtherField[];
  /** Numeric settings the user may change (GWP is a set, chosen apart). */
  settings: NumberField[];
  gwp: NumberField | undefined;
  /** The file field, with the columns the upload needs. */
  file: OtherField;
}

/** The upload's columns as the dialog lists them under the file (registry): «year — год; volume — добыча угля, т; …». */
export function uploadHint(type: SeriesType): string {
  const def: CalculationDefinition = REGISTRY[type];
  const parts = uploadColumns(type).map((column) => {
    const named = column.namedBy && def.inputs.find((f) => f.name === column.namedBy)?.label;
    // The template's Russian header («Добыча угля, т»), never the column's internal name.
    const header = named ? `столбец из поля «${named}»` : `«${uploadHeader(column)}»`;
    return `${header}${column.optional ? " (необязательно)" : ""}`;
  });
  return `Столбцы: ${parts.join("; ")}.`;
}

export function seriesLayout(type: SeriesType): SeriesLayout {
  const def: CalculationDefinition = REGISTRY[type];
  return {
    type,
    texts: def.inputs.filter((f): f is OtherField => f.type === "text"),
    settings: def.settings.filter((f) => f.name !== "gwp_ch4"),
    gwp: def.settings.find((f) => f.name === "gwp_ch4"),
    file: def.inputs.find((f): f is OtherField => f.type === "file")!,
  };
}

export interface SeriesState {
  name: string;
  /** Text inputs by name (name_value, name_element). */
  texts: Readonly<Record<string, string>>;
  /** Settings as typed, by name. */
  settings: Readonly<Record<string, string>>;
  /** The chosen GWP set, or GWP_BY_YEAR; undefined: none chosen (create: the set in force for the
   *  project's reporting year, edit: the stored one). */
  gwpSet: number | undefined;
  file?: File;
}

function storedSetting(stored: Calculation | undefined, field: NumberField): number | undefined {
  const use = stored?.coefficients[field.name]?.value;
  if (typeof use === "number") return use;
  const flat = stored?.[field.name];
  return typeof flat === "number" ? flat : undefined;
}

/** The value a setting starts from: the stored one (edit) or the registry default (create). */
export function settingBaseline(field: NumberField, stored?: Calculation): number | undefined {
  return stored ? (storedSetting(stored, field) ?? field.default) : field.default;
}

export function initialSeriesState(type: SeriesType, stored?: Calculation): SeriesState {
  const layout = seriesLayout(type);
  return {
    name: stored?.name ?? "",
    texts: Object.fromEntries(layout.texts.map((f) => [f.name, typeof stored?.[f.name] === "string" ? (stored[f.name] as string) : ""])),
    settings: Object.fromEntries(layout.settings.map((f) => [f.name, numberText(settingBaseline(f, stored))])),
    // D12: no set is chosen until the user picks one, as in the other dialogs.
    gwpSet: undefined,
  };
}

/** The GWP selector's «по отчетному году проекта» choice (no set has id 0). */
export const GWP_BY_YEAR = 0;

/** The GWP selector's value: the chosen set, on edit the stored one, else by the reporting year. */
export function currentGwpSet(state: SeriesState, stored?: Calculation): number {
  return state.gwpSet ?? stored?.coefficients.gwp_ch4?.item_id ?? GWP_BY_YEAR;
}

/** The «по отчетному году проекта» option, naming the set in force (D12) when it is known. */
export function gwpByYearLabel(entries: readonly DictionaryEntry[], inForce: number | undefined): string {
  const set = entries.find((e) => e.id === inForce);
  return set ? `по отчетному году проекта (набор ${set.name}: ${formatStored(set.gwp_ch4 as number)})` : "по отчетному году проекта";
}

/** Why the form cannot be sent, by dialog target (name, a text input, a setting, file_data). */
export function seriesErrors(type: SeriesType, state: SeriesState, mode: "create" | "edit"): Record<string, string> {
  const layout = seriesLayout(type);
  const errors: Record<string, string> = {};
  if (!state.name.trim()) errors.name = "Введите название расчета";
  for (const field of layout.texts) {
    if (!field.optional && !(state.texts[field.name] ?? "").trim()) errors[field.name] = "Укажите название столбца";
  }
  for (const field of layout.settings) {
    const value = parseNumericInput(state.settings[field.name] ?? "");
    if (value === undefined) errors[field.name] = "Поле обязательно для заполнения";
    else if (field.max !== undefined && value > field.max) errors[field.name] = `Не больше ${formatStored(field.max)}`;
    else if (field.name === "delta" && value === 0) errors[field.name] = "Шаг должен быть больше нуля";
  }
  if (mode === "create" && !state.file) errors.file_data = "Выберите файл .xlsx или .csv";
  return errors;
}

/**
 * POST (create) or PATCH (edit) for a file-based type: name, the column names, changed settings,
 * the GWP set when chosen, the version on edit, and file_data only when a file is chosen.
 */
export function seriesRequest(
  type: SeriesType,
  mode: "create" | "edit",
  state: SeriesState,
  options: { projectId?: string; stored?: Calculation /** D12: the set in force for the project's year. */; gwpInForce?: number },
): Body<SeriesType> {
  const layout = seriesLayout(type);
  const { stored } = options;
  const fields: { name: string; [field: string]: string | number } = { name: state.name.trim() };
  if (mode === "create" && options.projectId) fields.project = options.projectId;
  for (const field of layout.texts) {
    const text = (state.texts[field.name] ?? "").trim();
    // An optional column left empty is not sent on create; on edit "" clears the stored one.
    if (text || mode === "edit") fields[field.name] = text;
  }
  for (const field of layout.settings) {
    const value = parseNumericInput(state.settings[field.name] ?? "");
    if (value !== undefined && value !== settingBaseline(field, mode === "edit" ? stored : undefined)) fields[field.name] = value;
  }
  if (layout.gwp) {
    // D12: gwp_set only when the user picked a set; without it the server uses the set in force for
    // the project's year. An edit back to «по отчетному году проекта» names that set (the server
    // keeps the stored one otherwise).
    const set = state.gwpSet === GWP_BY_YEAR ? (mode === "edit" ? options.gwpInForce : undefined) : state.gwpSet;
    if (set !== undefined) fields.gwp_set = set;
  }
  if (mode === "edit" && stored) fields.version = stored.version;

  // The fields are the registry's (seriesLayout): the server checks them against the type's schema.
  if (!state.file)
    return mode === "create"
      ? { kind: "create", body: { ...fields, project: options.projectId ?? "" } as CalculationCreateBody<SeriesType> }
      : { kind: "patch", body: fields as CalculationPatchBody<SeriesType> };
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, String(value));
  form.set("file_data", state.file, state.file.name);
  return { kind: "form", form };
}

// ---- the stored results ------------------------------------------------------------------------

export type { SensitivityElement };

export interface FilledElement {
  id: number;
  name: string;
  rows: FilledValue[];
}

export function elementsOf<T>(calculation: Calculation): T[] {
  return Array.isArray(calculation.elements) ? (calculation.elements as T[]) : [];
}

/** How many values of a filling_blanks result were filled (method flag other than null/empty). */
export function filledCount(elements: readonly FilledElement[]): number {
  return elements.reduce((n, e) => n + e.rows.filter((r) => r.method !== null && r.method !== "empty").length, 0);
}

/** The list's result column of a filling_blanks calculation: «2 ряда, заполнено 5 значений». */
export function fillingListSummary(calculation: Calculation): string {
  const elements = elementsOf<FilledElement>(calculation);
  const filled = filledCount(elements);
  return `${elements.length} ${russianPlural(elements.length, "ряд", "ряда", "рядов")}, заполнено ${filled} ${russianPlural(filled, "значение", "значения", "значений")}`;
}

/** The list's result column of a sensitivity calculation: «2 ряда, 10 лет». */
export function sensitivityListSummary(calculation: Calculation): string {
  const elements = elementsOf<SensitivityElement>(calculation);
  const years = elements.reduce((n, e) => n + e.data_sensitivity.length, 0);
  return `${elements.length} ${russianPlural(elements.length, "ряд", "ряда", "рядов")}, ${years} ${russianPlural(years, "год", "года", "лет")}`;
}

export { GWP_DICTIONARY };
