// Calculations over the API (SPEC 7): lists per project, type, archive flag and page; one
// calculation (single_calc); create, update and archive. Dictionaries and the wasm core the dialog
// needs are cached here too (dictionaries change rarely; the core is the converter's, loaded once).
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, query, type ApiError, type ListPage } from "../../api/client";
import type { FormulaType } from "../../../../wasm-core/src/registry";
import type { CoefficientUse } from "../../../../functions/src/ports";
import type { DictionaryEntry } from "../../../../functions/src/domain/dictionaries";
import type { Project } from "../../../../functions/src/schemas/project";
import { statisticsKey } from "../profile/api";

export type { CoefficientUse, DictionaryEntry };

export const CALCULATIONS_PAGE_SIZE = 10;

/** The API's flat calculation (SPEC 3): common fields, inputs, settings and results side by side. */
export interface Calculation {
  id: string;
  type: FormulaType;
  name: string;
  project: string;
  is_active: boolean;
  is_deleted: boolean;
  version: number;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  methodology_version: string;
  coefficients: Record<string, CoefficientUse>;
  [field: string]: unknown;
}

export interface Dictionary {
  name: string;
  title: string;
  results: DictionaryEntry[];
  count: number;
}

const calculationsKey = ["calculations"] as const;

export interface CalculationsView {
  projectId: string;
  type: FormulaType | undefined;
  archived: boolean;
  page: number;
}

export function useProject(projectId: string) {
  return useQuery({
    queryKey: ["projects", "detail", projectId],
    queryFn: () => api.get<Project>(`v1/projects/${encodeURIComponent(projectId)}/`),
  });
}

export function useCalculations({ projectId, type, archived, page }: CalculationsView) {
  return useQuery({
    queryKey: [...calculationsKey, type, "list", projectId, archived, page],
    queryFn: () =>
      api.get<ListPage<Calculation>>(
        `v1/${type}/${query({
          project: projectId,
          // SPEC 4: both lists ask for is_active=true; is_deleted tells active from archived.
          is_active: true,
          is_deleted: archived,
          limit: CALCULATIONS_PAGE_SIZE,
          offset: (page - 1) * CALCULATIONS_PAGE_SIZE,
        })}`,
      ),
    enabled: type !== undefined,
    placeholderData: keepPreviousData,
    // SPEC 2: choosing a type (again) reloads its list; a cached page shows meanwhile.
    staleTime: 0,
  });
}

/** One calculation as stored; the list row (same shape) shows meanwhile. */
export function useCalculation(type: FormulaType, id: string, row?: Calculation) {
  return useQuery({
    queryKey: [...calculationsKey, type, "detail", id],
    queryFn: () => api.get<Calculation>(`v1/${type}/${encodeURIComponent(id)}/single_calc/1/`),
    placeholderData: row,
    // Edit must start from the stored version, never from a cached one.
    staleTime: 0,
  });
}

const dictionaryQuery = (name: string) => ({
  // Same key and shape as the reference-dictionary screen, so both share one cache entry.
  queryKey: ["dictionary", name] as const,
  queryFn: () => api.get<Dictionary>(`v1/dictionary/${encodeURIComponent(name)}/`),
  staleTime: 10 * 60_000,
});

/** Several dictionaries at once: entries by name once all have loaded. */
export function useDictionaries(names: readonly string[]) {
  return useQueries({
    queries: names.map(dictionaryQuery),
    combine: (results) => ({
      data: results.every((r) => r.data)
        ? Object.fromEntries(results.map((r, i) => [names[i], r.data as Dictionary]))
        : undefined,
      error: results.find((r) => r.error)?.error as ApiError | undefined,
      refetch: () => Promise.all(results.map((r) => r.refetch())),
    }),
  });
}

/** The wasm emission core of the live preview: the same bytes the server computes with, loaded once. */
export { useEmissionsCore } from "../../shared/wasmCore";

function useInvalidateCalculations() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: calculationsKey });
    void client.invalidateQueries({ queryKey: statisticsKey });
  };
}

export function useCreateCalculation(type: FormulaType) {
  const invalidate = useInvalidateCalculations();
  return useMutation<Calculation, ApiError, Record<string, unknown>>({
    mutationFn: (body) => api.post<Calculation>(`v1/${type}/`, body),
    onSuccess: invalidate,
  });
}

/** Edit, archive and restore: one PATCH carrying the version we hold (409 when someone saved first). */
export function usePatchCalculation(type: FormulaType) {
  const invalidate = useInvalidateCalculations();
  return useMutation<Calculation, ApiError, { id: string; body: Record<string, unknown> }>({
    mutationFn: ({ id, body }) => api.patch<Calculation>(`v1/${type}/${encodeURIComponent(id)}/`, body),
    // Reload on failure too: after a 409 the list must show the newer version.
    onSettled: invalidate,
  });
}

export const ARCHIVE = { is_deleted: true, is_active: false } as const;
export const RESTORE = { is_deleted: false, is_active: true } as const;
