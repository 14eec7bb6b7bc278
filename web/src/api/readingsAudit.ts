// D104–D105: readings the platform questions at a mine — the cut-offs not confirmed by the run channel
// (answered with a cause, confirmed by another) and the ВТБ section's hand measurements beside the fixed
// meters (functions/src/contract/routes/readings-audit.ts). A module of its own: the pages that do not
// show them load none of it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CutoffCause, CutoffList, CutoffView, Duty, HandMeasurementBody, HandMeasurementList } from "@server/contract";
import { api, encoded, routePath, typedClient } from "./client";
import { saveBlob } from "../shared/saveBlob";

export type { CutoffList, CutoffView, HandMeasurementList };
export type HandMeasurement = HandMeasurementList["results"][number];

const audit = typedClient("readingsAudit");
export const auditKey = (facility: string) => ["monitoring", "readings-audit", facility] as const;

/** The facility's cut-offs not confirmed starting in the company days from–to (default the last 30), newest first. */
export function useCutoffs(facility: string, from?: string, to?: string) {
  return useQuery({
    queryKey: [...auditKey(facility), "cutoffs", from ?? null, to ?? null],
    queryFn: () =>
      audit((c) => c[":id"].cutoffs.$get({ param: encoded({ id: facility }), query: { from, to } }) as never) as Promise<CutoffList>,
    refetchInterval: 60_000,
  });
}

export function useAnswerCutoff(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, cause, comment }: { id: string; cause: CutoffCause; comment: string }) =>
      audit((c) =>
        c[":id"].cutoffs[":cutoff"].answer.$post({ param: encoded({ id: facility, cutoff: id }), json: { cause, comment } as never }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: auditKey(facility) }),
  });
}

export function useConfirmCutoff(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, duty }: { id: string; duty: Duty }) =>
      audit((c) => c[":id"].cutoffs[":cutoff"].confirm.$post({ param: encoded({ id: facility, cutoff: id }), json: { duty } })),
    onSuccess: () => client.invalidateQueries({ queryKey: auditKey(facility) }),
  });
}

/** The hand measurements made in the company days from–to (default the last 30), newest first. */
export function useHandMeasurements(facility: string, from?: string, to?: string) {
  return useQuery({
    queryKey: [...auditKey(facility), "hand", from ?? null, to ?? null],
    queryFn: () =>
      audit(
        (c) => c[":id"]["hand-measurements"].$get({ param: encoded({ id: facility }), query: { from, to } }) as never,
      ) as Promise<HandMeasurementList>,
  });
}

export function useRecordHandMeasurement(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: HandMeasurementBody) =>
      audit((c) => c[":id"]["hand-measurements"].$post({ param: encoded({ id: facility }), json: body as never })),
    onSuccess: () => client.invalidateQueries({ queryKey: ["monitoring"] }),
  });
}

type Format = "xlsx" | "pdf";

/** The cut-offs not confirmed of the last 30 days as a file. */
export async function downloadCutoffs(facility: string, format: Format): Promise<void> {
  const path = await routePath("readingsAudit", (c) =>
    c[":id"].cutoffs.export.$path({ param: encoded({ id: facility }), query: { format } }),
  );
  const file = await api.download(path);
  saveBlob(file.blob, file.fileName ?? `Отключения, не подтвержденные каналом работы.${format}`);
}

/** The hand measurements of the last 30 days as a file. */
export async function downloadHandMeasurements(facility: string, format: Format): Promise<void> {
  const path = await routePath("readingsAudit", (c) =>
    c[":id"]["hand-measurements"].export.$path({ param: encoded({ id: facility }), query: { format } }),
  );
  const file = await api.download(path);
  saveBlob(file.blob, file.fileName ?? `Журнал ручных замеров метана.${format}`);
}
