// A place under a cap (ports/counters.ts, CapCounter): how many of a thing may exist (a facility's
// points, sensors and gateway keys, a year's comments). The place is taken by one conditional update
// before the thing is written, so parallel writers cannot pass the limit, and given back when the
// write fails.
import type { Deps } from "./context";

export interface CapPlace {
  /** The cap's counter (`POINTS#FACILITY#…`). */
  cap: string;
  limit: number;
  /** How many exist when the cap has no counter yet (things made before it had one). */
  count: () => Promise<number>;
  /** The error a full cap answers, in the user's words. */
  refusal: () => Error;
  /** Places taken at once (1 unless given: a file of sensors takes one a sensor). */
  amount?: number;
}

/** Takes the place or throws the refusal; answers how to give it back. */
export async function takePlace(deps: Pick<Deps, "repos">, company: string, place: CapPlace): Promise<() => Promise<void>> {
  if (!(await deps.repos.caps.take(company, place.cap, place.limit, place.count, place.amount))) throw place.refusal();
  return () => deps.repos.caps.give(company, place.cap, place.amount);
}

/** `write` of a new thing inside a place of its cap: the place is given back when `write` throws. */
export async function withPlace<T>(deps: Pick<Deps, "repos">, company: string, place: CapPlace, write: () => Promise<T>): Promise<T> {
  const giveBack = await takePlace(deps, company, place);
  try {
    return await write();
  } catch (error) {
    await giveBack();
    throw error;
  }
}
