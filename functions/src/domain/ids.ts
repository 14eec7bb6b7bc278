// Identifiers: UUID version 7 (RFC 9562), whose first 48 bits are the Unix time in ms, so ids sort
// in creation order. uuid keeps a counter within one millisecond, which makes "newest first" lists
// stable even for items created in the same millisecond.
import { createHash } from "node:crypto";
import { v7 } from "uuid";
import type { Actor, Deps } from "./context";

export function newId(): string {
  return v7();
}

/** An id made from what names an object (its parts, hashed), in the shape of an id: the same parts
 *  give the same id, so a request asked again finds what the first made (a fill's batch, a re-sent push). */
export function idOf(...parts: string[]): string {
  const hex = createHash("sha256").update(parts.join("\n")).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** What a company's new versioned object starts with: a new id, its company, created and changed now,
 *  version 1 (each later change checks the version it read). */
export function firstVersion(deps: Pick<Deps, "clock">, actor: Pick<Actor, "company">) {
  const now = deps.clock.now().toISOString();
  return { id: newId(), company: actor.company, created_at: now, updated_at: now, version: 1 };
}
