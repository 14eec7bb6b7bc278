// Users in /admin: per company list, create, names and role, activate/deactivate, password reset,
// and moving a user to another company. A user who created projects or calculations in a company
// stays there (409): those objects name their author, and another company must never see them.
import { randomBytes } from "node:crypto";
import type { Actor, Deps } from "../context";
import { Conflict, NotFound } from "../errors";
import { hashPassword } from "../company/passwords";
import { createUser, validatePassword } from "../company/users";
import { personName } from "../person-name";
import { ROLES, type Role } from "../../contract/schemas/common";
import type { MineDuty as Duty } from "@core/sensor-checks";
import type { User } from "../../ports";
import type * as z from "zod";
import type { userPatchBody } from "../../contract/routes/admin";
import { assertAdmin, recordChange } from "../audit";

export type AdminUserView = Omit<User, "password_hash" | "revoked_sessions">;

export { ROLES };

const view = ({ password_hash: _hidden, revoked_sessions: _revoked, ...visible }: User): AdminUserView => visible;
const label = (user: Pick<User, "email" | "first_name" | "last_name">) => [user.email, personName(user)].filter(Boolean).join(" — ");

async function companyOrNotFound(deps: Deps, companyId: string) {
  const company = await deps.repos.companies.get(companyId);
  if (!company) throw new NotFound("Компания не найдена");
  return company;
}

async function userOrNotFound(deps: Deps, companyId: string, userId: string): Promise<User> {
  const user = await deps.repos.users.get(companyId, userId);
  if (!user) throw new NotFound("Пользователь не найден");
  return user;
}

export async function listCompanyUsers(deps: Deps, actor: Actor, companyId: string): Promise<AdminUserView[]> {
  assertAdmin(actor);
  await companyOrNotFound(deps, companyId);
  const users = await deps.repos.users.listByCompany(companyId);
  return users.map(view).sort((a, b) => a.email.localeCompare(b.email));
}

export interface AdminUserInput {
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
  role?: Role;
  duty?: Duty | null;
}

export async function createCompanyUser(deps: Deps, actor: Actor, companyId: string, input: AdminUserInput): Promise<AdminUserView> {
  assertAdmin(actor);
  await companyOrNotFound(deps, companyId);
  const created = await createUser(deps, { ...input, companyId });
  await recordChange(deps, actor, {
    action: "user.create",
    target_type: "user",
    target_id: created.id,
    target_label: label(created),
    before: null,
    after: created,
  });
  return created;
}

export type AdminUserPatch = z.output<typeof userPatchBody>;

export async function updateCompanyUser(
  deps: Deps,
  actor: Actor,
  companyId: string,
  userId: string,
  patch: AdminUserPatch,
): Promise<AdminUserView> {
  assertAdmin(actor);
  const current = await userOrNotFound(deps, companyId, userId);
  const self = current.id === actor.id;
  // An operator cannot lock themselves out; another admin has to do it.
  if (self && patch.role !== undefined && patch.role !== "admin")
    throw new Conflict("Нельзя снять права администратора с собственной учетной записи");
  if (self && patch.is_active === false) throw new Conflict("Нельзя отключить собственную учетную запись");

  const fields: Partial<Pick<User, "first_name" | "last_name" | "role" | "duty">> = {};
  if (patch.first_name !== undefined) fields.first_name = patch.first_name.trim();
  if (patch.last_name !== undefined) fields.last_name = patch.last_name.trim();
  if (patch.duty !== undefined) fields.duty = patch.duty;
  // A new role ends the user's sessions (the repository bumps its session generation): only a real change.
  if (patch.role !== undefined && patch.role !== current.role) fields.role = patch.role;
  const moving = patch.company !== undefined && patch.company !== current.company;

  if (moving) {
    await companyOrNotFound(deps, patch.company!);
    const authored = await deps.repos.users.countAuthored(current.company, current.id, current.email);
    if (authored.projects > 0 || authored.calculations > 0) {
      throw new Conflict(
        `Пользователь создал в своей компании проекты (${authored.projects}) и расчеты (${authored.calculations}); ` +
          "перевод в другую компанию невозможен. Создайте новую учетную запись.",
      );
    }
  }

  await deps.repos.users.update(companyId, userId, fields);
  if (patch.is_active !== undefined && patch.is_active !== current.is_active) {
    await deps.repos.users.setActive(companyId, userId, patch.is_active);
  }
  let next: User = { ...current, ...fields, is_active: patch.is_active ?? current.is_active };
  if (moving) next = await deps.repos.users.move(next, patch.company!);

  await recordChange(deps, actor, {
    action: moving ? "user.move" : "user.update",
    target_type: "user",
    target_id: next.id,
    target_label: label(next),
    before: view(current),
    after: view(next),
  });
  return view(next);
}

/** Sets the given password, or generates one to hand over once. Tokens already issued stay valid
 *  until they expire (access 15 minutes); deactivate the user to cut them off at once. */
export async function resetUserPassword(
  deps: Deps,
  actor: Actor,
  companyId: string,
  userId: string,
  password?: string,
): Promise<{ password?: string }> {
  assertAdmin(actor);
  const user = await userOrNotFound(deps, companyId, userId);
  const generated = password === undefined ? randomBytes(12).toString("base64url") : undefined;
  const chosen = password ?? generated!;
  validatePassword(chosen);
  await deps.repos.users.setPasswordHash(companyId, userId, await hashPassword(chosen, deps.config.passwordCost));
  await recordChange(deps, actor, {
    action: "user.reset_password",
    target_type: "user",
    target_id: user.id,
    target_label: label(user),
    before: null,
    after: { password_reset: true, generated: generated !== undefined },
  });
  return generated ? { password: generated } : {};
}
