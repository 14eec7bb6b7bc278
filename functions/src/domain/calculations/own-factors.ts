// A company's own factors (methodology D107): a value the mine typed into a calculation as
// «Фактическое значение» with its stated uncertainty and justification, kept as the company's entry
// for that input of that calculation type. A calculation that takes the entry records the identical
// typed value (`source: custom`, the same value, unit, uncertainty and justification), so it is one
// shared source with every calculation that typed the same (`typedShare`, D107). An entry is a record:
// written once with who and when, never edited in place; another justification is another entry.
import type * as z from "zod";
import { typedShare } from "@core/calculation-uncertainty";
import { REGISTRY, isCalculationType, type CalculationDefinition, type NumberField } from "@core/registry";
import type { ownFactorCreateSchema, ownFactorSchema } from "../../contract/schemas/own-factors";
import { LIMITS } from "../../contract/schemas/limits";
import type { OwnFactor } from "../../ports";
import type { Actor, Deps } from "../context";
import { Conflict, invalidAt } from "../errors";
import { newId } from "../ids";
import { namesByEmail } from "../person-name";

export type OwnFactorBody = z.output<typeof ownFactorCreateSchema>;
export type OwnFactorAnswer = z.output<typeof ownFactorSchema>;

/** The input an own factor may be kept for: a number a dictionary entry fills (D10), so it may be typed
 *  as «Фактическое значение»; not one that mode fixes. */
export function ownFactorField(type: string, field: string): { def: CalculationDefinition; field: NumberField } {
  if (!isCalculationType(type)) throw invalidAt("type", "неизвестный тип расчета");
  const def: CalculationDefinition = REGISTRY[type];
  const binding = def.dictionaries.find((b) => b.fields.includes(field));
  const number = [...def.inputs, ...def.settings].find((f): f is NumberField => f.name === field && f.type === "number");
  if (!binding || !number || binding.custom?.fixed?.[field] !== undefined)
    throw invalidAt("field", `у расчета «${def.title}» нет коэффициента, который вводится фактическим значением, с таким именем`);
  return { def, field: number };
}

/** The entry to keep, checked: the field's own unit, a value within its bounds, the justification trimmed. */
export function checkedOwnFactor(body: OwnFactorBody): Omit<OwnFactor, "company" | "id" | "created_at" | "created_by"> {
  const { field } = ownFactorField(body.type, body.field);
  const unit = body.unit ?? field.unit;
  if (unit !== field.unit) throw invalidAt("unit", `ожидается «${field.unit}»: единица поля «${field.label}»`);
  if (body.value < field.min) throw invalidAt("value", `не меньше ${field.min}`);
  if (field.max !== undefined && body.value > field.max) throw invalidAt("value", `не больше ${field.max}`);
  const { lower_pct, upper_pct, distribution } = body.uncertainty;
  if (lower_pct === 0 && upper_pct === 0) throw invalidAt("uncertainty", "укажите неопределенность значения (−%, +%)");
  const justification = body.justification.trim();
  if (!justification) throw invalidAt("justification", "введите обоснование");
  return {
    type: body.type,
    field: body.field,
    value: body.value,
    unit,
    uncertainty: { lower_pct, upper_pct, distribution },
    justification,
  };
}

/** D107's key of the value an entry keeps: what a calculation that takes it, or types it, is grouped by. */
export const ownFactorShare = (entry: Pick<OwnFactor, "type" | "field" | "value" | "unit" | "uncertainty" | "justification">) =>
  typedShare(
    entry.type,
    entry.field,
    { value: entry.value, source: "custom", uncertainty: entry.uncertainty, justification: entry.justification },
    entry.unit,
  );

function answer(entry: OwnFactor, names: ReadonlyMap<string, string>): OwnFactorAnswer {
  const { company: _company, ...rest } = entry;
  const { def, field } = ownFactorField(entry.type, entry.field);
  const name = names.get(entry.created_by);
  return { ...rest, type_label: def.title, field_label: field.label, ...(name ? { created_by_name: name } : {}) };
}

/** Keeps a typed value as the company's own factor. The same value, unit, uncertainty and justification
 *  for the same input kept already is 409: it is that entry. */
export async function createOwnFactor(deps: Deps, actor: Actor, body: OwnFactorBody): Promise<OwnFactorAnswer> {
  const checked = checkedOwnFactor(body);
  const kept = await deps.repos.ownFactors.list(actor.company);
  const share = ownFactorShare(checked);
  if (kept.some((entry) => ownFactorShare(entry) === share))
    throw new Conflict("Такой собственный коэффициент шахты уже сохранен: выберите его в списке");
  if (kept.length >= LIMITS.ownFactors.perCompany)
    throw new Conflict(`У компании уже ${LIMITS.ownFactors.perCompany} собственных коэффициентов`);
  const entry: OwnFactor = {
    id: newId(),
    company: actor.company,
    ...checked,
    created_at: deps.clock.now().toISOString(),
    created_by: actor.email,
  };
  await deps.repos.ownFactors.add(entry);
  return answer(entry, await namesByEmail(deps.repos, actor.company));
}

/** The company's own factors, newest first; of one calculation type and input when asked. */
export async function listOwnFactors(deps: Deps, actor: Actor, filter: { type?: string; field?: string }): Promise<OwnFactorAnswer[]> {
  const [kept, names] = await Promise.all([deps.repos.ownFactors.list(actor.company), namesByEmail(deps.repos, actor.company)]);
  return kept
    .filter((entry) => (!filter.type || entry.type === filter.type) && (!filter.field || entry.field === filter.field))
    .reverse()
    .map((entry) => answer(entry, names));
}
