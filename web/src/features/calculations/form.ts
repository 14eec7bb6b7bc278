// The create/edit dialog of a formula calculation as data, driven by the registry (docs/api.md, docs/user-guide.md):
// which fields a type has, which dictionary entry fills which of them, what the live preview
// computes with, and what is sent. Nothing here is written per type.
//
// Edit keeps what was stored until the user changes it: a dictionary choice (or the GWP set) the
// user has not touched shows the stored values, and the request keeps the entry version the
// calculation used, so reopening and saving never moves a result to a newer dictionary version.
import { burnsDrainedGas, defaultRoleOf, inventorySourceOf, takesPoint, type InventoryRole } from "@core/inventory";
import type { SourcePeriod } from "@core/source-periods";
import { basisOf } from "@core/methane-balance";
import { MINE_GAS_FUEL_ENTRY } from "@core/types/fields";
import {
  MEASURED_VOLUME_LABEL,
  REGISTRY,
  type CalculationDefinition,
  type MethaneBasis,
  type DictionaryBinding,
  type FormulaType,
  type NumberField,
  unitWith,
  usedEntry,
} from "@core/registry";
import {
  CUSTOM,
  boundFields,
  customFixedValue,
  customValue,
  outsidePlausibleBand,
  preselectedEntry,
  storedChoice,
  type CoefficientEntry,
} from "@core/coefficient-rules";
import { FieldError, type EmissionsCore } from "@core/emissions-core";
import { MEASUREMENT_NOTE_NAMES, PERIODS_GIVE, checkPeriods, measuredRelease, type MeasurementNote } from "@core/measured-release";
import { toCanonical, unitFields } from "@core/entry-units";
import { MEASURED_PERIOD, type MeasuredPeriodField } from "@core/registry";
import { GWP_DICTIONARY, gwpSetInForce as setInForce } from "@core/gwp-in-force";
import { fieldProblem, type Refusal } from "../../shared/fieldErrors";
import { formatStored, groupedNumberText, numberText, parseNumericInput, type EntryMode } from "../../shared/decimals";
import type { Calculation, DictionaryEntry } from "../../api/calculations";
import { ruDate } from "@core/dates";

/** The GWP sets (methodology D1); the server records the chosen set's id with the calculation. */
export { GWP_DICTIONARY };
/** «Фактическое значение»: the bound fields become free inputs (docs/user-guide.md). */
export { CUSTOM };

export type Choice = number | typeof CUSTOM;

export interface BindingLayout {
  binding: DictionaryBinding;
  /** The fields the entry fills; registry-fixed ones are shown as fixed instead. */
  fields: NumberField[];
}

/** One line of the dialog, in registry order: a selector sits right above the fields it fills. */
export type FormRow =
  | { kind: "select"; binding: BindingLayout }
  | { kind: "free"; field: NumberField }
  | { kind: "bound"; field: NumberField; binding: BindingLayout }
  | { kind: "fixed"; field: NumberField }
  | { kind: "gwp"; field: NumberField };

export interface FormLayout {
  type: FormulaType;
  bindings: BindingLayout[];
  free: NumberField[];
  fixed: NumberField[];
  gwp: NumberField | undefined;
  rows: FormRow[];
  /** Every dictionary the dialog loads (bindings, then the GWP sets). */
  dictionaries: string[];
}

const isNumber = (field: { type: string }): field is NumberField => field.type === "number";

export function formLayout(type: FormulaType): FormLayout {
  const def: CalculationDefinition = REGISTRY[type];
  // D26: the measured volume is named as the meter saw it, whichever basis is chosen.
  const inputs = def.inputs
    .filter(isNumber)
    .map((field) => (type === "underground" && field.name === "volume" ? { ...field, label: MEASURED_VOLUME_LABEL } : field));
  const bindings = def.dictionaries.map((binding) => ({ binding, fields: boundFields(def, binding) }));
  const bindingOf = new Map(bindings.flatMap((b) => b.fields.map((f) => [f.name, b] as const)));
  const gwp = def.settings.find((f) => f.name === "gwp_ch4");

  const rows: FormRow[] = [];
  const placed = new Set<BindingLayout>();
  const place = (field: NumberField) => {
    const binding = bindingOf.get(field.name);
    if (field.fixed !== undefined) rows.push({ kind: "fixed", field });
    else if (!binding) rows.push({ kind: "free", field });
    else {
      if (!placed.has(binding)) rows.push({ kind: "select", binding });
      placed.add(binding);
      rows.push({ kind: "bound", field, binding });
    }
  };
  inputs.forEach(place);
  // Settings a dictionary fills (recycle thresholds) follow the inputs; GWP goes last.
  def.settings.filter((f) => bindingOf.has(f.name)).forEach(place);
  if (gwp) rows.push({ kind: "gwp", field: gwp });

  return {
    type,
    bindings,
    free: inputs.filter((f) => f.fixed === undefined && !bindingOf.has(f.name)),
    fixed: inputs.filter((f) => f.fixed !== undefined),
    gwp,
    rows,
    dictionaries: [...bindings.map((b) => b.binding.dictionary), ...(gwp ? [GWP_DICTIONARY] : [])],
  };
}

// ---- state -------------------------------------------------------------------------------------

/** 8.1: the type whose measured release records its frequency and instruments. */
export const MEASURED_TYPE = "underground";
const storedNotes = (stored: Record<string, unknown> | undefined): Record<MeasurementNote, string> =>
  Object.fromEntries(
    MEASUREMENT_NOTE_NAMES.map((name) => [name, typeof stored?.[name] === "string" ? (stored[name] as string) : ""]),
  ) as Record<MeasurementNote, string>;

/** D17: the type's default basis; none for types other than underground mine methane. */
export const basisDefault = (type: string): MethaneBasis | undefined => basisOf(type, {});

export interface FormState {
  name: string;
  /** The chosen entry id, or «Фактическое значение», per dictionary; undefined: nothing matched. */
  choices: Readonly<Record<string, Choice | undefined>>;
  /** What was typed into free inputs and custom-mode fields, by field name. */
  texts: Readonly<Record<string, string>>;
  /** D10: why a custom value is what it is, by field name. */
  justifications?: Readonly<Record<string, string>>;
  gwpSet: number | undefined;
  /** D15, inventory types: counts in the year's inventory (primary) or is a cross-check (alternative). */
  inventoryRole?: InventoryRole;
  /** D17, underground mine methane: gross (before what is flared or used) or net. */
  basis?: MethaneBasis;
  /** Edit: dictionaries (GWP_DICTIONARY for the set) whose choice is as stored: their values stay the stored ones. */
  kept: readonly string[];
  /** D13: the unit each activity input is typed in, by field name; absent: the canonical unit. */
  units?: Readonly<Record<string, string>>;
  /** D14, underground: measurement periods as typed; undefined while one volume is typed instead. */
  periods?: readonly PeriodTexts[];
  /** D19: the part of the project's dates the calculation covers; undefined: the whole period. */
  period?: SourcePeriod;
  /** D25: the emission point of the project's facility; undefined: none chosen (the facility as a whole). */
  point?: string;
  /** D35, flares, boilers and engines: the drainage stations whose gas it burns; undefined or []: the facility's. */
  drainagePoints?: readonly string[];
  /** 8.1, underground: how the release was measured (frequency, instruments), as typed. */
  measurement?: Readonly<Record<MeasurementNote, string>>;
}

/** One measurement period's row as typed: dates «ДД.ММ.ГГГГ», numbers with a decimal comma. */
export type PeriodTexts = Readonly<Record<MeasuredPeriodField, string>>;

export interface FormContext {
  type: FormulaType;
  mode: EntryMode;
  /** Entries by dictionary name: every name of formLayout(type).dictionaries. */
  dictionaries: Readonly<Record<string, readonly DictionaryEntry[]>>;
  /** Edit: the calculation as stored. */
  stored?: Calculation;
  /** D12: the id of the GWP set in force for the project's reporting year (see gwpSetInForce). */
  gwpInForce?: number;
  /** D19: the project's dates, which the month and quarter pickers offer from; D25: its facility,
   *  whose emission points a measured or destruction calculation picks from. */
  project?: { start_date: string; end_date: string; facility?: string | null; reporting_year?: number };
}

/** D12, the server's rule (wasm-core/src/gwp-in-force.ts) over the dictionary entries as the web has them. */
export function gwpSetInForce(entries: readonly DictionaryEntry[], year: number | undefined): DictionaryEntry | undefined {
  if (year === undefined) return undefined;
  const num = (e: DictionaryEntry, f: string) => (typeof e[f] === "number" ? (e[f] as number) : 0);
  return setInForce(entries, year, (e) => ({
    id: e.id,
    yearFrom: num(e, "year_from"),
    yearTo: num(e, "year_to"),
    hasCh4: typeof e.gwp_ch4 === "number",
  }));
}

/** A number as an input starts with it (shared/decimals.ts): «845,5». */
export { numberText };

function storedNumber(stored: Calculation, field: string): number | undefined {
  const flat = stored[field];
  if (typeof flat === "number") return flat;
  return stored.coefficients[field]?.value;
}

const entryValue = (entry: DictionaryEntry | undefined, field: string): number | undefined => {
  const value = entry?.[field];
  return typeof value === "number" ? value : undefined;
};

/** An entry as the core's coefficient rules read it. */
function ruleEntry(entry: DictionaryEntry): CoefficientEntry {
  const values = Object.fromEntries(Object.keys(entry).map((field) => [field, entryValue(entry, field)]));
  return { id: entry.id, values };
}

function entryOf(ctx: FormContext, dictionary: string, id: Choice | undefined): DictionaryEntry | undefined {
  return typeof id === "number" ? ctx.dictionaries[dictionary]?.find((e) => e.id === id) : undefined;
}

/**
 * Edit (docs/user-guide.md): the entry a stored calculation used, by the server's rules (storedChoice): the
 * recorded entry, else the entry its values match, else «Фактическое значение», with a note when
 * the values were not the user's own.
 */
export function matchEntry(
  { binding, fields }: BindingLayout,
  stored: Calculation,
  entries: readonly DictionaryEntry[],
): { choice: Choice | undefined; note?: string } {
  const names = fields.map((f) => f.name);
  const choice = storedChoice(entries.map(ruleEntry), names, stored.coefficients, (name) => storedNumber(stored, name));
  if (typeof choice === "number") return { choice };
  if (names.some((name) => stored.coefficients[name]?.source === "custom")) return { choice: CUSTOM };
  return { choice: CUSTOM, note: `Расчет ${stored.id}: значения ${names.join(", ")} не найдены в справочнике ${binding.dictionary}` };
}

/** The dialog's starting point: the first entry of every list (create) or the stored calculation (edit). */
export function initialState(ctx: FormContext): FormState {
  const layout = formLayout(ctx.type);
  const { stored } = ctx;
  const texts: Record<string, string> = {};
  const choices: Record<string, Choice | undefined> = {};
  const justifications: Record<string, string> = {};

  const units: Record<string, string> = {};
  for (const field of layout.free) {
    // D13: a value entered in another unit reopens as it was typed.
    const entered = stored?.entered?.[field.name];
    if (entered) units[field.name] = entered.unit;
    // «1 250 000» reopens grouped as it was typed, never «1250000».
    texts[field.name] = groupedNumberText(entered ? entered.value : stored ? storedNumber(stored, field.name) : field.default);
  }
  for (const b of layout.bindings) {
    const entries = ctx.dictionaries[b.binding.dictionary] ?? [];
    if (!stored) {
      choices[b.binding.dictionary] = preselectedEntry(entries)?.id;
      continue;
    }
    const { choice, note } = matchEntry(b, stored, entries);
    if (note) console.info(note);
    choices[b.binding.dictionary] = choice;
    if (choice === CUSTOM) {
      for (const f of b.fields) {
        texts[f.name] = groupedNumberText(storedNumber(stored, f.name));
        const justification = stored.coefficients[f.name]?.justification;
        if (justification) justifications[f.name] = justification;
      }
    }
  }
  const gwpEntries = ctx.dictionaries[GWP_DICTIONARY] ?? [];
  const storedSet = stored?.coefficients.gwp_ch4?.item_id;
  const storedPeriods = stored && Array.isArray(stored.periods) ? (stored.periods as Record<string, unknown>[]) : undefined;
  return {
    name: stored?.name ?? "",
    ...(storedPeriods ? { periods: storedPeriods.map(periodTexts) } : {}),
    choices,
    texts,
    units,
    justifications,
    // D12: a new calculation takes the set in force for the project's year unless one is picked.
    gwpSet: stored ? gwpEntries.find((e) => e.id === storedSet)?.id : undefined,
    // D22: a new IPCC flare calculation starts as an alternative.
    ...(inventorySourceOf(ctx.type) ? { inventoryRole: stored?.inventory_role ?? defaultRoleOf(ctx.type) } : {}),
    ...(stored?.period ? { period: stored.period } : {}),
    ...(takesPoint(ctx.type) && stored?.point ? { point: stored.point } : {}),
    ...(burnsDrainedGas(ctx.type) && stored?.drainage_points ? { drainagePoints: stored.drainage_points } : {}),
    ...(basisDefault(ctx.type) ? { basis: basisOf(ctx.type, stored ?? {}) } : {}),
    ...(ctx.type === MEASURED_TYPE ? { measurement: storedNotes(stored) } : {}),
    kept: stored ? layout.dictionaries : [],
  };
}

export function isCustomFixed(binding: DictionaryBinding, field: string): boolean {
  return customFixedValue(binding, field) !== undefined;
}

/** Whether a bound field is typed by the user right now (custom mode, not fixed by it). */
export function isEditable(state: FormState, { binding }: BindingLayout, field: string): boolean {
  return state.choices[binding.dictionary] === CUSTOM && !isCustomFixed(binding, field);
}

export function boundValue(ctx: FormContext, state: FormState, { binding }: BindingLayout, field: string): number | undefined {
  const choice = state.choices[binding.dictionary];
  if (choice === CUSTOM) return customValue(binding, field, parseNumericInput(state.texts[field] ?? ""));
  if (ctx.stored && state.kept.includes(binding.dictionary)) return storedNumber(ctx.stored, field);
  return entryValue(entryOf(ctx, binding.dictionary, choice), field);
}

/** 4.8: the unit a field reads in with the entries chosen now (the registry's unitWith): the
 *  entry's own for its values, the fuel's for the consumption; the stored ones on an edit that keeps them. */
export function shownUnit(ctx: FormContext, state: FormState, field: NumberField): string {
  return unitWith(REGISTRY[ctx.type], field, (dictionary) => {
    const choice = state.choices[dictionary];
    if (ctx.stored && state.kept.includes(dictionary)) return usedEntry(ctx.stored.coefficients, dictionary);
    const entry = entryOf(ctx, dictionary, choice);
    return entry && { name: entry.name, units: entry.units };
  });
}

export function gwpValue(ctx: FormContext, state: FormState): number | undefined {
  if (ctx.stored && state.kept.includes(GWP_DICTIONARY)) return storedNumber(ctx.stored, "gwp_ch4");
  return entryValue(entryOf(ctx, GWP_DICTIONARY, state.gwpSet ?? ctx.gwpInForce), "gwp_ch4");
}

/** Every numeric field of the type (inputs and dictionary-filled settings) as the form holds it now. */
export function fieldValues(ctx: FormContext, state: FormState): Record<string, number | undefined> {
  const layout = formLayout(ctx.type);
  const values: Record<string, number | undefined> = {};
  for (const field of layout.free) {
    if (compositionHidden(ctx.type, state, field.name)) continue;
    const typed = parseNumericInput(state.texts[field.name] ?? "");
    const unit = entryUnit(state, field);
    // D13: the canonical value of what is typed in the unit chosen (the server's own rule).
    values[field.name] = typed === undefined || unit === field.unit ? typed : toCanonical(field, { value: typed, unit });
  }
  for (const field of layout.fixed) values[field.name] = field.fixed;
  for (const b of layout.bindings) for (const f of b.fields) values[f.name] = boundValue(ctx, state, b, f.name);
  return values;
}

/** D10: a typed «Фактическое значение» outside its field's plausible band (the server flags it
 *  custom_out_of_range) gets a warning under the field, by field name; saving still works. */
export function bandWarnings(ctx: FormContext, state: FormState): Record<string, string> {
  const found: Record<string, string> = {};
  for (const b of formLayout(ctx.type).bindings) {
    for (const field of b.fields) {
      if (!isEditable(state, b, field.name)) continue;
      const value = parseNumericInput(state.texts[field.name] ?? "");
      const band = value === undefined ? undefined : outsidePlausibleBand(field, value);
      if (!band) continue;
      const unit = field.unit ? ` ${field.unit}` : "";
      found[field.name] =
        `Значение вне правдоподобного диапазона (${formatStored(band.min)}–${formatStored(band.max)}${unit}): ` +
        "проверьте его и укажите обоснование. Расчет сохранится с отметкой.";
    }
  }
  return found;
}

// ---- changes -----------------------------------------------------------------------------------

export function chooseEntry(ctx: FormContext, state: FormState, dictionary: string, choice: Choice): FormState {
  const b = formLayout(ctx.type).bindings.find((x) => x.binding.dictionary === dictionary);
  if (!b) return state;
  const texts = { ...state.texts };
  // «Фактическое значение» starts from the values shown so far: the user corrects, not retypes.
  if (choice === CUSTOM && state.choices[dictionary] !== CUSTOM) {
    for (const f of b.fields) {
      if (!isCustomFixed(b.binding, f.name)) texts[f.name] = numberText(boundValue(ctx, state, b, f.name));
    }
  }
  return { ...state, choices: { ...state.choices, [dictionary]: choice }, texts, kept: state.kept.filter((k) => k !== dictionary) };
}

/** `id` undefined: «по отчетному году проекта», the set in force. */
export function chooseGwp(state: FormState, id: number | undefined): FormState {
  return { ...state, gwpSet: id, kept: state.kept.filter((k) => k !== GWP_DICTIONARY) };
}

export function setJustification(state: FormState, field: string, text: string): FormState {
  return { ...state, justifications: { ...state.justifications, [field]: text } };
}

/** a new calculation's coal production starts as the facility-year's coal output, in t,
 *  grouped as people type it («3 100»); a field already filled keeps its text. */
export function withCoalOutput(state: FormState, field: string, t: number): FormState {
  if ((state.texts[field] ?? "").trim() !== "") return state;
  return { ...state, texts: { ...state.texts, [field]: formatStored(t).replace(/\u00a0/g, " ") }, units: { ...state.units, [field]: "т" } };
}

/** The measurement notes an emission point keeps (Профиль → «Источники выбросов»), by the note they fill. */
const POINT_NOTES = { measurement_instruments: "instrument", measurement_frequency: "frequency" } as const satisfies Record<
  MeasurementNote,
  string
>;
type PointNotes = { readonly instrument?: string | null; readonly frequency?: string | null };

/** a point chosen for a measured calculation brings its instrument and frequency into the
 *  notes; a note the user typed (neither empty nor the previous point's) stays as typed. */
export function withPointNotes(state: FormState, previous: PointNotes | undefined, chosen: PointNotes | undefined): FormState {
  if (!state.measurement) return state;
  const measurement = { ...state.measurement };
  for (const note of MEASUREMENT_NOTE_NAMES) {
    const key = POINT_NOTES[note];
    const now = measurement[note] ?? "";
    if (now.trim() !== "" && now !== (previous?.[key] ?? "")) continue;
    measurement[note] = chosen?.[key] ?? "";
  }
  return { ...state, measurement };
}

export function setText(state: FormState, field: string, text: string): FormState {
  return { ...state, texts: { ...state.texts, [field]: text } };
}

// ---- units as users keep them (D13) ------------------------------------------------------------

/** The unit a field is typed in now: the one chosen, else the canonical one. */
export function entryUnit(state: FormState, field: NumberField): string {
  return state.units?.[field.name] ?? field.unit;
}

/** The text stays as typed: the unit says what it means (3 100 in thousand t is 3 100 000 t). */
export function chooseUnit(state: FormState, field: string, unit: string): FormState {
  return { ...state, units: { ...state.units, [field]: unit } };
}

// ---- measurement periods (D14) -----------------------------------------------------------------

/** Whether the type takes measurement periods instead of one volume (underground). */
export function takesPeriods(type: FormulaType): boolean {
  return REGISTRY[type].inputs.some((f) => f.name === "periods");
}

const PERIOD_COLUMNS = [...MEASURED_PERIOD.dates, ...MEASURED_PERIOD.numbers];
const blankPeriod = (): PeriodTexts => Object.fromEntries(PERIOD_COLUMNS.map((c) => [c.name, ""])) as PeriodTexts;

/** «2025-01-31» → «31.01.2025», as the dialog shows dates. */
export function dateText(iso: unknown): string {
  const match = typeof iso === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso) : null;
  return match ? ruDate(match[0]) : typeof iso === "string" ? iso : "";
}

/** A stored period (a row of the result table) as the dialog's texts. */
function periodTexts(row: Record<string, unknown>): PeriodTexts {
  return Object.fromEntries([
    ...MEASURED_PERIOD.dates.map((c) => [c.name, dateText(row[c.name])]),
    ...MEASURED_PERIOD.numbers.map((f) => [f.name, numberText(typeof row[f.name] === "number" ? (row[f.name] as number) : undefined)]),
  ]) as PeriodTexts;
}

/** Periods on (one blank row to start with) or off (one volume again). */
export function withPeriods(state: FormState, on: boolean): FormState {
  if (!on) return { ...state, periods: undefined };
  return { ...state, periods: state.periods?.length ? state.periods : [blankPeriod()] };
}

export function addPeriod(state: FormState): FormState {
  return { ...state, periods: [...(state.periods ?? []), blankPeriod()] };
}

export function removePeriod(state: FormState, index: number): FormState {
  return { ...state, periods: (state.periods ?? []).filter((_, i) => i !== index) };
}

export function setPeriodText(state: FormState, index: number, field: MeasuredPeriodField, text: string): FormState {
  return { ...state, periods: (state.periods ?? []).map((row, i) => (i === index ? { ...row, [field]: text } : row)) };
}

/** The periods as the API takes them: dates as typed, numbers parsed (a blank one left out). */
export function periodValues(state: FormState): Record<string, string | number | undefined>[] {
  return (state.periods ?? []).map((row) => ({
    ...Object.fromEntries(MEASURED_PERIOD.dates.map((c) => [c.name, row[c.name].trim()])),
    ...Object.fromEntries(MEASURED_PERIOD.numbers.map((f) => [f.name, parseNumericInput(row[f.name])])),
  }));
}

/** Whether a row of the form is given by the periods right now (volume, contents and their selector). */
/** D28: the gas composition of a boiler or engine is asked only for drained gas (the fuel
 *  «Каптированный шахтный метан»); for other fuels its fields are neither shown nor sent. */
export function compositionHidden(type: string, state: FormState, field: string): boolean {
  if (type !== "disposal_co2_stat_sources" || (field !== "w_ch4" && field !== "w_co2")) return false;
  return state.choices.get_disposal_co2_stat_sources !== MINE_GAS_FUEL_ENTRY;
}

export function givenByPeriods(state: FormState, row: FormRow): boolean {
  if (!state.periods) return false;
  if (row.kind === "select") return row.binding.binding.dictionary === PERIODS_GIVE.dictionary;
  return (PERIODS_GIVE.fields as readonly string[]).includes(row.field.name);
}

// ---- the live preview --------------------------------------------------------------------------

export interface PreviewArgs {
  inputs: Record<string, number | undefined>;
  coefficients: Record<string, number>;
}

/** What the core gets: registry inputs, and the settings (GWP, recycle thresholds) the server will use. */
export function previewArgs(ctx: FormContext, state: FormState): PreviewArgs {
  const def: CalculationDefinition = REGISTRY[ctx.type];
  const values = fieldValues(ctx, state);
  const inputs = Object.fromEntries(def.inputs.filter(isNumber).map((f) => [f.name, values[f.name]]));
  const coefficients: Record<string, number> = {};
  for (const setting of def.settings) {
    const value = setting.name === "gwp_ch4" ? gwpValue(ctx, state) : values[setting.name];
    if (value !== undefined) coefficients[setting.name] = value;
  }
  return { inputs, coefficients };
}

export type Preview = { kind: "results"; results: Record<string, unknown> } | { kind: "error"; field: string; message: string };

export type PreviewCore = Pick<EmissionsCore, "calculate" | "calculateBatch">;

/** The results the server will store for these inputs, or the field the core refuses. */
export function computePreview(core: PreviewCore, ctx: FormContext, state: FormState): Preview {
  const { inputs, coefficients } = previewArgs(ctx, state);
  try {
    if (state.periods) {
      // D14: the server's own rules: the periods checked, each through the core, their sums.
      const release = measuredRelease(
        core,
        checkPeriods(periodValues(state)),
        { p_co2: inputs.p_co2, p_ch4: inputs.p_ch4 },
        coefficients.gwp_ch4,
      );
      const { ef_ch4: _ch4, ef_co2: _co2, ...results } = release;
      return { kind: "results", results };
    }
    const results = core.calculate(ctx.type, inputs, coefficients) as Record<string, number | string>;
    return { kind: "results", results };
  } catch (error) {
    if (error instanceof FieldError) return { kind: "error", field: error.field, message: error.message };
    throw error;
  }
}

// ---- the request -------------------------------------------------------------------------------

/** True when an untouched edit choice names an entry that has a newer version than the one stored. */
function keptOlderVersion(ctx: FormContext, state: FormState, b: BindingLayout): boolean {
  if (!ctx.stored || !state.kept.includes(b.binding.dictionary)) return false;
  const entry = entryOf(ctx, b.binding.dictionary, state.choices[b.binding.dictionary]);
  return b.fields.some((f) => ctx.stored?.coefficients[f.name]?.item_version !== entry?.version);
}

/**
 * POST (create) or PATCH (edit) body: name, every value the preview used (the server refuses a
 * dictionary value that changed meanwhile, so what is stored is what was previewed), the chosen
 * entries (null = «Фактическое значение»), the GWP set and, on edit, the version we hold.
 */
export function buildPayload(ctx: FormContext, state: FormState, projectId?: string): Record<string, unknown> {
  const layout = formLayout(ctx.type);
  const body: Record<string, unknown> = { name: state.name.trim() };
  if (ctx.mode === "create") body.project = projectId;
  const fixed = new Set(layout.fixed.map((f) => f.name));
  for (const [name, value] of Object.entries(fieldValues(ctx, state))) {
    if (value !== undefined && !fixed.has(name)) body[name] = value;
  }
  const items: Record<string, number | null> = {};
  const justifications: Record<string, string | null> = {};
  for (const b of layout.bindings) {
    const choice = state.choices[b.binding.dictionary];
    if (choice === CUSTOM) {
      items[b.binding.dictionary] = null;
      for (const f of b.fields) {
        if (isCustomFixed(b.binding, f.name)) continue;
        const text = state.justifications?.[f.name]?.trim();
        if (text) justifications[f.name] = text;
        else if (ctx.stored?.coefficients[f.name]?.justification) justifications[f.name] = null;
      }
    }
    // An older stored version is kept by sending its values without the entry id.
    else if (typeof choice === "number" && !keptOlderVersion(ctx, state, b)) items[b.binding.dictionary] = choice;
  }
  // D13: what was typed in another unit than the canonical one, beside the canonical value (the
  // server checks they agree and keeps both).
  const entered: Record<string, { value: number; unit: string }> = {};
  for (const field of unitFields(REGISTRY[ctx.type]).values()) {
    const value = parseNumericInput(state.texts[field.name] ?? "");
    const byPeriods = state.periods && (PERIODS_GIVE.fields as readonly string[]).includes(field.name);
    if (value !== undefined && entryUnit(state, field) !== field.unit && !byPeriods) {
      entered[field.name] = { value, unit: entryUnit(state, field) };
    }
  }
  if (Object.keys(entered).length > 0) body.entered = entered;
  if (state.periods) {
    // D14: the periods give the volume and the contents; the server computes them from these.
    for (const name of PERIODS_GIVE.fields) delete body[name];
    for (const name of PERIODS_GIVE.fields) delete justifications[name];
    delete items[PERIODS_GIVE.dictionary];
    body.periods = periodValues(state);
  }
  if (Object.keys(items).length > 0) body.dictionary_items = items;
  if (Object.keys(justifications).length > 0) body.justifications = justifications;
  // D12: gwp_set only when the user picked one; a new calculation without it gets the set in force.
  // An edit that switches to «по отчетному году проекта» names that set (the server keeps the old one otherwise).
  if (layout.gwp && !(ctx.stored && state.kept.includes(GWP_DICTIONARY))) {
    const set = state.gwpSet ?? (ctx.stored ? ctx.gwpInForce : undefined);
    if (set !== undefined) body.gwp_set = set;
  }
  // D15, D22: the server's default is the type's (primary, or alternative for the IPCC flares); only a change is sent.
  const roleBefore = ctx.stored?.inventory_role ?? defaultRoleOf(ctx.type);
  if (state.inventoryRole && state.inventoryRole !== roleBefore) body.inventory_role = state.inventoryRole;
  // D19: the period when one is chosen; an edit back to the whole period sends null.
  if (state.period) body.period = state.period;
  else if (ctx.stored?.period) body.period = null;
  // D25: the point when one is chosen or changed; an edit back to none sends null.
  if (takesPoint(ctx.type) && state.point !== ctx.stored?.point) body.point = state.point ?? null;
  // D35: the drainage stations when chosen or changed; an edit back to none sends null.
  if (burnsDrainedGas(ctx.type)) {
    const chosen = [...(state.drainagePoints ?? [])].sort();
    const before = [...(ctx.stored?.drainage_points ?? [])].sort();
    if (chosen.join(",") !== before.join(",")) body.drainage_points = chosen.length > 0 ? chosen : null;
  }
  // D17: the basis is sent when it differs from what is stored (or the type's default).
  if (state.basis && state.basis !== basisOf(ctx.type, ctx.stored ?? {})) body.basis = state.basis;
  // 8.1: a note is sent when it differs from what is stored ("" clears it).
  if (state.measurement) {
    const before = storedNotes(ctx.stored);
    for (const name of MEASUREMENT_NOTE_NAMES) {
      if (state.measurement[name].trim() !== before[name]) body[name] = state.measurement[name].trim();
    }
  }
  if (ctx.mode === "edit" && ctx.stored) body.version = ctx.stored.version;
  return body;
}

/**
 * D14: the body with a file of periods (the Excel template or a monitoring system's CSV) instead of
 * typed ones, as the multipart form the server reads like a JSON body: objects as JSON, file_data.
 */
export function periodsFileForm(body: Record<string, unknown>, file: File): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (key === "periods" || value === undefined) continue;
    // D25: a point cleared in an edit is an empty field (the facility as a whole): the text «null»
    // would be read as a point's id. A JSON field's null is its JSON text.
    if (key === "point" && value === null) form.set(key, "");
    else form.set(key, typeof value === "object" && value !== null ? JSON.stringify(value) : String(value));
  }
  form.set("file_data", file, file.name);
  return form;
}

/** Where a message belongs in the dialog: "name", a field name, a dictionary name or GWP_DICTIONARY. */
export function messageTarget(layout: FormLayout, field: string): string | undefined {
  if (field === "name") return "name";
  if (/^periods(\[\d+\]\.\w+)?$/.test(field)) return field;
  if (field === "gwp_set" || field === "gwp_ch4") return layout.gwp ? GWP_DICTIONARY : undefined;
  const dictionary = /^dictionary_items\.(.+)$/.exec(field)?.[1];
  if (dictionary) return layout.bindings.some((b) => b.binding.dictionary === dictionary) ? dictionary : undefined;
  return layout.rows.some((r) => r.kind !== "select" && r.field.name === field) ? field : undefined;
}

/** A refusal's one problem at a field («volume», «Поле обязательно…») → the dialog target and the text;
 *  otherwise the whole detail. */
export function splitDetail(layout: FormLayout, refusal: Refusal): { target?: string; message: string } {
  const problem = fieldProblem(refusal);
  const target = problem ? messageTarget(layout, problem.field) : undefined;
  if (!problem || !target) return { message: refusal.detail };
  return { target, message: problem.message.charAt(0).toUpperCase() + problem.message.slice(1) };
}
