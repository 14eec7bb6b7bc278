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
  const next = withFacilityFigure(deps, actor, current, "coal_processed", request.facility, request.t);
  await deps.repos.inventoryReviews.put(next, current.version);
  return next;
}

/** The review with a facility's figure of the year's data (its coal output or coal processed, t) set,
 *  or removed for null, the rows in the facilities' order, as the next version; D33: the figure is the
 *  year's data, so its editor is noted among those who changed the year and never approves it. */
export function withFacilityFigure(
  deps: Deps,
  actor: Actor,
  review: InventoryReview,
  field: "coal_output" | "coal_processed",
  facility: string,
  t: number | null,
): InventoryReview {
  const others = (review[field] ?? []).filter((row) => row.facility !== facility);
  const rows = t === null ? others : [...others, { facility, t }];
  return {
    ...review,
    [field]: rows.sort((a, b) => a.facility.localeCompare(b.facility)),
    last_changed_by: actor.email,
    changed_by: [...new Set([...(review.changed_by ?? []), actor.email])],
    updated_at: deps.clock.now().toISOString(),
    version: review.version + 1,
  };
}
