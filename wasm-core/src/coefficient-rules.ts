// Which dictionary entry a coefficient value belongs to (docs/user-guide.md, conventions: dialogs; D10): the one set of rules the
// server stores by and the dialog previews by. Entries come in as data; loading them and recording
// the versions used is the caller's business. Browser-safe: no Node imports.
import { customMode, plausibleBand, type CalculationDefinition, type DictionaryBinding, type NumberField } from "./registry";

/** A dictionary entry as the rules see it: its id and the number each field takes. */
export interface CoefficientEntry {
  readonly id: number;
  readonly values: Readonly<Record<string, number | undefined>>;
}

/** «Фактическое значение» instead of an entry: the bound fields are the user's own (D10). */
export const CUSTOM = "custom";
export type EntryChoice = number | typeof CUSTOM;

/** How a stored calculation recorded where a coefficient came from (the parts the rules read). */
export interface RecordedUse {
  readonly source: string;
  readonly item_id?: number;
}

/** Equal numbers only: a missing value never matches, not even a missing entry value. */
export function sameNumber(a: unknown, b: unknown): boolean {
  return typeof a === "number" && a === b;
}

const given = (value: unknown) => value !== undefined && value !== null;

const isNumberField = (field: { type: string }): field is NumberField => field.type === "number";

/** The fields a binding's entry fills, in binding order; those the registry fixes are not the entry's. */
export function boundFields(def: CalculationDefinition, binding: DictionaryBinding): NumberField[] {
  const numbers = new Map([...def.inputs.filter(isNumberField), ...def.settings].map((f) => [f.name, f]));
  return binding.fields.map((name) => numbers.get(name)).filter((f): f is NumberField => f !== undefined && f.fixed === undefined);
}

/** docs/user-guide.md: with nothing chosen yet, the first entry of the list is preselected. */
export function preselectedEntry<E>(entries: readonly E[]): E | undefined {
  return entries[0];
}

/** The first entry whose every bound field equals the value given for it. */
export function matchingEntry<E extends CoefficientEntry>(
  entries: readonly E[],
  fields: readonly string[],
  value: (field: string) => unknown,
): E | undefined {
  return entries.find((entry) => fields.every((field) => sameNumber(value(field), entry.values[field])));
}

/**
 * Values given without naming an entry: the entry they match; values that match no entry are
 * «Фактическое значение» (D10); undefined when no bound field was given at all.
 */
export function choiceForValues(
  entries: readonly CoefficientEntry[],
  fields: readonly string[],
  value: (field: string) => unknown,
): EntryChoice | undefined {
  const match = matchingEntry(entries, fields, value);
  if (match) return match.id;
  return fields.some((field) => given(value(field))) ? CUSTOM : undefined;
}

/**
 * The choice a stored calculation made, for its edit (docs/user-guide.md): «Фактическое значение» if any
 * bound field was the user's own; else the one entry it recorded, while that entry exists; else
 * whatever its values match (choiceForValues).
 */
export function storedChoice(
  entries: readonly CoefficientEntry[],
  fields: readonly string[],
  uses: Readonly<Record<string, RecordedUse | undefined>>,
  value: (field: string) => unknown,
): EntryChoice | undefined {
  const recorded = fields.map((field) => uses[field]);
  if (recorded.some((use) => use?.source === "custom")) return CUSTOM;
  const ids = new Set(recorded.map((use) => (use?.source === "dictionary" ? use.item_id : undefined)));
  const [id] = ids;
  if (ids.size === 1 && id !== undefined && entries.some((entry) => entry.id === id)) return id;
  return choiceForValues(entries, fields, value);
}

/** The value the methodology fixes for a field in «Фактическое значение» (open_mining_ch4: koef_transform 0.67). */
export function customFixedValue(binding: DictionaryBinding, field: string): number | undefined {
  return customMode(binding).fixed?.[field];
}

/** A bound field's value in «Фактическое значение»: the fixed one where there is one, else the user's. */
export function customValue<V>(binding: DictionaryBinding, field: string, typed: V): number | V {
  return customFixedValue(binding, field) ?? typed;
}

/** D10: the plausible band a user's own value falls outside of (the server flags it, the dialog
 *  warns); undefined when the value is inside, bounds included, or the field has no band. */
export function outsidePlausibleBand(field: NumberField, value: number): { readonly min: number; readonly max: number } | undefined {
  const band = plausibleBand(field);
  return band && (value < band.min || value > band.max) ? band : undefined;
}
