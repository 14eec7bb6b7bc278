// The company's latest abatement plan (v1/abatement/assessments/, docs/api.md «Abatement»), which
// «Динамика» holds against its targets; «Снижение выбросов» keeps its own calls (features/abatement/api.ts).
import { useQuery } from "@tanstack/react-query";
import { encoded, typedClient } from "./client";

const abatement = typedClient("abatement");

/** The last changed assessment that is not archived, or null when the company has none. */
export function useLatestAssessment() {
  return useQuery({
    queryKey: ["abatement", "latest"],
    queryFn: async () => {
      const list = await abatement((c) => c.assessments.$get());
      const latest = list.results.find((a) => !a.archived);
      return latest ? abatement((c) => c.assessments[":id"].$get({ param: encoded({ id: latest.id }) })) : null;
    },
    staleTime: 0,
  });
}
