// Infographics over the API (SPEC 2, 4): the project first, then its chart data in one call
// (GET v1/projects/{id}/graphs/). The chart data belongs to the visit: the page removes it on leaving.
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import type { ProjectGraphs } from "../../../../functions/src/contracts";
import type { Project } from "../../../../functions/src/schemas/project";

export type { ProjectGraphs };

export const graphsKey = (projectId: string) => ["graphs", projectId] as const;

/** Same key as every other reader of one project, so the heading can come from the cache. */
export function useProject(projectId: string) {
  return useQuery({
    queryKey: ["projects", "detail", projectId],
    queryFn: () => api.get<Project>(`v1/projects/${encodeURIComponent(projectId)}/`),
  });
}

export function useProjectGraphs(projectId: string, enabled: boolean) {
  return useQuery({
    queryKey: graphsKey(projectId),
    queryFn: () => api.get<ProjectGraphs>(`v1/projects/${encodeURIComponent(projectId)}/graphs/`),
    enabled,
    // SPEC 4: the chart store is cleared on leaving, so a later visit loads afresh.
    gcTime: 0,
    staleTime: 0,
  });
}
