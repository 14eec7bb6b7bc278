// Projects over the API (docs/api.md). Lists are keyed by company, archive flag and page so each page
// is cached on its own; every change invalidates all of them plus the profile statistics.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { archiveListQuery, typedClient, type ApiError, type Client } from "./client";
import type { Project, ProjectCreateInput, ProjectPatchInput } from "@server/contract";
import { statisticsKey } from "./profile";
import { LIMITS } from "@server/contract";

export type { Project };

/** projects/, typed from the server's route declarations (functions/src/http/projects.ts). */
const projects = typedClient("projects");

export const PROJECTS_PAGE_SIZE = LIMITS.page.projects;

const projectsKey = ["projects"] as const;

export interface ProjectsView {
  companyId: string | undefined;
  archived: boolean;
  page: number;
  /** Part of the name, any case; the server searches all of the company's projects. */
  search?: string;
}

export function useProjects({ companyId, archived, page, search = "" }: ProjectsView) {
  return useQuery({
    queryKey: [...projectsKey, "list", companyId, archived, page, search],
    queryFn: () =>
      projects((c) =>
        c.index.$get({
          query: {
            company: companyId,
            ...archiveListQuery(archived, page, PROJECTS_PAGE_SIZE),
            search: search || undefined,
          },
        }),
      ),
    enabled: companyId !== undefined,
    placeholderData: keepPreviousData,
  });
}

export type ProjectFields = ProjectCreateInput;

function useInvalidateProjects() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: projectsKey });
    void client.invalidateQueries({ queryKey: statisticsKey });
  };
}

export function useCreateProject(owner: { company: string; user: string } | undefined) {
  const invalidate = useInvalidateProjects();
  return useMutation<Project, ApiError, ProjectFields>({
    mutationFn: (fields) => {
      // docs/api.md: status is sent as 1 on creation, with the user's company and id.
      return projects((c) => c.create_project.$post({ json: { ...fields, status: 1, ...owner } }));
    },
    onSuccess: invalidate,
  });
}

/** Edit, archive (is_deleted true, is_active false) and restore all go through one PATCH. */
export function usePatchProject() {
  const invalidate = useInvalidateProjects();
  return useMutation<Project, ApiError, { project: Project; changes: ProjectPatchInput }>({
    mutationFn: ({ project, changes }) =>
      // The version we hold lets the server refuse a change made over someone else's (409).
      projects((c) => c[":id"].$patch({ param: { id: project.id }, json: { ...changes, version: project.version } })),
    // Reload on failure too: after a 409 the list must show the newer version.
    onSettled: invalidate,
  });
}

export const ARCHIVE: ProjectPatchInput = { is_deleted: true, is_active: false };
export const RESTORE: ProjectPatchInput = { is_deleted: false, is_active: true };

// ---- D12: recompute with the GWP set in force after a reporting year change ----

/** Before and after per calculation, as the server declares the answer. */
export type GwpRecompute = InferResponseType<Client<"projects">[":id"]["gwp_recompute"]["$get"], 200>;

/** What a recompute would change for the project's saved reporting year; nothing is stored. */
export function fetchGwpRecompute(projectId: string): Promise<GwpRecompute> {
  return projects((c) => c[":id"].gwp_recompute.$get({ param: { id: projectId }, query: {} }));
}

export function useApplyGwpRecompute() {
  const client = useQueryClient();
  const invalidate = useInvalidateProjects();
  return useMutation<GwpRecompute, ApiError, { projectId: string; calculations?: string[] }>({
    mutationFn: ({ projectId, calculations }) =>
      projects((c) => c[":id"].gwp_recompute.$post({ param: { id: projectId }, json: calculations ? { calculations } : {} })),
    onSettled: () => {
      invalidate();
      // The recomputed calculations: every list, single view and graph.
      void client.invalidateQueries({ queryKey: ["calculations"] });
      void client.invalidateQueries({ queryKey: ["graphs"] });
    },
  });
}
