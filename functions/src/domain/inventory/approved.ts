// D32: an approved, sent or accepted year shows its approved figures everywhere — the inventory,
// the years' totals, the profile's statistics — read from its approved version's snapshot (D20),
// whatever a later dictionary correction does to the live recomputation, which is shown beside
// them only as «если переоткрыть». A version never changes, so its figures are kept in the
// process once read (by company, year, version, hash and facility).
import type { Deps } from "../context";
import type { ApprovedFigures, InventoryReview } from "../../ports";
import { isApproved } from "./review";
import type { InventoryCalculation } from "./types";
import { loadSnapshot, scopedState, type SnapshotLine } from "./versions";
import { keptState } from "../../ports/runtime";

const KEPT = 200;
/** The approved versions' figures the host keeps (a version never changes), the latest KEPT. */
const keptFigures = keptState("approved figures", () => new Map<string, ApprovedFigures>());

/** The approved version's figures of the year (of one facility when given), or undefined when the
 *  year does not stand approved. */
export async function approvedFigures(
  deps: Pick<Deps, "repos" | "blobs" | "runtime">,
  review: Pick<InventoryReview, "company" | "year" | "status" | "snapshot">,
  facilityId?: string,
): Promise<ApprovedFigures | undefined> {
  if (!isApproved(review as InventoryReview) || !review.snapshot) return undefined;
  const kept = deps.runtime.kept(keptFigures);
  const key = [review.company, review.year, review.snapshot.version, review.snapshot.sha256, facilityId ?? ""].join("|");
  const known = kept.get(key);
  if (known) return known;
  const snapshot = await loadSnapshot(deps, review.company, review.year, review.snapshot.version);
  const state = scopedState(snapshot.inventory, facilityId);
  const categories = state.categories.map(({ calculations, ...line }) => ({ ...line, count: calculations.length }));
  const by_category: ApprovedFigures["by_category"] = {};
  for (const line of categories) by_category[line.category] = (by_category[line.category] ?? 0) + line.t_co2e;
  const figures: ApprovedFigures = {
    version: snapshot.version,
    categories,
    facilities: state.facilities,
    total_t_co2e: state.total_t_co2e,
    company_t_co2e: snapshot.inventory.total_t_co2e,
    balance: facilityId ? state.balance.filter((b) => b.facility === facilityId) : state.balance,
    by_category,
    gwp: snapshot.inventory.gwp,
  };
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(key, figures);
  return figures;
}

/** The approved version's calculations of the year (of one facility when given), as the inventory
 *  lists them (without what they were computed from), or undefined when the year does not stand
 *  approved: the rows under an approved line are the ones the version froze, not the live ones. */
export async function approvedCalculations(
  deps: Pick<Deps, "repos" | "blobs">,
  review: Pick<InventoryReview, "company" | "year" | "status" | "snapshot">,
  facilityId?: string,
): Promise<InventoryCalculation[] | undefined> {
  return (await approvedLines(deps, review, facilityId))?.map(
    ({ version: _version, inputs: _inputs, results: _results, methodology_version: _methodology, ...row }) => row,
  );
}

/** The approved version's calculations of the year with what they were computed from (their
 *  inputs and results), or undefined when the year does not stand approved. */
export async function approvedLines(
  deps: Pick<Deps, "repos" | "blobs">,
  review: Pick<InventoryReview, "company" | "year" | "status" | "snapshot">,
  facilityId?: string,
): Promise<SnapshotLine[] | undefined> {
  if (!isApproved(review as InventoryReview) || !review.snapshot) return undefined;
  const snapshot = await loadSnapshot(deps, review.company, review.year, review.snapshot.version);
  return scopedState(snapshot.inventory, facilityId).calculations.map((row) => ({
    ...row,
    // A version approved before points were kept has none.
    point: row.point ?? null,
  }));
}
