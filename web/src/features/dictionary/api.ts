// Reference dictionaries over the API (SPEC 7): GET v1/dictionary/{name}/ returns the current
// version of every item, each value with its unit and its source. Dictionaries change rarely
// (a new version is an admin action), so an answer stays fresh for a while.
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import type { DictionaryName } from "../../../../wasm-core/src/registry";
import type { DictionaryEntry } from "../../../../functions/src/contracts";

export type { DictionaryEntry, DictionaryName };

export interface Dictionary {
  name: DictionaryName;
  title: string;
  results: DictionaryEntry[];
  count: number;
}

export const dictionaryKey = (name: DictionaryName) => ["dictionary", name] as const;

export function useDictionary(name: DictionaryName) {
  return useQuery({
    queryKey: dictionaryKey(name),
    queryFn: () => api.get<Dictionary>(`v1/dictionary/${encodeURIComponent(name)}/`),
    staleTime: 10 * 60_000,
  });
}

/** The item's numeric coefficients, in the order the server lists their units. */
export function coefficientFields(entry: DictionaryEntry): string[] {
  return Object.keys(entry.units ?? {});
}
