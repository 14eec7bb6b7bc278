// Climate projects over the API (v1/climate-projects/, docs/api.md «Climate projects»): the list, one
// project, its writes, its monitoring periods and the computation of a period from the stored minutes,
// a period's report on implementation, its hand-written fields and its files.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { api, encoded, routePath, typedClient, type Client, type FileJob } from "../../api/client";
import { useRecord, useRecordList, useSaveRecord } from "../../api/record";
import type { ExportJobView } from "@server/contract";

type Climate = Client<"climate">;
type Abatement = Client<"abatement">;
/** the stored assessment («Снижение выбросов») a new project starts from. */
export type SourceAssessment = InferResponseType<Abatement["assessments"][":id"]["$get"], 200>;
export type ClimateProjectSummary = InferResponseType<Climate["index"]["$get"], 200>["results"][number];
export type ClimateProject = InferResponseType<Climate["index"]["$post"], 201>;
export type ClimateProjectBody = InferRequestType<Climate["index"]["$post"]>["json"];
export type ClimatePeriod = InferResponseType<Climate[":id"]["periods"]["$post"], 201>;
export type ClimatePeriodBody = InferRequestType<Climate[":id"]["periods"]["$post"]>["json"];
export type ClimatePeriodSummary = InferResponseType<Climate[":id"]["periods"]["$get"], 200>["results"][number];

const climate = typedClient("climate");
export const climateKey = ["climate"] as const;

export function useClimateProjects() {
  return useRecordList(climateKey, () => climate((c) => c.index.$get()));
}

export function useClimateProject(id: string | undefined) {
  return useRecord([...climateKey, "one"], id, (id) => climate((c) => c[":id"].$get({ param: encoded({ id }) })));
}

export function useClimatePeriods(id: string | undefined) {
  return useRecord([...climateKey, "periods"], id, (id) => climate((c) => c[":id"].periods.$get({ param: encoded({ id }) })));
}

export function useClimatePeriod(id: string | undefined, period: string | undefined) {
  return useQuery({
    queryKey: [...climateKey, "period", id, period],
    queryFn: () => climate((c) => c[":id"].periods[":period"].$get({ param: encoded({ id: id as string, period: period as string }) })),
    enabled: id !== undefined && period !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** A day's stored readings of the project's meters (the check of the computation in the browser). */
export function climateDayMinutes(id: string, date: string) {
  return climate((c) => c[":id"].minutes.$get({ param: encoded({ id }), query: { date } }));
}

export function useSaveClimateProject() {
  return useSaveRecord(
    climateKey,
    (body: ClimateProjectBody) => climate((c) => c.index.$post({ json: body })),
    (id, json) => climate((c) => c[":id"].$patch({ param: encoded({ id }), json })),
  );
}

/** What the server said of a long period while its job computes it. */
export const PERIOD_JOB_FAILED = "Не удалось рассчитать отчетный период. Повторите расчет позже";

/** The period a computation answered, or, a long one's job (202), the period it computed: its state
 *  `onJob` hears until it names the stored period, which is then read. */
async function periodOrJob(id: string, answer: ClimatePeriod | ExportJobView, onJob?: (job: FileJob) => void): Promise<ClimatePeriod> {
  if (!("status_url" in answer) || !answer.status_url) return answer as ClimatePeriod;
  const done = await api.followJob(answer as ExportJobView, onJob, PERIOD_JOB_FAILED);
  return climate((c) => c[":id"].periods[":period"].$get({ param: encoded({ id, period: done.period_id as string }) }));
}

/** A write whose answer is the period: kept as the period's own read, the project's periods read again. */
function usePeriodWrite<V>(id: string, write: (variables: V) => Promise<ClimatePeriod>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (period) => {
      client.setQueryData([...climateKey, "period", id, period.id], period);
      // an approval, a withdrawal or a recomputation changes the file the КЭП are
      // over and the report's state: both are read again at once, not when they next go stale.
      return Promise.all([
        client.invalidateQueries({ queryKey: [...climateKey, "periods", id] }),
        client.invalidateQueries({ queryKey: [...climateKey, "signatures", id, period.id] }),
        client.invalidateQueries({ queryKey: [...climateKey, "report", id, period.id] }),
      ]);
    },
  });
}

/** A period computed from the stored minutes: on the request (201), or a long one as a job (202). */
export function useComputePeriod(id: string, onJob?: (job: FileJob) => void) {
  return usePeriodWrite(id, async (body: ClimatePeriodBody): Promise<ClimatePeriod> => {
    // 201 the period, or 202 its job: two shapes of one answer.
    const answer = (await climate((c) => c[":id"].periods.$post({ param: encoded({ id }), json: body }) as never)) as
      | ClimatePeriod
      | ExportJobView;
    return periodOrJob(id, answer, onJob);
  });
}

/** Approve the period (four eyes) or withdraw its approval with a reason; the answer is the period. */
export function useReviewPeriod(id: string) {
  return usePeriodWrite(id, ({ period, ...json }: { period: string; action: "approve" | "withdraw"; reason?: string; version: number }) =>
    climate((c) => c[":id"].periods[":period"].review.$post({ param: encoded({ id, period }), json })),
  );
}

/** The period computed again from the minutes stored now (refused while it is approved); a long one
 *  by a job (202), whose state `onJob` hears. */
export function useRecomputePeriod(id: string, onJob?: (job: FileJob) => void) {
  return usePeriodWrite(id, async ({ period, version }: { period: string; version: number }): Promise<ClimatePeriod> => {
    const answer = (await climate(
      (c) => c[":id"].periods[":period"].recompute.$post({ param: encoded({ id, period }), json: { version } }) as never,
    )) as ClimatePeriod | ExportJobView;
    return periodOrJob(id, answer, onJob);
  });
}

/** The report as the PATCH answers it (the GET's JSON is the same shape). */
export type ClimateReport = InferResponseType<Climate[":id"]["periods"][":period"]["report"]["$patch"], 200>;
export type ClimateReportFields = Partial<Record<ClimateReport["sections"][number]["hand"][number]["key"], string>>;

export function useClimateReport(id: string, period: string) {
  return useQuery({
    queryKey: [...climateKey, "report", id, period],
    queryFn: () =>
      climate(
        (c) => c[":id"].periods[":period"].report.$get({ param: encoded({ id, period }), query: {} }) as never,
      ) as Promise<ClimateReport>,
    staleTime: 0,
  });
}

export function useSaveClimateReport(id: string, period: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, version }: { fields: ClimateReportFields; version: number }) =>
      climate((c) => c[":id"].periods[":period"].report.$patch({ param: encoded({ id, period }), json: { fields, version } })),
    onSuccess: (report) => client.setQueryData([...climateKey, "report", id, period], report),
  });
}

/** The report's file: GET …/report/?format=xlsx|pdf. */
export const climateReportPath = (id: string, period: string, format: "xlsx" | "pdf") =>
  routePath("climate", (c) => c[":id"].periods[":period"].report.$path({ param: encoded({ id, period }), query: { format } }));
