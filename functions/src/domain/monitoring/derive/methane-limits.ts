// The permissible methane concentrations in force at an instant (issue 99, item 3): Order 506's values
// (@core/methane-limits) while the order holds.
import { ORDER_506_LIMITS, type MethaneLimit } from "@core/methane-limits";
import type { Deps } from "../../context";

/** The limits a gassing is read against at `at` (UTC ms). */
export async function limitsInForce(_deps: Pick<Deps, "repos">, _at: number): Promise<readonly MethaneLimit[]> {
  return ORDER_506_LIMITS;
}
