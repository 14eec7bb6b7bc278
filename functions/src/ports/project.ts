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
}
