// Infographics over the API (docs/user-guide.md): the project first, then its chart data in one call
// (GET projects/{id}/graphs/). The chart data belongs to the visit: the page removes it on leaving.
import { useQuery } from "@tanstack/react-query";
import { typedClient } from "../../api/client";
import type { ProjectGraphs } from "@server/contract";

export type { ProjectGraphs };

/** projects/ (a project, and its graphs/), typed from the server's route declarations
 *  (functions/src/contract/routes/projects.ts, graphs.ts). */
const projects = typedClient("projects");
const graphs = typedClient("graphs");

export const graphsKey = (projectId: string) => ["graphs", projectId] as const;

/** Same key as every other reader of one project, so the heading can come from the cache. */
export function useProject(projectId: string) {
  return useQuery({
    queryKey: ["projects", "detail", projectId],
    queryFn: () => projects((c) => c[":id"].$get({ param: { id: projectId } })),
  });
}

export function useProjectGraphs(projectId: string, enabled: boolean) {
  return useQuery({
    queryKey: graphsKey(projectId),
    queryFn: (): Promise<ProjectGraphs> => graphs((c) => c[":id"].graphs.$get({ param: { id: projectId } })),
    enabled,
    // docs/user-guide.md: the chart store is cleared on leaving, so a later visit loads afresh.
    gcTime: 0,
    staleTime: 0,
  });
}
