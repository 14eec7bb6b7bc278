// v1/company/webhooks/, declared: a company registers a URL its monitoring events are posted
// to, signed with the webhook's secret (shown once); lists, removes, and reads each one's deliveries.
// Served by http/webhooks.ts.
import * as z from "zod";
import { LIMITS } from "../schemas/limits";
import { webhookCreateSchema, webhookCreatedSchema, webhookDeliverySchema, webhookSchema } from "../schemas/webhooks";
import { json, pathParam, route, userAccess } from "./declare";

const own = userAccess("webhooks", { scope: "own" });
const id = z.object({ id: pathParam("Webhook id") });

export const listWebhooksRoute = route(own("listWebhooks", "The company's webhooks", []), {
  get: "/",
  cost: "light",
  200: json(z.array(webhookSchema), "The webhooks, oldest first"),
});

export const createWebhookRoute = route(
  own(
    "createWebhook",
    "Register a URL the company's monitoring events are posted to",
    [400, 403, 409],
    `Each event (opened, closed) is posted once as signed JSON with an Idempotency-Key, tried again with back-off until it is answered 2xx; the secret is answered this once. In AWS a URL to a loopback, private or link-local address is refused (docs/security.md). At most ${LIMITS.webhooks.perCompany} webhooks; a reviewer gets 403. Advisory: protective cut-off stays with the mine's own АГК.`,
  ),
  { post: "/", cost: "light", body: webhookCreateSchema, 201: json(webhookCreatedSchema, "The webhook with its secret") },
);

export const deleteWebhookRoute = route(own("deleteWebhook", "Remove a webhook: nothing more is posted to it", [403, 404]), {
  delete: "/{id}",
  cost: "light",
  params: id,
  200: json(webhookSchema, "The webhook removed"),
});

export const listWebhookDeliveriesRoute = route(
  own("listWebhookDeliveries", `A webhook's deliveries, newest first (at most ${LIMITS.webhooks.deliveriesListed})`, [404]),
  { get: "/{id}/deliveries", cost: "light", params: id, 200: json(z.array(webhookDeliverySchema), "The deliveries") },
);

export const WEBHOOK_ROUTES = [listWebhooksRoute, createWebhookRoute, deleteWebhookRoute, listWebhookDeliveriesRoute] as const;
