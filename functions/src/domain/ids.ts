// Identifiers: UUID version 7 (RFC 9562), whose first 48 bits are the Unix time in ms, so ids sort
// in creation order. uuid keeps a counter within one millisecond, which makes "newest first" lists
// stable even for items created in the same millisecond.
import { v7 } from "uuid";
import type { Actor, Deps } from "./context";

export function newId(): string {
  return v7();
}

/** What a company's new versioned object starts with: a new id, its company, created and changed now,
 *  version 1 (each later change checks the version it read). */
export function firstVersion(deps: Pick<Deps, "clock">, actor: Pick<Actor, "company">) {
  const now = deps.clock.now().toISOString();
  return { id: newId(), company: actor.company, created_at: now, updated_at: now, version: 1 };
}
