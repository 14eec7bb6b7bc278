// The wasm emission core in the page (wasm-core/src/emissions-browser.ts): loaded once and shared
// by the converter widgets and the calculation dialogs; a failed load is retried by the next caller.
import { useQuery } from "@tanstack/react-query";
import { loadEmissions } from "@core/emissions-browser";
import { loadUncertainty } from "@core/uncertainty-browser";

/** A core module's query: loaded once and kept for the page's life. */
const coreQuery = <T>(name: string, load: () => Promise<T>) => ({
  queryKey: ["wasm", name],
  queryFn: load,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
});

export function useEmissionsCore() {
  return useQuery(coreQuery("emissions", loadEmissions));
}

/** The uncertainty core (wasm-core/src/uncertainty-browser.ts): Approach 1 and key categories in
 *  the page; Monte Carlo runs in a worker (features/uncertainty/monteCarlo.ts). */
export function useUncertaintyCore() {
  return useQuery(coreQuery("uncertainty", loadUncertainty));
}
