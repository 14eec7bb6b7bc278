// A company's webhooks: URLs its monitoring events (D65) are posted to as signed JSON.
// Each event is posted when it opens and when it closes, once each: the delivery is stored under its
// idempotency key (the event's id and «open» or «closed») before the event is, so the detector run
// again makes none twice; the receiver gets the key as Idempotency-Key. The body is signed with the
// webhook's secret (shown once, kept to sign): X-Signature `t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<body>">`. A receiver that does not answer 2xx is tried again with back-off (10 s, 30 s, 2 min,
// 10 min, 30 min, 1 h, 6 h, 12 h), then the delivery is failed; every attempt is in its log.
// Where it may post (webhook-addresses.ts): public addresses over https, and the receivers inside the
// mine's network the local host's operator named (WEBHOOK_ALLOWED_RECEIVERS), nothing else; a name is
// checked by what it resolves to at each attempt and connected to at that address (docs/security.md),
// by the transport the host gives its sender (ports/webhook-transport.ts: Node's HTTP and DNS, or a
// test's receiver).
// The sender is the host's (`webhookSender`): companies in turns, each receiver bounded and backed off
// alone (R5). Advisory: protective cut-off stays with the mine's АГК.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { ADVISORY_NOTE } from "@core/monitoring";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, invalidAt, NotFound } from "../../errors";
import { newId } from "../../ids";
import { recordChange } from "../../audit";
import { addressAllowed, plainHost, receiverAllowList, type ReceiverAllowList } from "./webhook-addresses";
import { LIMITS } from "../../../contract/schemas/limits";
import type { webhookCreateSchema, webhookCreatedSchema, webhookDeliverySchema, webhookSchema } from "../../../contract/schemas/webhooks";
import type { SensorEvent, WebhookRecord, WebhookDeliveryRecord, WebhookQueued, WebhookTransport } from "../../../ports";

export type WebhookView = z.output<typeof webhookSchema>;
export type WebhookCreated = z.output<typeof webhookCreatedSchema>;
export type WebhookDeliveryView = z.output<typeof webhookDeliverySchema>;

/** Seconds before each attempt after the first; then the delivery is failed. */
export const WEBHOOK_RETRY_SECONDS: readonly number[] = [10, 30, 120, 600, 1_800, 3_600, 21_600, 43_200];
/** How long one attempt waits for the receiver's answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
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

// ---- where a webhook may post (webhook-addresses.ts) --------------------------------------------------

const NOT_ALLOWED = "адрес во внутренней сети или на этом сервере не допускается";

/** The receivers the host's operator allowed beside public addresses (config.webhookAllowedReceivers). */
const allowListOf = (deps: Partial<Pick<Deps, "config">>): ReceiverAllowList => receiverAllowList(deps.config?.webhookAllowedReceivers);

/** The URL a webhook is registered with, checked: http(s) only, no name and password; a host that is
 *  an address must be a public one or in a network the operator allowed, a name no «localhost»
 *  unless the operator named it; plain http only where the operator allowed receivers (the local host
 *  inside the mine's network), https everywhere else. A name's addresses are checked at each attempt. */
export function checkWebhookUrl(raw: string, allow: ReceiverAllowList): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidAt("url", "это не адрес (ожидается https://…)");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalidAt("url", "адрес должен начинаться с https://");
  if (url.username || url.password) throw invalidAt("url", "адрес не должен содержать имя и пароль");
  if (url.protocol !== "https:" && !allow.any) throw invalidAt("url", "адрес должен начинаться с https://");
  const host = plainHost(url.hostname);
  if (allow.hosts.has(host)) return url;
  if (isIP(host) ? !addressAllowed(host, allow) : host === "localhost" || host.endsWith(".localhost")) throw invalidAt("url", NOT_ALLOWED);
  return url;
}

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
  const url = checkWebhookUrl(input.url, allowListOf(deps));
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
  view(event: SensorEvent): unknown;
}

/** D65 → webhooks: a delivery to each of the company's webhooks for each event about to be stored
 *  open or closed, made once per (webhook, key); answers how many were made. Called before the events
 *  are written, so a kill between them leaves the delivery, never the event without it. `describe` is
 *  asked only when the company has a webhook. */
export async function enqueueEventDeliveries(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  events: readonly SensorEvent[],
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
      // The subscribers' contract (docs/api.md): the types keep the wing's public name.
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

// ---- sending (per company, per receiver) -------------------------------------------------------

type SendDeps = Pick<Deps, "repos" | "clock"> & Partial<Pick<Deps, "config">>;

/** Attempts in flight at once: for one company, to one receiver (its scheme, host and port), in all.
 *  Companies take turns within the total, so one company's receivers that hang hold its own turns only. */
export const WEBHOOK_SENDS = { perCompany: 4, perReceiver: 2, total: 16 } as const;
/** Seconds a receiver that let an attempt time out is left alone (its deliveries due meanwhile are put
 *  off to then, their attempts not counted), longer after each time out in a row; an answer ends it. */
export const RECEIVER_BACKOFF_SECONDS: readonly number[] = [30, 60, 120, 300, 600];
/** Due marks read a page at a time; at most this many of one company's are held while its turns are
 *  full (the rest are read again once these are done). */
const DUE_PAGE = 50;
const HELD_PER_COMPANY = 100;

/** Why a delivery was not sent where the address is not allowed: the far end is never reached, so no
 *  status of it is told (R10). */
export const NOT_DELIVERED_ADDRESS = "не доставлено: адрес приемника во внутренней сети или на этом сервере не разрешен";

interface AttemptResult {
  status: number;
  error: string;
  /** The receiver did not answer in WEBHOOK_TIMEOUT_MS. */
  timedOut?: boolean;
  /** Cut by the sender's stop: nothing is written, the delivery stays due. */
  stopped?: boolean;
}

/** Whether a webhook's receiver may be reached at an address: any address of a host the operator
 *  named, else a public one or one in a network the operator allowed. */
function allowedAddresses(url: URL, allow: ReceiverAllowList): (address: string) => boolean {
  if (allow.hosts.has(plainHost(url.hostname))) return () => true;
  return (address) => addressAllowed(address, allow);
}

/** One attempt: the stored body, signed now, posted with its idempotency key. */
async function attempt(
  deps: SendDeps,
  transport: WebhookTransport,
  hook: WebhookRecord,
  delivery: WebhookDeliveryRecord,
  timeoutMs: number,
  stopped: AbortSignal,
): Promise<AttemptResult> {
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), stopped]);
  try {
    const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
    const url = new URL(hook.url);
    const status = await transport.post({
      url,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "fugitive-emissions-platform-webhook/1",
        "Idempotency-Key": delivery.key,
        "X-Signature": webhookSignature(hook.secret, timestamp, delivery.body),
      },
      body: delivery.body,
      allowed: allowedAddresses(url, allowListOf(deps)),
      signal,
    });
    if (status === "address not allowed") return { status: 0, error: NOT_DELIVERED_ADDRESS };
    return { status, error: status >= 200 && status < 300 ? "" : `ответ ${status}` };
  } catch (error) {
    if (stopped.aborted) return { status: 0, error: "", stopped: true };
    if (signal.aborted) return { status: 0, error: `приемник не ответил за ${timeoutMs / 1000} с`, timedOut: true };
    return {
      status: 0,
      error: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error),
    };
  }
}

/** Where a webhook's attempts go, for their bound and back-off: scheme, host and port. */
const receiverOf = (url: string): string => {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return url;
  }
};

/** The sender of webhook deliveries: what a host runs (the local server, the readings' and the minute's
 *  Lambdas), its queues, turns and back-offs in it, none in this module. */
export interface WebhookSender {
  /** Deliveries were made or may have come due: sends what is due now (a send running looks once more
   *  when done). The host calls it on its timer and as the detector's `webhooksDue`. */
  due(): void;
  /** Resolves once the sends asked for so far are done. */
  idle(): Promise<void>;
  /** `due()`, then `idle()`. */
  drain(): Promise<void>;
  /** Stops: starts nothing more, waits for the attempts in flight at most `graceMs`, then cuts them
   *  (a cut delivery stays due as it was, sent after the next start). */
  close(graceMs?: number): Promise<void>;
}

export interface WebhookSenderOptions {
  sends?: Partial<typeof WEBHOOK_SENDS>;
  timeoutMs?: number;
  /** Where a failed round is told (the server log); console.error by default. */
  log?: (message: string) => void;
}

interface CompanyTurns {
  active: number;
  held: WebhookQueued[];
}

/** A sender over `deps`, posting through `transport`: companies take turns within WEBHOOK_SENDS, each receiver at most its own share,
 *  and one that let an attempt time out is left alone for RECEIVER_BACKOFF_SECONDS (R5): one
 *  company's receivers that hang delay no other company's deliveries. */
export function webhookSender(deps: SendDeps, transport: WebhookTransport, options: WebhookSenderOptions = {}): WebhookSender {
  const bounds = { ...WEBHOOK_SENDS, ...options.sends };
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const log = options.log ?? ((message: string) => console.error(`webhooks: ${message}`));
  const stop = new AbortController();
  const companies = new Map<string, CompanyTurns>();
  const receivers = new Map<string, { active: number; waiting: Array<() => void> }>();
  const backedOff = new Map<string, { until: number; step: number }>();
  /** Each webhook's receiver, once read: a mark whose receiver is full waits behind its company's others. */
  const receiverOfHook = new Map<string, string>();
  /** The marks held or in flight, by their queue key. */
  const taken = new Set<string>();
  let total = 0;
  let running: Promise<void> | undefined;
  let again = false;
  let wake: (() => void) | undefined;

  const markKey = (m: WebhookQueued) => `${m.next_at}#${m.company}#${m.webhook}#${m.sort}`;
  const isBackedOff = (receiver: string) => (backedOff.get(receiver)?.until ?? 0) > deps.clock.now().getTime();
  const receiverHasRoom = (receiver: string) => isBackedOff(receiver) || (receivers.get(receiver)?.active ?? 0) < bounds.perReceiver;

  const takeReceiver = async (receiver: string) => {
    let line = receivers.get(receiver);
    if (!line) receivers.set(receiver, (line = { active: 0, waiting: [] }));
    if (line.active < bounds.perReceiver) line.active++;
    else {
      const own = line;
      // The slot is handed over by releaseReceiver, still counted: the line lives while it is held.
      await new Promise<void>((resolve) => own.waiting.push(resolve));
    }
  };
  const releaseReceiver = (receiver: string) => {
    const line = receivers.get(receiver)!;
    const next = line.waiting.shift();
    if (next) return next();
    line.active--;
    if (line.active === 0) receivers.delete(receiver);
  };

  /** Moves a delivery's next attempt to the end of its receiver's back-off, its attempts as they were. */
  const putOff = async (delivery: WebhookDeliveryRecord, receiver: string) => {
    const until = backedOff.get(receiver)!.until;
    await deps.repos.webhooks.updateDelivery(
      {
        ...delivery,
        next_at: new Date(until).toISOString(),
        last_error: `приемник не отвечал ${timeoutMs / 1000} с: доставка отложена`,
      },
      delivery,
    );
  };

  /** Takes up one queue mark: sends its delivery if it is still pending and due, writes what came of it. */
  const deliver = async (mark: WebhookQueued): Promise<void> => {
    const delivery = await deps.repos.webhooks.getDelivery(mark.company, mark.webhook, mark.sort);
    const hook = delivery && (await deps.repos.webhooks.get(mark.company, mark.webhook));
    if (!delivery || !hook || delivery.state !== "pending" || delivery.next_at !== mark.next_at) {
      await deps.repos.webhooks.dropQueued(mark);
      return;
    }
    const receiver = receiverOf(hook.url);
    receiverOfHook.set(`${mark.company}/${mark.webhook}`, receiver);
    if (isBackedOff(receiver)) return putOff(delivery, receiver);
    await takeReceiver(receiver);
    let result: AttemptResult;
    try {
      // A time out while this one waited for its turn puts it off too.
      if (isBackedOff(receiver)) return await putOff(delivery, receiver);
      if (stop.signal.aborted) return;
      result = await attempt(deps, transport, hook, delivery, timeoutMs, stop.signal);
    } finally {
      releaseReceiver(receiver);
    }
    if (result.stopped) return;
    const at = deps.clock.now();
    if (result.timedOut) {
      const previous = backedOff.get(receiver);
      if (!previous || previous.until <= at.getTime()) {
        const step = previous ? Math.min(previous.step + 1, RECEIVER_BACKOFF_SECONDS.length - 1) : 0;
        backedOff.set(receiver, { until: at.getTime() + RECEIVER_BACKOFF_SECONDS[step] * 1000, step });
      }
    } else if (result.status > 0) backedOff.delete(receiver);
    const attempts = delivery.attempts + 1;
    const delivered = result.status >= 200 && result.status < 300;
    const retry = WEBHOOK_RETRY_SECONDS[attempts - 1];
    // Written only if no other sender (another process) wrote it meanwhile: then its mark is its own.
    await deps.repos.webhooks.updateDelivery(
      {
        ...delivery,
        attempts,
        last_status: result.status,
        last_error: result.error,
        state: delivered ? "delivered" : retry === undefined ? "failed" : "pending",
        next_at: delivered || retry === undefined ? delivery.next_at : new Date(at.getTime() + retry * 1000).toISOString(),
        delivered_at: delivered ? at.toISOString() : null,
      },
      delivery,
    );
  };

  const start = (company: string, turns: CompanyTurns, mark: WebhookQueued) => {
    turns.active++;
    total++;
    deliver(mark)
      .catch((error) => log(`delivery ${mark.company}/${mark.webhook}/${mark.sort}: ${String(error)}`))
      .finally(() => {
        turns.active--;
        total--;
        taken.delete(markKey(mark));
        if (turns.active === 0 && turns.held.length === 0) companies.delete(company);
        pump();
        wakeUp();
      });
  };

  /** Starts what the bounds allow, one mark of each company in turn. */
  const pump = () => {
    if (stop.signal.aborted) return;
    for (let started = true; started && total < bounds.total; ) {
      started = false;
      for (const [company, turns] of companies) {
        if (total >= bounds.total) break;
        if (turns.active >= bounds.perCompany) continue;
        const i = turns.held.findIndex((m) => {
          const receiver = receiverOfHook.get(`${m.company}/${m.webhook}`);
          return receiver === undefined || receiverHasRoom(receiver);
        });
        if (i < 0) continue;
        const [mark] = turns.held.splice(i, 1);
        start(company, turns, mark);
        started = true;
      }
    }
  };

  const anyHeld = () => [...companies.values()].some((t) => t.held.length > 0);

  const wakeUp = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const woken = () => new Promise<void>((resolve) => (wake = resolve));

  /** Reads every mark due now, a page at a time, holding each company's in its turns; reads again at
   *  once when asked meanwhile (the marks taken stay as they are), and once all are done if a company
   *  had more than it may hold; ends when all are done. */
  const round = async () => {
    try {
      for (;;) {
        again = false;
        let skipped = false;
        const now = deps.clock.now().toISOString();
        let after: WebhookQueued | undefined;
        while (!stop.signal.aborted) {
          const page = await deps.repos.webhooks.due(now, DUE_PAGE, after);
          for (const mark of page) {
            const key = markKey(mark);
            if (taken.has(key)) continue;
            let turns = companies.get(mark.company);
            if (!turns) companies.set(mark.company, (turns = { active: 0, held: [] }));
            if (turns.held.length >= HELD_PER_COMPANY) {
              skipped = true;
              continue;
            }
            turns.held.push(mark);
            taken.add(key);
          }
          pump();
          if (page.length < DUE_PAGE) break;
          after = page[page.length - 1];
        }
        for (const [company, turns] of companies) if (turns.active === 0 && turns.held.length === 0) companies.delete(company);
        while ((total > 0 || anyHeld()) && !again && !stop.signal.aborted) await woken();
        if (stop.signal.aborted) {
          while (total > 0) await woken();
          return;
        }
        if (again) continue;
        if (!skipped) return;
      }
    } catch (error) {
      log(String(error));
    } finally {
      running = undefined;
    }
  };

  const due = () => {
    if (stop.signal.aborted) return;
    if (running) {
      again = true;
      wakeUp();
      return;
    }
    running = round();
  };
  const idle = () => running ?? Promise.resolve();
  return {
    due,
    idle,
    drain() {
      due();
      return idle();
    },
    async close(graceMs = 0) {
      if (graceMs > 0 && running) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
        clearTimeout(timer);
      }
      stop.abort();
      for (const turns of companies.values()) {
        for (const mark of turns.held) taken.delete(markKey(mark));
        turns.held = [];
      }
      wakeUp();
      await idle();
    },
  };
}
