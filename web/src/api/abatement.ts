// The abatement assessments other screens read (v1/abatement/assessments/, docs/api.md «Abatement»):
// one stored assessment, which «Снижение выбросов» opens and a new climate project starts from, and the
// company's latest plan, which «Динамика» holds against its targets; «Снижение выбросов» keeps its
// other calls (features/abatement/api.ts).
import { useQuery } from "@tanstack/react-query";
import { encoded, typedClient } from "./client";
import { useRecord } from "./record";

const abatement = typedClient("abatement");
export const abatementKey = ["abatement"] as const;

/** One stored assessment, read as stored (the server keeps what it says). */
export function useAssessment(id: string | undefined) {
  return useRecord([...abatementKey, "one"], id, (id) => abatement((c) => c.assessments[":id"].$get({ param: encoded({ id }) })));
}

/** The last changed assessment that is not archived, or null when the company has none. */
export function useLatestAssessment() {
  return useQuery({
    queryKey: [...abatementKey, "latest"],
    queryFn: async () => {
      const list = await abatement((c) => c.assessments.$get());
      const latest = list.results.find((a) => !a.archived);
      return latest ? abatement((c) => c.assessments[":id"].$get({ param: encoded({ id: latest.id }) })) : null;
    },
    staleTime: 0,
  });
}
