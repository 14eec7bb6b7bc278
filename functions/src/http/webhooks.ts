// v1/company/webhooks/ served: the declarations are in contract/routes/webhooks.ts, the
// work in domain/monitoring/derive/webhooks.ts.
import { createWebhookRoute, deleteWebhookRoute, listWebhookDeliveriesRoute, listWebhooksRoute } from "../contract/routes/webhooks";
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks } from "../domain/monitoring/derive/webhooks";
import { routeApp } from "./openapi-routes";

export const webhookRoutes = routeApp()
  .openapi(listWebhooksRoute, async (c) => c.json(await listWebhooks(c.get("deps"), c.get("actor")), 200))
  .openapi(createWebhookRoute, async (c) => c.json(await createWebhook(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(deleteWebhookRoute, async (c) => c.json(await deleteWebhook(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(listWebhookDeliveriesRoute, async (c) =>
    c.json(await listDeliveries(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
  );
