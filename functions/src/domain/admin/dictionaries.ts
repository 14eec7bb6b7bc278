// Coefficient changes in /admin: a new version of the dictionary item (effective date, who, why)
// through changeCoefficient, so stored calculations keep the version they used; logged with the
// item before and after.
import type { Actor, Deps } from "../context";
import { changeCoefficient, getDictionaryItem, toEntry, type CoefficientChange } from "../dictionaries";
import type { DictionaryEntry } from "../../contract/views";
import { assertAdmin, recordChange } from "./audit";

export async function changeCoefficientAsAdmin(
  deps: Deps,
  actor: Actor,
  name: string,
  id: number,
  change: CoefficientChange,
): Promise<DictionaryEntry> {
  assertAdmin(actor);
  const before = await getDictionaryItem(deps, name, id);
  const next = await changeCoefficient(deps, name, id, change, actor.email);
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
