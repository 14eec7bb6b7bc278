// Coefficient changes in /admin: a new version of the dictionary item (effective date, who, why)
// through changeCoefficient, so stored calculations keep the version they used; logged with the
// item before and after.
import type { Actor, Deps } from "../context";
import { changeCoefficient, getDictionaryItem, getDictionaryItems, toEntry, type CoefficientChange } from "../reference/dictionaries";
import { refuseFrozenAnywhere } from "../inventory/freeze";
import { GWP_DICTIONARY, REPORTING_YEAR_MAX, REPORTING_YEAR_MIN, setInForce } from "../reference/gwp-years";
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

/** D32: a change of a GWP set (a re-dating) that would change the set in force for a year some
 *  company has frozen is refused (409): the inventory turns CH4 into CO2-eq by the set in force live
 *  (inventory/year.ts). A value corrected within the set in force is not refused: it shows as the
 *  check «изменено после утверждения» (inventory/checks.ts). */
async function guardGwpRedating(deps: Deps, name: string, next: DictionaryItemVersion) {
  if (name !== GWP_DICTIONARY) return;
  const before = await getDictionaryItems(deps, name);
  const after = before.map((set) => (set.id === next.id ? next : set));
  const moved = new Set<number>();
  for (let year = REPORTING_YEAR_MIN; year <= REPORTING_YEAR_MAX; year++) {
    if (setInForce(before, year)?.id !== setInForce(after, year)?.id) moved.add(year);
  }
  await refuseFrozenAnywhere(deps, moved, (year) => `набор ПГП, действующий для ${year} года, изменить нельзя`);
}
