// Which value each coefficient of a calculation takes, and where it came from (methodology D9).
// The registry says which dictionary feeds which field; the request may name an entry
// (dictionary_items: {dictionary: id}), choose «Фактическое значение» (null), or just send values,
// which are then matched to an entry the way docs/user-guide.md matches stored calculations in edit mode.
// The rules are the core's (wasm-core/src/coefficient-rules.ts, shared with the dialog); here the
// entries are loaded and the versions used are recorded.
import type { CalculationDefinition, DictionaryBinding, NumberField } from "@core/registry";
import type { Deps } from "../context";
import { Conflict, invalidAt } from "../errors";
import { ACTIVITY_UNCERTAINTY, describeSource } from "../../dictionaries/reference-data";
import { ACTIVITY_KINDS, fuelUnitOf } from "@core/registry";
import {
  CUSTOM,
  boundFields,
  choiceForValues,
  customFixedValue,
  outsidePlausibleBand,
  preselectedEntry,
  sameNumber,
  type CoefficientEntry,
} from "@core/coefficient-rules";
import { getDictionaryItems, oneDictionaryCheck } from "./dictionaries";
import { GWP_DICTIONARY } from "@core/gwp-in-force";
import { gwpSetsOfYear } from "./gwp-years";
import type { StoredCalculation, CoefficientUse, DictionaryItemVersion, UsedUncertainty } from "../../ports";
import type { UncertaintyBody } from "../../contract/schemas/uncertainty";
import { JUSTIFICATION_MAX } from "../../contract/schemas/calculation-body";
import { lineOf } from "../../contract/field-errors";

export { GWP_DICTIONARY };
export const DEFAULT_GWP_SET = 1;

export interface CoefficientRequest {
  /** Field values as sent (numbers or anything; the core's facade validates them). */
  values: Record<string, unknown>;
  dictionary_items?: Record<string, number | null>;
  gwp_set?: number;
  /** The user's own uncertainty of an input (docs/methodology.md, Uncertainty); null: the default again. */
  uncertainty?: Record<string, UncertaintyBody | null>;
  /** Why a custom value (D10) is what it is, per field; null or "": no justification. */
  justifications?: Record<string, string | null>;
}

export { JUSTIFICATION_MAX };

/** D28: the input whose Order 371 value (the oxidation factor 1.0) is labelled the default. */
const ORDER_DEFAULT_INPUT = "of";

export interface ResolvedCoefficients {
  values: Record<string, unknown>;
  uses: Record<string, CoefficientUse>;
}

const numberFields = (def: CalculationDefinition) => [...def.inputs, ...def.settings].filter((f): f is NumberField => f.type === "number");

function fromItem(item: DictionaryItemVersion, field: string, dictionary: string): CoefficientUse {
  const v = item.values[field];
  const u = v.uncertainty;
  return {
    ...(u
      ? {
          uncertainty: {
            lower_pct: u.lower_pct,
            upper_pct: u.upper_pct,
            distribution: u.distribution,
            source: describeSource({ ref: u.source }),
            origin: "dictionary",
          },
        }
      : {}),
    value: v.value,
    unit: v.unit,
    source: "dictionary",
    dictionary,
    item_id: item.id,
    item_name: item.name,
    item_version: item.version,
    reference: describeSource(v),
  };
}

/** An entry as the core's rules read it: the number of each field. */
function ruleEntry(item: DictionaryItemVersion): CoefficientEntry {
  return { id: item.id, values: Object.fromEntries(Object.entries(item.values).map(([field, v]) => [field, v.value])) };
}

export async function resolveCoefficients(
  deps: Deps,
  def: CalculationDefinition,
  request: CoefficientRequest,
  previous?: Record<string, CoefficientUse>,
  /** D41: the reporting year whose version of the GWP set the calculation takes (the set's current
   *  one when not given). */
  reportingYear?: number,
): Promise<ResolvedCoefficients> {
  deps = oneDictionaryCheck(deps);
  const fields = new Map(numberFields(def).map((f) => [f.name, f]));
  const values: Record<string, unknown> = {};
  const uses: Record<string, CoefficientUse> = {};
  const settingNames = new Set(def.settings.map((s) => s.name));

  for (const field of fields.values()) {
    if (field.fixed !== undefined) {
      const sent = request.values[field.name];
      if (sent !== undefined && sent !== null && sent !== field.fixed) {
        throw invalidAt(field.name, `значение фиксировано и равно ${String(field.fixed).replace(".", ",")}`);
      }
      values[field.name] = field.fixed;
      uses[field.name] = { value: field.fixed, unit: field.unit, source: "fixed" };
    }
  }

  for (const binding of def.dictionaries) {
    const bound = boundFields(def, binding).map((f) => f.name);
    const choice = request.dictionary_items?.[binding.dictionary];
    const entries = await getDictionaryItems(deps, binding.dictionary);

    if (choice === null) {
      for (const name of bound) custom(name, binding);
      continue;
    }
    if (typeof choice === "number") {
      const item = entries.find((e) => e.id === choice);
      if (!item) throw invalidAt(`dictionary_items.${binding.dictionary}`, `запись ${choice} не найдена`);
      for (const name of bound) {
        const sent = request.values[name];
        if (sent !== undefined && sent !== null && !sameNumber(sent, item.values[name].value)) {
          throw new Conflict(
            lineOf({ field: name, message: `значение справочника изменилось (${item.values[name].value}); обновите форму расчета` }),
          );
        }
        values[name] = item.values[name].value;
        uses[name] = fromItem(item, name, binding.dictionary);
      }
      continue;
    }
    if (choice !== undefined) throw invalidAt(`dictionary_items.${binding.dictionary}`, `ожидается номер записи или null`);

    const sentAny = bound.some((name) => request.values[name] !== undefined && request.values[name] !== null);
    // Settings nobody sent take the first entry (docs/user-guide.md: the first entry is preselected).
    if (!sentAny && bound.every((name) => settingNames.has(name))) {
      const keep = previous && bound.every((name) => previous[name]);
      const first = preselectedEntry(entries);
      for (const name of bound) {
        if (keep) uses[name] = previous[name];
        else if (first) uses[name] = fromItem(first, name, binding.dictionary);
        values[name] = uses[name]?.value;
      }
      continue;
    }
    // An edit that leaves the values as they were keeps the entry versions it used.
    if (
      previous &&
      bound.every((name) => previous[name] && sameNumber(request.values[name] ?? previous[name].value, previous[name].value))
    ) {
      for (const name of bound) {
        uses[name] = previous[name];
        values[name] = previous[name].value;
      }
      continue;
    }
    const matched = choiceForValues(entries.map(ruleEntry), bound, (name) => request.values[name]);
    const match = entries.find((item) => item.id === matched);
    if (match) {
      for (const name of bound) {
        values[name] = match.values[name].value;
        uses[name] = fromItem(match, name, binding.dictionary);
      }
    } else if (matched === CUSTOM) {
      // D10: values that match no entry are the mine's own («Фактическое значение»).
      for (const name of bound) custom(name, binding);
    } else {
      for (const name of bound) values[name] = undefined; // the facade reports the missing field
    }
  }

  function custom(name: string, binding: DictionaryBinding) {
    const fixed = customFixedValue(binding, name);
    const value = fixed ?? request.values[name];
    values[name] = value;
    uses[name] = { value: value as number, unit: fields.get(name)!.unit, source: fixed !== undefined ? "fixed" : "custom" };
  }

  if (fields.has("gwp_ch4")) {
    const keep = request.gwp_set === undefined && previous?.gwp_ch4;
    if (keep) {
      uses.gwp_ch4 = previous.gwp_ch4;
    } else {
      const setId = request.gwp_set ?? DEFAULT_GWP_SET;
      const sets = reportingYear === undefined ? await getDictionaryItems(deps, GWP_DICTIONARY) : await gwpSetsOfYear(deps, reportingYear);
      const item = sets.find((e) => e.id === setId);
      if (!item?.values.gwp_ch4) throw invalidAt("gwp_set", `набор ПГП ${setId} не найден`);
      uses.gwp_ch4 = fromItem(item, "gwp_ch4", GWP_DICTIONARY);
    }
    values.gwp_ch4 = uses.gwp_ch4.value;
  }

  // Everything else is what the user typed (volume, free settings such as sensitivity's δ).
  for (const field of fields.values()) {
    if (field.name in values) continue;
    const sent = request.values[field.name];
    // D28: the oxidation factor at the Order's 1.0 is its default, sent or not (the form fills it in):
    // never «Введено пользователем».
    const orderValue = field.name === ORDER_DEFAULT_INPUT && sent === field.default;
    if ((sent === undefined || orderValue) && !settingNames.has(field.name) && field.default !== undefined) {
      // D28: an input the Order gives a value (the oxidation factor) takes it when left out.
      values[field.name] = field.default;
      uses[field.name] = { value: field.default, unit: field.unit, source: "order_default" };
      continue;
    }
    // An edit sends the stored inputs back: a value that came by default stays labelled so.
    if (previous?.[field.name]?.source === "order_default" && sent === previous[field.name].value) {
      uses[field.name] = previous[field.name];
      values[field.name] = sent;
      continue;
    }
    if (sent === undefined && settingNames.has(field.name)) {
      if (previous?.[field.name]) {
        uses[field.name] = previous[field.name];
        values[field.name] = previous[field.name].value;
      } else if (field.default !== undefined) {
        values[field.name] = field.default;
        uses[field.name] = { value: field.default, unit: field.unit, source: "default" };
      }
      continue;
    }
    values[field.name] = sent;
    if (typeof sent === "number") uses[field.name] = { value: sent, unit: inputUnit(field, uses), source: "input" };
  }
  justify(request, uses, previous);
  for (const [name, text] of Object.entries(request.justifications ?? {})) {
    if (text !== null && typeof text !== "string") throw invalidAt(`justifications.${name}`, `ожидается текст`);
    if (typeof text === "string" && text.length > JUSTIFICATION_MAX) {
      throw invalidAt(`justifications.${name}`, `не более ${JUSTIFICATION_MAX} символов`);
    }
    if (uses[name]?.source !== "custom") {
      throw invalidAt(`justifications.${name}`, `обоснование указывается только для фактического значения коэффициента`);
    }
  }
  await attachUncertainties(deps, def, request, uses, previous);
  return { values, uses };
}

/** 4.8: a fuel's consumption is recorded in its entry's unit (thousand m³ of a gas, t of a solid or
 *  liquid fuel), read from the entry the calculation's coefficients came from; else the field's. */
function inputUnit(field: NumberField, uses: Record<string, CoefficientUse>): string {
  if (!field.unitByEntry) return field.unit;
  const entry = Object.values(uses).find((use) => use.dictionary === field.unitByEntry && use.item_name);
  return fuelUnitOf(entry?.item_name) ?? field.unit;
}

/** Each custom value's justification: the one sent, else (an edit that does not mention it) the
 *  one recorded before, with the evidence file recorded before. */
function justify(request: CoefficientRequest, uses: Record<string, CoefficientUse>, previous?: Record<string, CoefficientUse>) {
  for (const [name, use] of Object.entries(uses)) {
    if (use.source !== "custom") continue;
    const before = previous?.[name]?.source === "custom" ? previous[name] : undefined;
    const sent = request.justifications?.[name];
    const text = sent === undefined ? before?.justification : typeof sent === "string" ? sent.trim() : undefined;
    const { justification: _j, evidence: _e, ...next } = use;
    uses[name] = { ...next, ...(text ? { justification: text } : {}), ...(before?.evidence ? { evidence: before.evidence } : {}) };
  }
}

/** D12: whether the calculation's GWP set differs from the one in force for its project's
 *  reporting year when it was computed; undefined where that is not known (no GWP, or computed
 *  before reporting years existed). */
export function gwpNotInForce(calculation: Pick<StoredCalculation, "coefficients" | "gwp_in_force">): boolean | undefined {
  const set = calculation.coefficients?.gwp_ch4?.item_id;
  if (!calculation.gwp_in_force || set === undefined) return undefined;
  return set !== calculation.gwp_in_force.set;
}

/** What a reader of the calculation should check (D10): a custom coefficient with no
 *  justification, and one outside the plausible band of its field. */
export function coefficientFlags(def: CalculationDefinition, uses: Record<string, CoefficientUse>): string[] {
  const fields = new Map(numberFields(def).map((f) => [f.name, f]));
  const inputs = new Set<string>(def.inputs.filter((f) => f.type === "number" && f.fixed === undefined).map((f) => f.name));
  const flags: string[] = [];
  for (const [name, use] of Object.entries(uses ?? {})) {
    if (use.source !== "custom") continue;
    if (!use.justification) flags.push(`custom_without_justification:${name}`);
    const field = fields.get(name);
    if (field && outsidePlausibleBand(field, use.value)) flags.push(`custom_out_of_range:${name}`);
    // D23: an input's own value without its own uncertainty (its dictionary field's band applies).
    if (inputs.has(name) && use.uncertainty?.origin !== "user") flags.push(`custom_without_uncertainty:${name}`);
  }
  return flags;
}

export const USER_UNCERTAINTY_SOURCE = "Задано пользователем";

/** Each input's uncertainty: the user's own (kept on an edit that does not mention it), else the
 *  dictionary entry's (fromItem), else the activity-uncertainty entry of an activity input. */
async function attachUncertainties(
  deps: Deps,
  def: CalculationDefinition,
  request: CoefficientRequest,
  uses: Record<string, CoefficientUse>,
  previous?: Record<string, CoefficientUse>,
): Promise<void> {
  const inputs = new Map(def.inputs.filter((f): f is NumberField => f.type === "number").map((f) => [f.name, f]));
  for (const name of Object.keys(request.uncertainty ?? {})) {
    const field = inputs.get(name);
    if (!field) throw invalidAt(`uncertainty.${name}`, `у расчета нет такого исходного значения`);
    if (field.fixed !== undefined) throw invalidAt(`uncertainty.${name}`, `значение фиксировано методикой`);
  }
  let activity: DictionaryItemVersion[] | undefined;
  for (const field of inputs.values()) {
    const found = uses[field.name];
    if (!found || field.fixed !== undefined || found.source === "fixed") continue;
    // A copy: a use kept from the previous version must not change under it.
    const use: CoefficientUse = { ...found };
    uses[field.name] = use;
    const sent = request.uncertainty?.[field.name];
    const earlier = previous?.[field.name]?.uncertainty;
    if (sent) {
      use.uncertainty = userUncertainty(sent);
      continue;
    }
    if (sent === undefined && earlier?.origin === "user") {
      use.uncertainty = earlier;
      continue;
    }
    if (use.uncertainty?.origin === "user") {
      // Back to the default: the dictionary entry's, as of the version the calculation uses.
      delete use.uncertainty;
      if (use.source === "dictionary" && use.dictionary && use.item_id !== undefined) {
        const item = (await getDictionaryItems(deps, use.dictionary)).find((i) => i.id === use.item_id);
        const restored = item && item.version === use.item_version ? fromItem(item, field.name, use.dictionary).uncertainty : undefined;
        if (restored) use.uncertainty = restored;
      }
    }
    if (use.source === "custom") {
      // D23: a «Фактическое значение» without its own uncertainty takes its dictionary field's band.
      const band = await dictionaryBand(deps, def, field.name);
      if (band) use.uncertainty = band;
      else delete use.uncertainty;
      continue;
    }
    if (use.uncertainty || !field.activity || use.source !== "input") continue;
    activity ??= await getDictionaryItems(deps, ACTIVITY_UNCERTAINTY);
    const item = activity.find((i) => i.id === ACTIVITY_KINDS[field.activity!]);
    const u = item?.values.u?.uncertainty;
    if (!item || !u) continue;
    use.uncertainty = {
      lower_pct: u.lower_pct,
      upper_pct: u.upper_pct,
      distribution: u.distribution,
      source: `${item.name}: ${describeSource({ ref: u.source })}`,
      origin: "activity",
      item_id: item.id,
      item_version: item.version,
    };
  }
}

/** D23: the band of a dictionary field: the widest of its entries' (each side at its largest), so
 *  an own value without its own uncertainty is never taken as more certain than the table. */
async function dictionaryBand(deps: Deps, def: CalculationDefinition, name: string): Promise<UsedUncertainty | undefined> {
  const binding = def.dictionaries.find((b) => boundFields(def, b).some((f) => f.name === name));
  if (!binding) return undefined;
  const bands = (await getDictionaryItems(deps, binding.dictionary)).flatMap((item) => {
    const u = item.values[name]?.uncertainty;
    return u ? [u] : [];
  });
  if (bands.length === 0) return undefined;
  const widest = bands.reduce((a, b) => (Math.max(b.lower_pct, b.upper_pct) > Math.max(a.lower_pct, a.upper_pct) ? b : a));
  return {
    lower_pct: Math.max(...bands.map((u) => u.lower_pct)),
    upper_pct: Math.max(...bands.map((u) => u.upper_pct)),
    distribution: widest.distribution,
    source: `${describeSource({ ref: widest.source })}; своя неопределенность не указана`,
    origin: "dictionary",
  };
}

function userUncertainty(sent: UncertaintyBody): UsedUncertainty {
  return {
    lower_pct: sent.lower_pct,
    upper_pct: sent.upper_pct,
    distribution: sent.distribution,
    source: sent.source?.trim() || USER_UNCERTAINTY_SOURCE,
    origin: "user",
  };
}
