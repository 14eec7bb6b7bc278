// The company's webhooks, typed from the server's route declarations
// (functions/src/contract/routes/webhooks.ts).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { typedClient, type Client } from "./client";

export type Webhook = InferResponseType<Client<"webhooks">["index"]["$get"], 200>[number];
export type CreatedWebhook = InferResponseType<Client<"webhooks">["index"]["$post"], 201>;
export type WebhookDelivery = InferResponseType<Client<"webhooks">[":id"]["deliveries"]["$get"], 200>[number];

const webhooks = typedClient("webhooks");
const webhooksKey = ["webhooks"] as const;

export function useWebhooks() {
  return useQuery({ queryKey: webhooksKey, queryFn: () => webhooks((c) => c.index.$get()) });
}

export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { url: string; label: string }) => webhooks((c) => c.index.$post({ json: body })),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (hook: Webhook) => webhooks((c) => c[":id"].$delete({ param: { id: hook.id } })),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksKey }),
  });
}

/** A webhook's deliveries, refreshed every 15 s while shown (a retry's state changes by itself). */
export function useWebhookDeliveries(id: string | undefined) {
  return useQuery({
    queryKey: [...webhooksKey, id, "deliveries"],
    queryFn: () => webhooks((c) => c[":id"].deliveries.$get({ param: { id: id as string } })),
    enabled: id !== undefined,
    refetchInterval: 15_000,
  });
}
