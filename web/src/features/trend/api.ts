// The company's years side by side, its base year and its targets over the API (GET inventory/trend/,
// inventory/trend/settings/ and the writes beside it; docs/api.md).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { routePath, typedClient, type Client } from "../../api/client";
import { requisitesAuditKey } from "../../api/profile";

type Inventory = Client<"inventory">;
export type Trend = InferResponseType<Inventory["trend"]["$get"], 200>;
export type TrendYear = Trend["years"][number];
export type TrendSettings = InferResponseType<Inventory["trend"]["settings"]["$get"], 200>;
export type TrendTarget = TrendSettings["targets"][number];
export type TargetInput = InferRequestType<Inventory["trend"]["targets"]["$post"]>["json"];

const inventory = typedClient("inventory");
export const trendKey = ["trend"] as const;

export function useTrend(from: number, to: number, facility: string | undefined) {
  return useQuery({
    queryKey: [...trendKey, from, to, facility ?? ""],
    queryFn: () => inventory((c) => c.trend.$get({ query: { from: String(from), to: String(to), facility: facility || undefined } })),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useTrendSettings() {
  return useQuery({
    queryKey: [...trendKey, "settings"],
    queryFn: () => inventory((c) => c.trend.settings.$get()),
    staleTime: 0,
  });
}

/** The settings' writes: each answers the settings as they now stand. */
export function useTrendSettingsWrite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (write: () => Promise<TrendSettings>) => write(),
    onSuccess: (settings) => {
      client.setQueryData([...trendKey, "settings"], settings);
      return client.invalidateQueries({ queryKey: requisitesAuditKey });
    },
  });
}

export const setBaseYear = (json: { year: number; reason: string; version: number }) => inventory((c) => c.trend.base_year.$put({ json }));
export const recalculateBaseYear = (json: { reason: string; version: number }) =>
  inventory((c) => c.trend.base_year.recalculate.$post({ json }));
export const addTarget = (json: TargetInput) => inventory((c) => c.trend.targets.$post({ json }));
export const removeTarget = (id: string, version: number) =>
  inventory((c) => c.trend.targets[":id"].$delete({ param: { id }, query: { version: String(version) } }));

export function trendExportPath(from: number, to: number, facility: string | undefined, view: "reported" | "comparable"): Promise<string> {
  const query = { from: String(from), to: String(to), view, facility };
  return routePath("inventory", (c) => c.trend.export.$path({ query }));
}
