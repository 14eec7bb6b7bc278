// The project's uncertainty model over the API (GET v1/projects/{id}/uncertainty/): the page's
// uncertainty core and the Monte Carlo worker compute from it.
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import type { CalculationModel } from "../../../../wasm-core/src/calculation-uncertainty";

export interface ProjectUncertaintyModel {
  project: { id: string; name: string; is_deleted: boolean };
  calculations: CalculationModel[];
  count: number;
}

export function useProjectUncertainty(projectId: string) {
  return useQuery({
    queryKey: ["uncertainty", projectId],
    queryFn: () => api.get<ProjectUncertaintyModel>(`v1/projects/${encodeURIComponent(projectId)}/uncertainty/`),
    staleTime: 0,
  });
}
