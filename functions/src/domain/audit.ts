// The platform operators' side: who may act as one, and the log of what they changed. Every admin
// change is written here after it succeeded (who, when, action, target, the object before and after),
// so the log never claims a change that did not happen. Secrets (passwords, their hashes) never
// enter it: callers pass views, and `redact` drops the one field that could carry a hash.
import type { Actor, Deps } from "./context";
import { Forbidden } from "./errors";
import { newId } from "./ids";
import type { AdminAuditEntry, Page, PageRequest } from "../ports";

export const ADMIN_ONLY = "Недостаточно прав: раздел доступен только администраторам платформы";

/** Admins are platform operators: they act across companies. Every admin operation starts here,
 *  even behind the HTTP middleware that checks the same. */
export function assertAdmin(actor: Actor): void {
  if (actor.role !== "admin") throw new Forbidden(ADMIN_ONLY);
}

export type AdminChange = Omit<AdminAuditEntry, "id" | "at" | "actor_id" | "actor_email">;

function redact(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value ?? null;
  const { password_hash: _hash, password: _password, ...rest } = value as Record<string, unknown>;
  return rest;
}

export async function recordChange(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Pick<Actor, "id" | "email">,
  change: AdminChange,
  /** The company whose own requisites or facilities changed: its reviewers read the entry too. */
  company?: string,
): Promise<AdminAuditEntry> {
  const entry: AdminAuditEntry = {
    id: newId(),
    at: deps.clock.now().toISOString(),
    actor_id: actor.id,
    actor_email: actor.email,
    ...change,
    before: redact(change.before),
    after: redact(change.after),
  };
  await deps.repos.adminAudit.add(entry, company);
  return entry;
}

export async function listAdminAudit(deps: Deps, actor: Actor, page: PageRequest): Promise<Page<AdminAuditEntry>> {
  assertAdmin(actor);
  return deps.repos.adminAudit.list(page);
}
