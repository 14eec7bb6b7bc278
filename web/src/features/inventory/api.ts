// The year's inventory and the company's facilities over the API (v1/inventory/, v1/facilities/).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import type { Inventory, YearTotals } from "../../../../functions/src/contracts";
import type { ReviewAction } from "../../../../wasm-core/src/inventory";
import type { Facility, FacilityKind } from "../../../../functions/src/ports";

export type { Inventory, YearTotals, Facility, FacilityKind };

export const facilitiesKey = ["facilities"] as const;
export const inventoryKey = ["inventory"] as const;

export function useInventory(year: number, facility: string | undefined) {
  const query = new URLSearchParams({ year: String(year), ...(facility ? { facility } : {}) });
  return useQuery({
    queryKey: [...inventoryKey, year, facility ?? ""],
    queryFn: () => api.get<Inventory>(`v1/inventory/?${query}`),
    staleTime: 0,
  });
}

/** Totals per reporting year (the profile's statistics, the year picker). */
export function useInventoryYears() {
  return useQuery({ queryKey: [...inventoryKey, "years"], queryFn: () => api.get<YearTotals[]>("v1/inventory/years/") });
}

export function useFacilities() {
  return useQuery({ queryKey: facilitiesKey, queryFn: () => api.get<Facility[]>("v1/facilities/"), staleTime: 60_000 });
}

export interface FacilityFields {
  name: string;
  kind: FacilityKind;
  licence_number?: string;
  address?: string;
}

export function useSaveFacility() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version, ...fields }: FacilityFields & { id?: string; version?: number }) =>
      id
        ? api.patch<Facility>(`v1/facilities/${encodeURIComponent(id)}/`, { ...fields, version })
        : api.post<Facility>("v1/facilities/", fields),
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: facilitiesKey }), client.invalidateQueries({ queryKey: inventoryKey })]),
  });
}

export function useReviewAction(year: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { action: ReviewAction; version: number; reason?: string; notice_date?: string }) =>
      api.post(`v1/inventory/${year}/review/`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: inventoryKey }),
  });
}

export function useAddComment(year: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { text: string; target?: string | null; version: number }) => api.post(`v1/inventory/${year}/comments/`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: inventoryKey }),
  });
}
