// The project's uncertainty model over the API (GET v1/projects/{id}/uncertainty/): the page's
// uncertainty core and the Monte Carlo worker compute from it.
import { useQuery } from "@tanstack/react-query";
import { typedClient } from "../../api/client";
import type { CalculationModel } from "@core/calculation-uncertainty";

export interface ProjectUncertaintyModel {
  project: { id: string; name: string; is_deleted: boolean };
  calculations: CalculationModel[];
  count: number;
  /** D18: what the total left out («Не учтен: 1 альтернативный расчет»), null: nothing. */
  not_counted: string | null;
}

/** v1/projects/{id}/uncertainty/, typed from the server's route declarations (functions/src/contract/routes/uncertainty.ts). */
const models = typedClient("uncertainty");

export function useProjectUncertainty(projectId: string) {
  return useQuery({
    queryKey: ["uncertainty", projectId],
    queryFn: (): Promise<ProjectUncertaintyModel> => models((c) => c[":id"].uncertainty.$get({ param: { id: projectId } })),
    staleTime: 0,
  });
}
