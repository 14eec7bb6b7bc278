// The company's facilities over the API (facilities/): the list alone, which the shell's side menu reads
// (the monitoring wing per mine) without the inventory's hooks; inventory.ts holds the rest of facilities/.
import { useQuery } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { typedClient, type Client } from "./client";

export type Facility = InferResponseType<Client<"facilities">[":id"]["$get"], 200>;

const facilities = typedClient("facilities");

export const facilitiesKey = ["facilities"] as const;

export function useFacilities() {
  return useQuery({ queryKey: facilitiesKey, queryFn: () => facilities((c) => c.index.$get()), staleTime: 60_000 });
}
