// The abatement assessments over the API (v1/abatement/, docs/api.md «Abatement»): the list, the
// writes, the year's measured streams, the §4.10 thresholds of the dictionary and the company's
// targets (v1/inventory/trend/settings/) the plan is held against. One assessment is read by
// api/abatement.ts, as a new climate project reads the one it starts from.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { abatementKey } from "../../api/abatement";
import { encoded, routePath, typedClient, type Client } from "../../api/client";
import { useRecordList, useSaveRecord } from "../../api/record";

type Abatement = Client<"abatement">;
export type AssessmentSummary = InferResponseType<Abatement["assessments"]["$get"], 200>["results"][number];
export type Assessment = InferResponseType<Abatement["assessments"]["$post"], 201>;
export type AssessmentBody = InferRequestType<Abatement["assessments"]["$post"]>["json"];
export type AssessmentPatch = InferRequestType<Abatement["assessments"][":id"]["$patch"]>["json"];
export type YearStream = InferResponseType<Abatement["streams"]["$get"], 200>["results"][number];

const abatement = typedClient("abatement");
const inventory = typedClient("inventory");
const dictionaries = typedClient("dictionaries");

export function useAssessments() {
  return useRecordList(abatementKey, () => abatement((c) => c.assessments.$get()));
}

export function useYearStreams(year: number | null) {
  return useQuery({
    queryKey: [...abatementKey, "streams", year],
    queryFn: () => abatement((c) => c.streams.$get({ query: { year: String(year) } })),
    enabled: year !== null,
    staleTime: 0,
  });
}

/** The §4.10 flow thresholds in force (D5): the live preview of a new assessment uses them. */
export function useThresholds() {
  return useQuery({
    queryKey: [...abatementKey, "thresholds"],
    queryFn: async () => {
      const dictionary = await dictionaries((c) => c[":name"].$get({ param: { name: "get_recycle_technology" } }));
      return (dictionary.results[0] ?? {}) as Record<string, unknown>;
    },
    staleTime: 60_000,
  });
}

export function useTargets() {
  return useQuery({ queryKey: [...abatementKey, "targets"], queryFn: () => inventory((c) => c.trend.settings.$get()), staleTime: 0 });
}

export function useSaveAssessment() {
  return useSaveRecord(
    abatementKey,
    (body: AssessmentBody) => abatement((c) => c.assessments.$post({ json: body })),
    (id, json) => abatement((c) => c.assessments[":id"].$patch({ param: encoded({ id }), json })),
  );
}

export function useArchiveAssessment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version, archived }: { id: string; version: number; archived: boolean }) =>
      abatement((c) => c.assessments[":id"].$patch({ param: encoded({ id }), json: { version, archived } })),
    onSuccess: () => client.invalidateQueries({ queryKey: abatementKey }),
  });
}

export const assessmentExportPath = (id: string, format: "xlsx" | "pdf") =>
  routePath("abatement", (c) => c.assessments[":id"].export.$path({ param: encoded({ id }), query: { format } }));
