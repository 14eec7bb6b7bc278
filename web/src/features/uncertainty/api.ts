// The project's uncertainty model over the API (GET projects/{id}/uncertainty/): the page's
// uncertainty core and the Monte Carlo worker compute from it.
import { useQuery } from "@tanstack/react-query";
import { typedClient } from "../../api/client";
import type { CalculationModel } from "@core/calculation-uncertainty";
import type { UncertaintyModel } from "@server/contract";

export type ProjectUncertaintyModel = Omit<UncertaintyModel, "calculations"> & { calculations: CalculationModel[] };

/** projects/{id}/uncertainty/, typed from the server's route declarations (functions/src/contract/routes/uncertainty.ts). */
const models = typedClient("uncertainty");

export function useProjectUncertainty(projectId: string) {
  return useQuery({
    queryKey: ["uncertainty", projectId],
    queryFn: (): Promise<ProjectUncertaintyModel> => models((c) => c[":id"].uncertainty.$get({ param: { id: projectId } })),
    staleTime: 0,
  });
}
