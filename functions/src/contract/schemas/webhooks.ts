// A company's webhooks as the API takes and answers them (v1/company/webhooks/): the URL
// monitoring events are posted to, its secret shown once, and each delivery with its attempts.
import * as z from "zod";
import { LIMITS } from "./limits";

export const webhookCreateSchema = z.object({
  url: z
    .string("укажите адрес приемника (https://…)")
    .check(
      z.trim(),
      z.minLength(1, "укажите адрес приемника (https://…)"),
      z.maxLength(LIMITS.webhooks.url, `не длиннее ${LIMITS.webhooks.url} символов`),
    ),
  label: z.optional(
    z.string("ожидается строка").check(z.trim(), z.maxLength(LIMITS.webhooks.label, `не длиннее ${LIMITS.webhooks.label} символов`)),
  ),
});

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  label: z.string(),
  secret_prefix: z.string().meta({ description: "The secret's first characters: the secret itself is shown once, when created" }),
  created_at: z.string(),
  created_by: z.string(),
});

export const webhookCreatedSchema = z.object({
  ...webhookSchema.shape,
  secret: z.string().meta({
    description: 'Shown this once: each delivery carries X-Signature `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`',
  }),
});

export const webhookDeliverySchema = z.object({
  key: z.string().meta({ description: "The idempotency key (Idempotency-Key): the event's id and «open» or «closed»" }),
  event: z.string(),
  event_start: z.string().meta({ description: "The event's start (ISO)" }),
  event_state: z.enum(["open", "closed"]).meta({ description: "Whether this message tells the event opened or closed" }),
  state: z.enum(["pending", "delivered", "failed"]).meta({ description: "pending: tried again later; failed: the attempts ran out" }),
  attempts: z.int(),
  last_status: z.int().meta({ description: "The receiver's last HTTP status; 0 when it could not be reached" }),
  last_error: z.string(),
  created_at: z.string(),
  next_at: z.nullable(z.string()).meta({ description: "When it is tried next; null once delivered or failed" }),
  delivered_at: z.nullable(z.string()),
});
