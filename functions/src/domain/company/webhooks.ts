// A company's webhooks (issue 78): URLs its monitoring events (D65) are posted to as signed JSON.
// Each event is posted when it opens and when it closes, once each: the delivery is stored under its
// idempotency key (the event's id and «open» or «closed») before the event is, so the detector run
// again makes none twice; the receiver gets the key as Idempotency-Key. The body is signed with the
// webhook's secret (shown once, kept to sign): X-Signature `t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<body>">`. A receiver that does not answer 2xx is tried again with back-off (10 s, 30 s, 2 min,
// 10 min, 30 min, 1 h, 6 h, 12 h), then the delivery is failed; every attempt is in its log.
// Where it may post: in AWS (config.webhookPrivateAddresses unset) only https URLs whose host is and
// resolves to a public address — never loopback, a private network or link-local (the instance
// metadata); on the local host, installed inside the mine's network, any http(s) address, the test
// receiver on loopback too (docs/security.md). Advisory: protective cut-off stays with the mine's АГК.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { ADVISORY_NOTE } from "@core/telemetry";
import type * as z from "zod";
import type { Actor, Deps } from "../context";
import { Conflict, Forbidden, Invalid, NotFound } from "../errors";
import { newId } from "../ids";
import { recordChange } from "../audit";
import { fieldMessage } from "../../contract/field-errors";
import { LIMITS } from "../../contract/schemas/limits";
import type { webhookCreateSchema, webhookCreatedSchema, webhookDeliverySchema, webhookSchema } from "../../contract/schemas/webhooks";
import type { TelemetryEvent, WebhookRecord, WebhookDeliveryRecord, WebhookQueued } from "../../ports";

export type WebhookView = z.output<typeof webhookSchema>;
export type WebhookCreated = z.output<typeof webhookCreatedSchema>;
export type WebhookDeliveryView = z.output<typeof webhookDeliverySchema>;

/** Seconds before each attempt after the first; then the delivery is failed. */
export const WEBHOOK_RETRY_SECONDS: readonly number[] = [10, 30, 120, 600, 1_800, 3_600, 21_600, 43_200];
/** How long one attempt waits for the receiver's answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Marks taken from the queue at a time. */
const DUE_BATCH = 25;
const SECRET_PREFIX = "whsec_";
const SHOWN_PREFIX = 12;
const FORBIDDEN = "Недостаточно прав: вебхуки настраивают сотрудники компании, не проверяющий";

const view = (hook: WebhookRecord): WebhookView => ({
  id: hook.id,
  url: hook.url,
  label: hook.label,
  secret_prefix: hook.secret.slice(0, SHOWN_PREFIX),
  created_at: hook.created_at,
  created_by: hook.created_by,
});

const deliveryView = (d: WebhookDeliveryRecord): WebhookDeliveryView => ({
  key: d.key,
  event: d.event,
  event_start: d.sort.slice(0, d.sort.indexOf("#")),
  event_state: d.key.endsWith(".open") ? "open" : "closed",
  state: d.state,
  attempts: d.attempts,
  last_status: d.last_status,
  last_error: d.last_error,
  created_at: d.created_at,
  next_at: d.state === "pending" ? d.next_at : null,
  delivered_at: d.delivered_at,
});

// ---- where a webhook may post ----------------------------------------------------------------------

function ipv4Private(address: string): boolean {
  const [a, b] = address.split(".").map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b < 128) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** Whether an IP address is loopback, private, shared, link-local, multicast or unspecified. */
export function privateAddress(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, "").toLowerCase();
  if (isIP(plain) === 4) return ipv4Private(plain);
  if (isIP(plain) !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return ipv4Private(mapped[1]);
  // The same written in hex, as the URL parser writes it (::ffff:7f00:1).
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(plain);
  if (hex) {
    const [high, low] = [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)];
    return ipv4Private(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return plain === "::" || plain === "::1" || /^f[cd]/.test(plain) || /^fe[89ab]/.test(plain) || plain.startsWith("ff");
}

/** The URL a webhook is registered with, checked: http(s) only; where private addresses are not allowed
 *  (AWS), https and a host that is no private address nor «localhost». */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Invalid(fieldMessage("url", "это не адрес (ожидается https://…)"));
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Invalid(fieldMessage("url", "адрес должен начинаться с https://"));
  if (url.username || url.password) throw new Invalid(fieldMessage("url", "адрес не должен содержать имя и пароль"));
  if (!allowPrivate) {
    if (url.protocol !== "https:") throw new Invalid(fieldMessage("url", "адрес должен начинаться с https://"));
    const host = url.hostname.toLowerCase();
    if (host === "localhost" || host.endsWith(".localhost") || privateAddress(host))
      throw new Invalid(fieldMessage("url", "адрес во внутренней сети или на этом сервере не допускается"));
  }
  return url;
}

/** Where private addresses are not allowed, the host's addresses as DNS gives them now: a name that
 *  resolves to a private address is refused at each attempt (a record changed after the check). */
async function resolvesPublic(url: URL): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return !privateAddress(host);
  const addresses = await lookup(host, { all: true });
  return addresses.length > 0 && addresses.every((a) => !privateAddress(a.address));
}

const allowsPrivate = (deps: Partial<Pick<Deps, "config">>) => deps.config?.webhookPrivateAddresses === true;

// ---- the routes' work --------------------------------------------------------------------------------

/** The company's change log (Профиль › «История изменений»): who added or removed which URL, never the secret. */
const logWebhook = (deps: Deps, actor: Actor, action: string, before: WebhookRecord | null, after: WebhookRecord) =>
  recordChange(
    deps,
    actor,
    {
      action,
      target_type: "webhook",
      target_id: after.id,
      target_label: after.label || after.url,
      before: before ? { url: before.url, label: before.label, removed: false } : null,
      after: { url: after.url, label: after.label, removed: action === "webhook.delete" },
    },
    after.company,
  );

export async function listWebhooks(deps: Deps, actor: Actor): Promise<WebhookView[]> {
  const hooks = await deps.repos.webhooks.list(actor.company);
  return hooks.sort((a, b) => a.created_at.localeCompare(b.created_at)).map(view);
}

export async function createWebhook(deps: Deps, actor: Actor, input: z.output<typeof webhookCreateSchema>): Promise<WebhookCreated> {
  if (actor.role === "reviewer") throw new Forbidden(FORBIDDEN);
  const url = checkWebhookUrl(input.url, allowsPrivate(deps));
  if ((await deps.repos.webhooks.list(actor.company)).length >= LIMITS.webhooks.perCompany)
    throw new Conflict(`У компании уже ${LIMITS.webhooks.perCompany} вебхуков: удалите ненужный`);
  const hook: WebhookRecord = {
    company: actor.company,
    id: newId(),
    url: url.toString(),
    label: input.label ?? "",
    secret: `${SECRET_PREFIX}${randomBytes(32).toString("base64url")}`,
    created_at: deps.clock.now().toISOString(),
    created_by: actor.email,
  };
  await deps.repos.webhooks.create(hook);
  await logWebhook(deps, actor, "webhook.create", null, hook);
  return { ...view(hook), secret: hook.secret };
}

export async function deleteWebhook(deps: Deps, actor: Actor, id: string): Promise<WebhookView> {
  if (actor.role === "reviewer") throw new Forbidden(FORBIDDEN);
  const hook = await deps.repos.webhooks.get(actor.company, id);
  if (!hook) throw new NotFound("Вебхук не найден");
  await deps.repos.webhooks.remove(actor.company, id);
  await logWebhook(deps, actor, "webhook.delete", hook, hook);
  return view(hook);
}

export async function listDeliveries(deps: Deps, actor: Actor, id: string): Promise<WebhookDeliveryView[]> {
  if (!(await deps.repos.webhooks.get(actor.company, id))) throw new NotFound("Вебхук не найден");
  return (await deps.repos.webhooks.deliveries(actor.company, id, LIMITS.webhooks.deliveriesListed)).map(deliveryView);
}

// ---- the message and its signature -------------------------------------------------------------------

/** X-Signature of `body` sent at `timestamp` (unix seconds). */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** What a receiver checks (docs/api.md): the signature over the timestamp and the body, made at most
 *  `toleranceSeconds` before `now` (seconds). */
export function verifyWebhookSignature(secret: string, header: string, body: string, now: number, toleranceSeconds = 300): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const timestamp = Number(match[1]);
  if (Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(webhookSignature(secret, timestamp, body).slice(`t=${timestamp},v1=`.length), "hex");
  return timingSafeEqual(expected, Buffer.from(match[2], "hex"));
}

/** How the events' messages name their facility and show each event (as GET v1/telemetry/events/ does). */
export interface EventDescriber {
  facility: { id: string; name: string };
  view(event: TelemetryEvent): unknown;
}

/** D65 → webhooks: a delivery to each of the company's webhooks for each event about to be stored
 *  open or closed, made once per (webhook, key); answers how many were made. Called before the events
 *  are written, so a kill between them leaves the delivery, never the event without it. `describe` is
 *  asked only when the company has a webhook. */
export async function enqueueEventDeliveries(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  events: readonly TelemetryEvent[],
  describe: () => Promise<EventDescriber>,
): Promise<number> {
  if (events.length === 0) return 0;
  const hooks = await deps.repos.webhooks.list(company);
  if (hooks.length === 0) return 0;
  const { facility, view: eventView } = await describe();
  const now = deps.clock.now().toISOString();
  let made = 0;
  for (const event of events) {
    const state = event.end === null ? "open" : "closed";
    const key = `${event.id}.${state}`;
    const body = JSON.stringify({
      id: key,
      type: state === "open" ? "telemetry.event.opened" : "telemetry.event.closed",
      created_at: now,
      facility,
      event: eventView(event),
      advisory: ADVISORY_NOTE,
    });
    for (const hook of hooks) {
      const delivery: WebhookDeliveryRecord = {
        company,
        webhook: hook.id,
        key,
        sort: `${event.start}#${key}`,
        event: event.id,
        body,
        state: "pending",
        attempts: 0,
        last_status: 0,
        last_error: "",
        created_at: now,
        next_at: now,
        delivered_at: null,
        version: 1,
      };
      if (await deps.repos.webhooks.createDelivery(delivery)) made++;
    }
  }
  return made;
}

// ---- sending -------------------------------------------------------------------------------------------

type SendDeps = Pick<Deps, "repos" | "clock"> & Partial<Pick<Deps, "config">>;

/** One attempt: the stored body, signed now, posted with its idempotency key; redirects are not followed. */
async function attempt(deps: SendDeps, hook: WebhookRecord, delivery: WebhookDeliveryRecord): Promise<{ status: number; error: string }> {
  try {
    const url = new URL(hook.url);
    if (!allowsPrivate(deps) && !(await resolvesPublic(url))) return { status: 0, error: "адрес приемника во внутренней сети" };
    const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
    const response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "fugitive-emissions-platform-webhook/1",
        "Idempotency-Key": delivery.key,
        "X-Signature": webhookSignature(hook.secret, timestamp, delivery.body),
      },
      body: delivery.body,
    });
    await response.body?.cancel();
    return { status: response.status, error: response.ok ? "" : `ответ ${response.status}` };
  } catch (error) {
    return {
      status: 0,
      error: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error),
    };
  }
}

/** Takes up one queue mark: sends its delivery if it is still pending and due, writes what came of it. */
async function deliver(deps: SendDeps, mark: WebhookQueued): Promise<void> {
  const delivery = await deps.repos.webhooks.getDelivery(mark.company, mark.webhook, mark.sort);
  const hook = delivery && (await deps.repos.webhooks.get(mark.company, mark.webhook));
  if (!delivery || !hook || delivery.state !== "pending" || delivery.next_at !== mark.next_at) {
    await deps.repos.webhooks.dropQueued(mark);
    return;
  }
  const result = await attempt(deps, hook, delivery);
  const at = deps.clock.now();
  const attempts = delivery.attempts + 1;
  const delivered = result.status >= 200 && result.status < 300;
  const retry = WEBHOOK_RETRY_SECONDS[attempts - 1];
  const next: WebhookDeliveryRecord = {
    ...delivery,
    attempts,
    last_status: result.status,
    last_error: result.error,
    state: delivered ? "delivered" : retry === undefined ? "failed" : "pending",
    next_at: delivered || retry === undefined ? delivery.next_at : new Date(at.getTime() + retry * 1000).toISOString(),
    delivered_at: delivered ? at.toISOString() : null,
  };
  if (!(await deps.repos.webhooks.updateDelivery(next, delivery))) {
    // Another sender wrote it meanwhile (two processes): its mark is its own to take up.
    return;
  }
}

/** Sends every delivery due now, oldest first, until none is due. */
async function drain(deps: SendDeps): Promise<void> {
  for (;;) {
    const due = await deps.repos.webhooks.due(deps.clock.now().toISOString(), DUE_BATCH);
    if (due.length === 0) return;
    for (const mark of due) await deliver(deps, mark);
  }
}

const running = new WeakMap<object, { again: boolean; done: Promise<void> }>();

/** Sends what is due in this process: after the detector made deliveries, and on the local host's
 *  timer for the retries. One send runs at a time; a call meanwhile makes it look once more when done. */
export function drainWebhooks(deps: SendDeps): Promise<void> {
  const current = running.get(deps.repos);
  if (current) {
    current.again = true;
    return current.done;
  }
  const state = { again: false, done: Promise.resolve() };
  state.done = (async () => {
    try {
      do {
        state.again = false;
        await drain(deps).catch((error) => console.error("webhooks:", error));
      } while (state.again);
    } finally {
      running.delete(deps.repos);
    }
  })();
  running.set(deps.repos, state);
  return state.done;
}

/** Resolves once the sends started so far are done (tests, a graceful stop). */
export const webhooksIdle = (deps: Pick<Deps, "repos">): Promise<void> => running.get(deps.repos)?.done ?? Promise.resolve();
