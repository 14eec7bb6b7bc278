// Reference dictionaries over the API (docs/api.md): GET dictionary/{name}/ returns the current
// version of every item, each value with its unit and its source. Dictionaries change rarely
// (a new version is an admin action), so an answer stays fresh for a while.
import { useQuery } from "@tanstack/react-query";
import { typedClient } from "./client";
import type { DictionaryName } from "@core/registry";
import type { Dictionary, DictionaryEntry } from "@server/contract";

export type { DictionaryEntry, DictionaryName };

export type { Dictionary };

/** dictionary/, typed from the server's route declarations (functions/src/http/dictionaries.ts). */
const dictionaries = typedClient("dictionaries");

export const dictionaryKey = (name: DictionaryName) => ["dictionary", name] as const;

export function useDictionary(name: DictionaryName) {
  return useQuery({
    queryKey: dictionaryKey(name),
    // The route declares the name as a string; it answers the name it was asked for.
    queryFn: async () => (await dictionaries((c) => c[":name"].$get({ param: { name } }))) as Dictionary,
    staleTime: 10 * 60_000,
  });
}

/** The item's numeric coefficients, in the order the server lists their units. */
export function coefficientFields(entry: DictionaryEntry): string[] {
  return Object.keys(entry.units ?? {});
}
