// Companies in /admin: list, create, edit requisites (docs/api.md: name, e-mail, ОГРН, ОКВЭД, region,
// postal address). The HTTP layer has already checked the formats with schemas/company.ts; the
// domain decides what depends on stored data (unique names, versions) and writes the log.
import type { Actor, Deps } from "../context";
import { Conflict, invalidAt, NotFound } from "../errors";
import { createCompany } from "../company/users";
import { TIME_ZONE_NAMES, zoneOf } from "@core/company-clock";
import { refuseTakenName, refuseTakenRequisites, sameName } from "../company/look-alike";
import {
  KEPT_REQUISITES,
  keptRequisiteProblem,
  REQUISITE_RULES,
  requisiteProblem,
  type CompanyCreateInput,
  type CompanyPatchInput,
  type OwnCompanyPatchInput,
  type RuledRequisite,
} from "../../contract/schemas/company";
import type { Company } from "../../ports";
import { assertAdmin, recordChange } from "../audit";
import { patched } from "../patched";

export type CompanyView = Company & { version: number };

const view = (company: Company): CompanyView => ({ ...company, version: company.version ?? 0 });
const label = (company: Company) => company.name;

/** The rules the schema also checks, for callers that skip it (the admin command, tests). */
function checkRequisites(input: CompanyPatchInput) {
  for (const field of Object.keys(REQUISITE_RULES) as RuledRequisite[]) {
    const problem = requisiteProblem(field, input[field] ?? "");
    if (problem) throw invalidAt(field, problem);
  }
  if (input.time_zone !== undefined && !TIME_ZONE_NAMES.includes(input.time_zone)) {
    throw invalidAt("time_zone", "выберите часовой пояс из списка");
  }
}

/** Staff correct what their company keeps (ИНН, КПП, ОГРН) but do not blank it once set. */
function checkKept(current: Company, patch: OwnCompanyPatchInput) {
  for (const field of Object.keys(KEPT_REQUISITES) as (keyof typeof KEPT_REQUISITES)[]) {
    if (patch[field] !== undefined && patch[field].trim() === "" && current[field]) {
      throw invalidAt(field, keptRequisiteProblem(field));
    }
  }
}

export async function listCompanies(deps: Deps, actor: Actor): Promise<CompanyView[]> {
  assertAdmin(actor);
  return (await deps.repos.companies.list()).map(view);
}

export async function getCompanyAsAdmin(deps: Deps, actor: Actor, companyId: string): Promise<CompanyView> {
  assertAdmin(actor);
  const company = await deps.repos.companies.get(companyId);
  if (!company) throw new NotFound("Компания не найдена");
  return view(company);
}

export async function createCompanyAsAdmin(deps: Deps, actor: Actor, input: CompanyCreateInput): Promise<CompanyView> {
  assertAdmin(actor);
  checkRequisites(input);
  const company = view(await createCompany(deps, input));
  await recordChange(
    deps,
    actor,
    {
      action: "company.create",
      target_type: "company",
      target_id: company.id,
      target_label: label(company),
      before: null,
      after: company,
    },
    company.id,
  );
  return company;
}

export async function updateCompanyAsAdmin(
  deps: Deps,
  actor: Actor,
  companyId: string,
  patch: CompanyPatchInput & { version?: number },
): Promise<CompanyView> {
  const current = await getCompanyAsAdmin(deps, actor, companyId);
  return applyPatch(deps, actor, current, patch);
}

/** The requisites a company's own staff keep on Профиль (docs/user-guide.md): the company is the
 *  session's, never one named in the request, so no other company can be reached. Written to the
 *  same change log as the admin's edits, with the object before and after. */
export async function updateOwnCompany(deps: Deps, actor: Actor, patch: OwnCompanyPatchInput & { version?: number }): Promise<CompanyView> {
  const company = await deps.repos.companies.get(actor.company);
  if (!company) throw new NotFound("Компания не найдена");
  checkKept(company, patch);
  const { name, email, region, inn, kpp, ogrn, okved, postal_address, version } = patch;
  const { responsible_name, responsible_position, responsible_phone, responsible_email, time_zone } = patch;
  return applyPatch(deps, actor, view(company), {
    ...{ name, email, region, inn, kpp, ogrn, okved, postal_address, version },
    ...{ responsible_name, responsible_position, responsible_phone, responsible_email, time_zone },
  });
}

async function applyPatch(
  deps: Deps,
  actor: Actor,
  current: CompanyView,
  patch: CompanyPatchInput & { version?: number },
): Promise<CompanyView> {
  checkRequisites(patch);
  if (patch.version !== undefined && patch.version !== current.version) {
    throw new Conflict("Реквизиты компании уже изменены другим пользователем. Обновите страницу и повторите.");
  }
  const next: CompanyView = {
    ...current,
    ...patched(current, patch, ["name", "email", "ogrn", "okved", "region", "postal_address"]),
    inn: patch.inn ?? current.inn ?? "",
    kpp: patch.kpp ?? current.kpp ?? "",
    responsible_name: patch.responsible_name ?? current.responsible_name ?? "",
    responsible_position: patch.responsible_position ?? current.responsible_position ?? "",
    responsible_phone: patch.responsible_phone ?? current.responsible_phone ?? "",
    responsible_email: patch.responsible_email ?? current.responsible_email ?? "",
    time_zone: zoneOf({ time_zone: patch.time_zone ?? current.time_zone }),
    version: current.version + 1,
    updated_at: deps.clock.now().toISOString(),
  };
  // One company per name as it reads and per legal entity (look-alike.ts).
  if (!sameName(next.name, current.name)) await refuseTakenName(deps, { company: current.id }, next.name);
  if ((["inn", "kpp", "ogrn"] as const).some((field) => (next[field] ?? "") !== (current[field] ?? ""))) {
    await refuseTakenRequisites(deps, { company: current.id }, next);
  }
  await deps.repos.companies.replace(next, current.version);
  await recordChange(
    deps,
    actor,
    {
      action: "company.update",
      target_type: "company",
      target_id: next.id,
      target_label: label(next),
      before: current,
      after: next,
    },
    next.id,
  );
  return next;
}
