// Methodology D107 in the calculation form: a value typed as «Фактическое значение» with its stated
// uncertainty and justification may be kept as the mine's own factor (v1/company/factors/), and a
// kept one is offered to the next calculation, which takes its value, unit, uncertainty and
// justification as they are, so that it is one shared source with the calculations that typed the same.
import type { NumberField } from "@core/registry";
import type { OwnFactor, OwnFactorBody } from "../../api/ownFactors";
import { displayDate } from "../../shared/dates";
import { formatStored, numberText, parseNumericInput } from "../../shared/decimals";
import type { UncertaintyDraft } from "../../shared/uncertainty/UncertaintyEditor";
import type { FormState } from "./form";

export const KEEP_OWN_FACTOR = "Сохранить как собственный коэффициент шахты";

/** What the typed value keeps as an own factor, or what it still lacks to be kept. */
export type Keepable = { body: OwnFactorBody; missing?: undefined } | { body?: undefined; missing: string };

/** The own factor the field's typed value, justification and own uncertainty make (D107). */
export function keepableOf(
  type: string,
  field: NumberField,
  text: string,
  justification: string,
  draft: UncertaintyDraft | undefined,
): Keepable {
  const value = parseNumericInput(text);
  if (value === undefined) return { missing: "введите значение" };
  const why = justification.trim();
  if (!why) return { missing: "введите обоснование" };
  const lower = draft?.on ? parseNumericInput(draft.lower) : undefined;
  const upper = draft?.on ? parseNumericInput(draft.upper) : undefined;
  if (lower === undefined || upper === undefined || (lower === 0 && upper === 0) || lower > 100 || upper > 1000 || lower < 0 || upper < 0)
    return { missing: "укажите свою неопределенность значения" };
  return {
    body: {
      type,
      field: field.name,
      value,
      unit: field.unit,
      uncertainty: { lower_pct: lower, upper_pct: upper, distribution: draft!.distribution },
      justification: why,
    },
  };
}

/** The kept entry the typed value is, if any: the same value, unit, uncertainty and justification. */
export function keptAs(entries: readonly OwnFactor[], body: OwnFactorBody | undefined): OwnFactor | undefined {
  if (!body) return undefined;
  return entries.find(
    (e) =>
      e.type === body.type &&
      e.field === body.field &&
      e.value === body.value &&
      e.unit === (body.unit ?? e.unit) &&
      e.uncertainty.lower_pct === body.uncertainty.lower_pct &&
      e.uncertainty.upper_pct === body.uncertainty.upper_pct &&
      e.uncertainty.distribution === body.uncertainty.distribution &&
      e.justification === body.justification.trim(),
  );
}

/** The entry's stated uncertainty as «±10 %» or «−5 % / +20 %». */
export function uncertaintyText({ lower_pct, upper_pct }: OwnFactor["uncertainty"]): string {
  return lower_pct === upper_pct ? `±${formatStored(lower_pct)} %` : `−${formatStored(lower_pct)} % / +${formatStored(upper_pct)} %`;
}

/** How an entry reads in the list: its value with unit and uncertainty, the justification, when kept. */
export function ownFactorLabel(entry: OwnFactor): string {
  const unit = entry.unit && entry.unit !== "—" ? ` ${entry.unit}` : "";
  return `${formatStored(entry.value)}${unit} ${uncertaintyText(entry.uncertainty)} — ${entry.justification} (${displayDate(entry.created_at)})`;
}

/** Who kept the entry and when, as the form says it under the value. */
export function keptText(entry: OwnFactor): string {
  return `Собственный коэффициент шахты: сохранен ${displayDate(entry.created_at)}, ${entry.created_by_name ?? entry.created_by}`;
}

/** The form with the entry taken: its value typed, its justification, and its uncertainty as the field's own. */
export function takeOwnFactor(state: FormState, entry: OwnFactor): FormState {
  return {
    ...state,
    texts: { ...state.texts, [entry.field]: numberText(entry.value) },
    justifications: { ...state.justifications, [entry.field]: entry.justification },
  };
}

export function draftOf(entry: OwnFactor): UncertaintyDraft {
  return {
    on: true,
    lower: numberText(entry.uncertainty.lower_pct),
    upper: numberText(entry.uncertainty.upper_pct),
    distribution: entry.uncertainty.distribution,
  };
}
