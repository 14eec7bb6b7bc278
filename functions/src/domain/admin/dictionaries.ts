// Coefficient changes in /admin: a new version of the dictionary item (effective date, who, why)
// through changeCoefficient, so stored calculations keep the version they used; logged with the
// item before and after.
import type { Actor, Deps } from "../context";
import { changeCoefficient, getDictionaryItem, toEntry, type CoefficientChange } from "../reference/dictionaries";
import { refuseFrozenAnywhere } from "../inventory/freeze";
import { GWP_DICTIONARY, REPORTING_YEAR_MAX, REPORTING_YEAR_MIN, setInForceOfYear } from "../reference/gwp-years";
import type { DictionaryItemVersion } from "../../ports";
import type { DictionaryEntry } from "../../contract/views";
import { assertAdmin, recordChange } from "../audit";

export async function changeCoefficientAsAdmin(
  deps: Deps,
  actor: Actor,
  name: string,
  id: number,
  change: CoefficientChange,
): Promise<DictionaryEntry> {
  assertAdmin(actor);
  const before = await getDictionaryItem(deps, name, id);
  const next = await changeCoefficient(deps, name, id, change, actor.email, (version) => guardGwpRedating(deps, name, version));
  await recordChange(deps, actor, {
    action: "dictionary.change",
    target_type: "dictionary_item",
    target_id: `${name}/${id}`,
    target_label: `${name} №${id} «${next.name}»: ${change.field}`,
    before: { ...toEntry(before), changed_at: before.changed_at, changed_by: before.changed_by, reason: before.reason },
    after: { ...toEntry(next), changed_at: next.changed_at, changed_by: next.changed_by, reason: next.reason },
  });
  return toEntry(next);
}

/** D41: an edit of a GWP set takes effect for reporting years from its effective_from on; one that
 *  would change the set in force for a year some company has frozen — which set, or the values of
 *  its version that applies to the year (a GWP, year_from, year_to) — is refused (409) naming those
 *  years: the inventory turns CH4 into CO2-eq by the set in force live (inventory/year.ts). */
async function guardGwpRedating(deps: Deps, name: string, next: DictionaryItemVersion) {
  if (name !== GWP_DICTIONARY) return;
  const before = await deps.repos.dictionaries.versions(name);
  const after = [...before, next];
  const moved = new Set<number>();
  for (let year = REPORTING_YEAR_MIN; year <= REPORTING_YEAR_MAX; year++) {
    const was = setInForceOfYear(before, year);
    const will = setInForceOfYear(after, year);
    if (was?.id !== will?.id || was?.version !== will?.version) moved.add(year);
  }
  await refuseFrozenAnywhere(deps, moved, (years) => `Набор ПГП, действующий для ${years}, изменить нельзя`);
}
