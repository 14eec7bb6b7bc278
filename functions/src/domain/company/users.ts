// Companies and users: the signed-in user's profile, and the operations behind the admin command.
import type { Actor, Deps } from "../context";
import { INVENTORY_SUMS_LAYOUT } from "../inventory/sums";
import { newId } from "../ids";
import { invalidAt, NotFound } from "../errors";
import { hashPassword, knownPasswordProblem } from "./passwords";
import { PASSWORD_MIN_LENGTH, ROLES, type Role } from "../../contract/schemas/common";
import { MINE_DUTIES as DUTIES, type MineDuty as Duty } from "@core/sensor-checks";
import type { Company, User } from "../../ports";
import type { CompanyCreateInput } from "../../contract/schemas/company";
import { DEFAULT_TIME_ZONE } from "@core/company-clock";
import { refuseTakenName, refuseTakenRequisites } from "./look-alike";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export { PASSWORD_MIN_LENGTH };

export type PublicUser = Omit<User, "password_hash" | "company"> & { company: Omit<Company, "created_at"> };

export function withoutPasswordHash(user: User): Omit<User, "password_hash" | "revoked_sessions"> {
  const { password_hash: _hidden, revoked_sessions: _revoked, ...visible } = user;
  return visible;
}

/** What a person sets of themselves on Профиль: their name and position. */
export interface OwnProfilePatch {
  first_name?: string;
  last_name?: string;
  position?: string;
}

/** One's own name and position; the answer is get_me's, as changed. Each person has one name: the
 *  comments, the review trail and the passport name them by it from now on, earlier steps included. */
export async function updateOwnProfile(deps: Deps, actor: Actor, patch: OwnProfilePatch): Promise<PublicUser> {
  const fields = Object.fromEntries(
    (["first_name", "last_name", "position"] as const).flatMap((k) => (patch[k] === undefined ? [] : [[k, patch[k].trim()]])),
  );
  await deps.repos.users.update(actor.company, actor.id, fields);
  return getMe(deps, { ...actor, profile: undefined });
}

export async function getMe(deps: Deps, actor: Actor): Promise<PublicUser> {
  const [visible, company] = await Promise.all([
    actor.profile ?? deps.repos.users.get(actor.company, actor.id).then((user) => user && withoutPasswordHash(user)),
    deps.repos.companies.get(actor.company),
  ]);
  if (!visible || !company) throw new NotFound("Пользователь не найден");
  const { created_at: _created, ...companyFields } = company;
  return { ...visible, company: companyFields };
}

import { POINTS_MIGRATION } from "./emission-points-migration";

export type CompanyInput = CompanyCreateInput;

export async function createCompany(deps: Deps, input: CompanyInput): Promise<Company> {
  const name = input.name?.trim();
  if (!name) throw invalidAt("name", "укажите название компании");
  await refuseTakenName(deps, undefined, name);
  await refuseTakenRequisites(deps, undefined, { inn: input.inn?.trim(), kpp: input.kpp?.trim(), ogrn: input.ogrn?.trim() });
  const company: Company = {
    id: newId(),
    name,
    email: input.email?.trim() ?? "",
    ogrn: input.ogrn?.trim() ?? "",
    okved: input.okved?.trim() ?? "",
    inn: input.inn?.trim() ?? "",
    kpp: input.kpp?.trim() ?? "",
    region: input.region?.trim() ?? "",
    postal_address: input.postal_address?.trim() ?? "",
    responsible_name: input.responsible_name?.trim() ?? "",
    responsible_position: input.responsible_position?.trim() ?? "",
    responsible_phone: input.responsible_phone?.trim() ?? "",
    responsible_email: input.responsible_email?.trim() ?? "",
    time_zone: input.time_zone ?? DEFAULT_TIME_ZONE,
    created_at: deps.clock.now().toISOString(),
  };
  await deps.repos.companies.create(company);
  // Nothing is kept for a new company yet: its sums start under today's layout.
  await deps.repos.statistics.markInventorySumsLayout(company.id, INVENTORY_SUMS_LAYOUT);
  // D25: a new company enters its facilities' points itself; nothing of it is stored before them.
  await deps.repos.migrations.markDone(company.id, POINTS_MIGRATION, deps.clock.now().toISOString());
  return company;
}

export interface UserInput {
  companyId: string;
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
  role?: Role;
  /** who confirms a gassing book entry (DUTIES); none when absent. */
  duty?: Duty | null;
}

export async function createUser(
  deps: Deps,
  input: UserInput,
  /** "allowed": the demo login of a first start (seed.ts), whose password the README prints. */
  knownPassword: "refused" | "allowed" = "refused",
): Promise<Omit<User, "password_hash">> {
  const email = normaliseEmail(input.email ?? "");
  if (!EMAIL_RE.test(email)) throw invalidAt("email", "укажите корректный e-mail");
  validatePassword(input.password, "password", knownPassword);
  if (!(await deps.repos.companies.get(input.companyId))) throw new NotFound("Компания не найдена");
  const user: User = {
    id: newId(),
    company: input.companyId,
    email,
    first_name: input.first_name?.trim() ?? "",
    last_name: input.last_name?.trim() ?? "",
    role: input.role ?? "staff",
    ...(input.duty ? { duty: input.duty } : {}),
    is_active: true,
    password_hash: await hashPassword(input.password, deps.config.passwordCost),
    created_at: deps.clock.now().toISOString(),
  };
  await deps.repos.users.create(user);
  const { password_hash: _hidden, ...visible } = user;
  return visible;
}

async function userByEmail(deps: Deps, email: string): Promise<User> {
  const user = await deps.repos.users.findByEmail(email);
  if (!user) throw new NotFound(`Пользователь ${normaliseEmail(email)} не найден`);
  return user;
}

export async function setPassword(deps: Deps, email: string, password: string): Promise<void> {
  validatePassword(password);
  const user = await userByEmail(deps, email);
  await deps.repos.users.setPasswordHash(user.company, user.id, await hashPassword(password, deps.config.passwordCost));
}

/** A deactivated user cannot sign in, and tokens already issued to it stop working. */
export async function setUserActive(deps: Deps, email: string, isActive: boolean): Promise<void> {
  const user = await userByEmail(deps, email);
  await deps.repos.users.setActive(user.company, user.id, isActive);
}

/** `npm run admin -- set-role`: makes a user a platform operator (admin), a company member (staff)
 *  or a company member who approves the inventory (reviewer). */
export async function setUserRole(deps: Deps, email: string, role: Role): Promise<void> {
  if (!ROLES.includes(role)) throw invalidAt("role", ROLES.join(", "));
  const user = await userByEmail(deps, email);
  if (user.role !== role) await deps.repos.users.update(user.company, user.id, { role });
}

/** `npm run admin -- set-duty`: the user's duty at the mine (who confirms a gassing book
 *  entry), or none. */
export async function setUserDuty(deps: Deps, email: string, duty: Duty | null): Promise<void> {
  if (duty !== null && !DUTIES.includes(duty)) throw invalidAt("duty", `обязанность: ${DUTIES.join(", ")} или none`);
  const user = await userByEmail(deps, email);
  if ((user.duty ?? null) !== duty) await deps.repos.users.update(user.company, user.id, { duty });
}

/** A password a person chooses: long enough, and none everyone knows (the security review's R14: the demo
 *  login's, a leaked one). `known: "allowed"` only for the demo login the first start makes. */
export function validatePassword(password: string, field = "password", known: "refused" | "allowed" = "refused") {
  if (typeof password !== "string" || password.length < PASSWORD_MIN_LENGTH) {
    throw invalidAt(field, `пароль не короче ${PASSWORD_MIN_LENGTH} символов`);
  }
  const problem = known === "refused" ? knownPasswordProblem(password) : undefined;
  if (problem) throw invalidAt(field, problem);
}
