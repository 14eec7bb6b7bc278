// The wasm emission core in the page (wasm-core/src/emissions-browser.ts): loaded once and shared
// by the converter widgets and the calculation dialogs; a failed load is retried by the next caller.
import { useQuery } from "@tanstack/react-query";
import { loadEmissions } from "@core/emissions-browser";
import { loadUncertainty } from "@core/uncertainty-browser";

export function useEmissionsCore() {
  return useQuery({
    queryKey: ["wasm", "emissions"],
    queryFn: loadEmissions,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

/** The uncertainty core (wasm-core/src/uncertainty-browser.ts): Approach 1 and key categories in
 *  the page; Monte Carlo runs in a worker (features/uncertainty/monteCarlo.ts). */
export function useUncertaintyCore() {
  return useQuery({
    queryKey: ["wasm", "uncertainty"],
    queryFn: loadUncertainty,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}
