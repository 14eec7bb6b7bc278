// Sending a year to review (methodology D19): refused while the year's inventory has a check of
// level `error` (a source counted twice, a calculation changed after approval…), so a reviewer is
// never asked to sign what the platform already knows is wrong.
import type { Actor, Deps } from "../context";
import { Conflict } from "../errors";
import type { InventoryCheck } from "./checks";
import type { Inventory } from "./types";
import { getInventory } from "./year";
import { permitTransition, transition, type TransitionRequest } from "./review";
import { inventoryState } from "./state";
import type { InventoryReview } from "../../ports";

/** 409 naming every error check of the year by its message. */
export function assertNoErrorChecks(checks: readonly InventoryCheck[], year: number): void {
  const errors = checks.filter((c) => c.level === "error");
  if (errors.length === 0) return;
  throw new Conflict(
    `Инвентаризацию ${year} года нельзя отправить на проверку, пока в ней есть ошибки: ` +
      `${errors.map((c) => c.message).join("; ")}. Исправьте их и отправьте снова.`,
  );
}

/** Runs before transition() for «Отправить на проверку»: the permission checks first (a wrong
 *  status or a stale version still answers as such), then the checks of the company's inventory of
 *  the year. Other actions pass. */
export async function assertSendable(
  deps: Deps,
  actor: Actor,
  year: number,
  request: TransitionRequest,
  inventoryOf: (deps: Deps, actor: Actor, year: number) => Promise<Pick<Inventory, "review" | "checks">> = getInventory,
): Promise<void> {
  if (request.action !== "send_to_review") return;
  const inventory = await inventoryOf(deps, actor, year);
  permitTransition(actor, year, inventory.review, request, deps.clock.now());
  assertNoErrorChecks(inventory.checks, year);
}

/** A step of the year's review here, in this thread: a send's checks of the year, then the transition
 *  with the year's snapshot (D20). Where the host's threads compute the whole-year answers, they take it
 *  (whole-year.ts, reviewStep). */
export async function reviewStepHere(deps: Deps, actor: Actor, year: number, request: TransitionRequest): Promise<InventoryReview> {
  await assertSendable(deps, actor, year, request);
  return transition(deps, actor, year, request, (_companyId, y) => inventoryState(deps, actor, y));
}
