// Projects of the signed-in user's company (docs/api.md, docs/user-guide.md). The company always comes from the actor,
// never from the request, so another company's project is simply not found.
import type { Actor, Deps } from "../context";
import { firstVersion } from "../ids";
import { Conflict, invalidAt, NotFound } from "../errors";
import type { Page, PageRequest, ProjectState } from "../../ports";
import type { Project, ProjectCreateInput, ProjectPatchInput } from "../../contract/schemas/project";
import { defaultReportingYear, reportingYearProblem } from "@core/gwp-in-force";
import { guardFrozen } from "../inventory/freeze";
import { staleBefore } from "../inventory/writes";
import { POINT_TYPES } from "@core/inventory";
import { patched } from "../patched";

export const PROJECT_STATUS_CREATED = 1;

/** D25: a project whose calculations name emission points of its facility keeps that facility
 *  (a point belongs to one); they are moved to the facility as a whole first. Read consistently
 *  (an index may lag a write that has just ended): a move is rare. */
async function refuseMoveFromPoints(deps: Deps, actor: Actor, project: Project): Promise<void> {
  const calculations = await deps.repos.calculations.listOfCompanyByTypes(actor.company, POINT_TYPES);
  // D35: the drainage points a flare or boiler names are the facility's too.
  const named = calculations.find((c) => c.project === project.id && (c.point || c.drainage_points?.length));
  if (named) {
    throw invalidAt(
      "facility",
      `расчет «${named.name}» указывает источник выбросов площадки проекта — ` +
        "чтобы сменить площадку, сначала уберите источник выбросов из расчетов проекта (или создайте проект для другой площадки)",
    );
  }
}

/** A project's facility is one of its company's (another company's id is simply not found). */
async function checkFacility(deps: Deps, actor: Actor, facilityId: string | null | undefined): Promise<void> {
  if (facilityId && !(await deps.repos.facilities.get(actor.company, facilityId))) {
    throw invalidAt("facility", "площадка не найдена: выберите площадку своей компании");
  }
}

function checkReportingYear(project: Project): void {
  const problem = reportingYearProblem(project);
  if (problem) throw invalidAt(problem.field, problem.message);
}

export async function createProject(deps: Deps, actor: Actor, input: ProjectCreateInput): Promise<Project> {
  await checkFacility(deps, actor, input.facility);
  const project: Project = {
    ...firstVersion(deps, actor),
    name: input.name,
    start_date: input.start_date,
    end_date: input.end_date,
    reporting_year: input.reporting_year ?? defaultReportingYear(input.end_date),
    // An empty id is no facility, not a facility of its own (a second «Без площадки»).
    facility: input.facility || null,
    status: PROJECT_STATUS_CREATED,
    user: actor.id,
    is_active: true,
    is_deleted: false,
  };
  checkReportingYear(project);
  await deps.repos.projects.create(project);
  return project;
}

export async function getProject(deps: Pick<Deps, "repos">, actor: Pick<Actor, "company">, projectId: string): Promise<Project> {
  const project = await deps.repos.projects.get(actor.company, projectId);
  if (!project) throw new NotFound("Проект не найден");
  return project;
}

/** Case and ё/е do not matter to someone looking for «шахта Ёлочная». */
export function projectSearchKey(text: string): string {
  return text.toLocaleLowerCase("ru-RU").replaceAll("ё", "е");
}

const newestFirst = (a: Project, b: Project) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.created_at < b.created_at ? 1 : -1;

export async function listProjects(
  deps: Deps,
  actor: Actor,
  state: ProjectState,
  page: PageRequest,
  search?: string,
): Promise<Page<Project>> {
  const wanted = search?.trim() ? projectSearchKey(search.trim()) : "";
  if (!wanted) {
    return deps.repos.projects.list(actor.company, state, page);
  }
  // DynamoDB has no case-insensitive "contains": match over the company's own projects (one
  // partition, a few hundred at most), in the order of the unfiltered list.
  const matching = (await deps.repos.projects.listAllOfCompany(actor.company))
    .filter((p) => (state === "archived") === p.is_deleted && projectSearchKey(p.name).includes(wanted))
    .sort(newestFirst);
  return { results: matching.slice(page.offset, page.offset + page.limit), count: matching.length };
}

/** Update, soft delete (is_deleted true) and restore (is_deleted false) are all this one PATCH. */
export async function patchProject(deps: Deps, actor: Actor, projectId: string, patch: ProjectPatchInput): Promise<Project> {
  const current = await getProject(deps, actor, projectId);
  // The answer's read-only fields sent back with the whole project: a project is not moved to
  // another company (as not found, like any other company's object) nor given another id.
  if (patch.company !== undefined && patch.company !== current.company) throw new NotFound("Проект не найден");
  if (patch.id !== undefined && patch.id !== current.id) throw invalidAt("id", "идентификатор проекта не меняется");
  if (patch.version !== undefined && patch.version !== current.version) {
    throw new Conflict("Проект был изменен другим пользователем. Обновите страницу и повторите.");
  }
  await checkFacility(deps, actor, patch.facility);
  // is_deleted is the state; is_active follows it (docs/api.md: active = true/false, archived = false/true).
  const isDeleted = patch.is_deleted ?? (patch.is_active !== undefined ? !patch.is_active : current.is_deleted);
  const next: Project = {
    ...current,
    ...patched(current, patch, ["name", "start_date", "end_date", "reporting_year"]),
    facility: patch.facility === undefined ? current.facility || null : patch.facility || null,
    is_deleted: isDeleted,
    is_active: !isDeleted,
    updated_at: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  if (next.end_date < next.start_date) throw invalidAt("end_date", "дата окончания раньше даты начала");
  // A stored project that breaks D30 can still be renamed or archived; a change of its dates or year must mend it.
  const datesChanged =
    next.start_date !== current.start_date || next.end_date !== current.end_date || next.reporting_year !== current.reporting_year;
  await guardFrozen(deps, actor, { kind: "project", before: current, after: next });
  if (datesChanged) checkReportingYear(next);
  if ((next.facility || null) !== (current.facility || null)) {
    // D25: checked and written so that no calculation write naming a point can fall between.
    const check = () => refuseMoveFromPoints(deps, actor, current);
    await deps.repos.projects.replaceFacility(next, current.version, staleBefore(deps.clock.now()), check);
  } else {
    await deps.repos.projects.replace(next, current.version);
  }
  return next;
}
