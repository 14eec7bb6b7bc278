// The company's own factors (methodology D107), typed from the server's route declarations
// (functions/src/contract/routes/own-factors.ts): values typed into calculations as «Фактическое
// значение» with their uncertainty and justification, kept so the next calculation takes them as they are.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { typedClient, type Client } from "./client";

export type OwnFactor = InferResponseType<Client<"ownFactors">["index"]["$get"], 200>["results"][number];
export type OwnFactorBody = InferRequestType<Client<"ownFactors">["index"]["$post"]>["json"];

const ownFactors = typedClient("ownFactors");
const ownFactorsKey = (type: string) => ["own-factors", type] as const;

/** The company's own factors of one calculation type, newest first; read once a value is typed
 *  (`enabled`: the form shows a «Фактическое значение»). */
export function useOwnFactors(type: string, enabled: boolean) {
  return useQuery({
    queryKey: ownFactorsKey(type),
    queryFn: () => ownFactors((c) => c.index.$get({ query: { type } })),
    staleTime: 60_000,
    enabled,
  });
}

export function useKeepOwnFactor(type: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OwnFactorBody) => ownFactors((c) => c.index.$post({ json: body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ownFactorsKey(type) }),
  });
}
