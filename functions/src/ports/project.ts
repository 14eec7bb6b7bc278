// Projects: a company's reporting units, active or archived.
import type { Project } from "../contract/schemas/project";
import type { Page, PageRequest } from "./paging";

export type ProjectState = "active" | "archived";

export interface ProjectRepository {
  create(project: Project): Promise<void>;
  get(companyId: string, projectId: string): Promise<Project | undefined>;
  /** Newest first. */
  list(companyId: string, state: ProjectState, page: PageRequest): Promise<Page<Project>>;
  /** Every project of the company, both states, read consistently from the main table (the
   *  statistics must see a write the moment its stream record arrives; an index may lag). */
  listAllOfCompany(companyId: string): Promise<Project[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: Project, expectedVersion: number): Promise<void>;
  /** D25: a calculation write naming an emission point of `facility` begins: counted on the
   *  project by one conditional update, at `now`; false when the project's facility is no longer
   *  `facility`. Ended by endPointWrite. */
  beginPointWrite(companyId: string, projectId: string, facility: string, now: string): Promise<boolean>;
  endPointWrite(companyId: string, projectId: string): Promise<void>;
  /** D25: `replace` for a change of the project's facility: Conflict while a point write begun
   *  since `staleBefore` has not ended; else `check` runs (no calculation names a point of the old
   *  facility), and `next` is written only if no point write has begun since, in one conditional
   *  write (Conflict otherwise). */
  replaceFacility(next: Project, expectedVersion: number, staleBefore: string, check: () => Promise<void>): Promise<void>;
}
