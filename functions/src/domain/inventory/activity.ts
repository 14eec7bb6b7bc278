// 8.1: the activity data a calculation does not carry — a facility's coal processed in the year —
// entered on the inventory and kept with the year's review, so it freezes with the year and an
// approved version prints it as approved (D20).
import type { Actor, Deps } from "../context";
import { Conflict, NotFound } from "../errors";
import { frozenMessage } from "./freeze";
import { getReview, isFrozen } from "./review";
import type { InventoryReview } from "../../ports";

export interface CoalProcessedRequest {
  facility: string;
  /** t; null clears the figure. */
  t: number | null;
  /** The review's version the user saw. */
  version: number;
}

export async function setCoalProcessed(deps: Deps, actor: Actor, year: number, request: CoalProcessedRequest): Promise<InventoryReview> {
  const [current, facility] = await Promise.all([
    getReview(deps, actor.company, year),
    deps.repos.facilities.get(actor.company, request.facility),
  ]);
  if (!facility) throw new NotFound("Площадка не найдена");
  if (isFrozen(current)) throw new Conflict(frozenMessage(current, "переработку угля изменить нельзя"));
  if (request.version !== current.version) {
    throw new Conflict("Инвентаризацию года только что изменил другой пользователь: обновите страницу и повторите");
  }
  const others = (current.coal_processed ?? []).filter((row) => row.facility !== request.facility);
  const rows = request.t === null ? others : [...others, { facility: request.facility, t: request.t }];
  const next: InventoryReview = {
    ...current,
    coal_processed: rows.sort((a, b) => a.facility.localeCompare(b.facility)),
    // D33: the coal processed is the year's data; its editor never approves it.
    last_changed_by: actor.email,
    changed_by: [...new Set([...(current.changed_by ?? []), actor.email])],
    updated_at: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  await deps.repos.inventoryReviews.put(next, current.version);
  return next;
}
