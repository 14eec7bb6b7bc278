// The verifier's shape of a mine gateway's pushes: a climate project's meters over days of
// minutes, some minutes with two readings, shuffled, some readings sent twice, cut into batches pushed
// back to back without waiting for the consumer; and what a test or the soak bench reads back to hold
// the platform to its answers: every reading of a batch answered 202 stored once with its latest value,
// nothing stored that was never sent, and each batch's counters adding up to its lines. Plain checks that
// throw, not vitest's: `npm run bench -- readings-soak` uses it outside a test run.
import { readingsBetween } from "@server/domain/monitoring/minutes/consumer";
import type { Deps } from "@server/domain/context";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { callApi } from "./api-call";

/** The meters of a flare and an engine with their analyser and electricity meters (14 channels). */
export const METER_KINDS = [
  "flow",
  "methane_high",
  "flame",
  "pressure",
  "temperature",
  "exhaust_temperature",
  "destruction_efficiency",
  "run_status",
  "electricity",
  "electricity",
  "flow",
  "methane_high",
  "temperature",
  "pressure",
] as const;

/** A reading as the gateway sends it: sensor code, instant (ms), value. */
export type Reading = readonly [code: string, t: number, value: number];

/** A small seeded generator (mulberry32): the same scenario at each run. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shuffles `list` in place with `random` (Fisher–Yates). */
export function shuffle<T>(list: T[], random: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** The distinct readings of `codes` over `days` of minutes from `start` (a share of minutes with a second
 *  reading at :30), and what the gateway sends: those readings and a share of them again, shuffled. */
export function verifierShape(options: {
  codes: readonly string[];
  days: number;
  start: number;
  random: () => number;
  duplicates?: number;
}) {
  const { codes, days, start, random } = options;
  const readings: Reading[] = [];
  for (const code of codes)
    for (let m = 0; m < days * 1440; m++) {
      const t = start + m * 60_000;
      readings.push([code, t, Math.round(random() * 1000) / 1000]);
      if (random() < 0.05) readings.push([code, t + 30_000, Math.round(random() * 1000) / 1000]);
    }
  const sent = [...readings];
  for (const r of readings) if (random() < (options.duplicates ?? 0.03)) sent.push(r);
  return { readings, sent: shuffle(sent, random) };
}

/** A facility of `codes` meters (METER_KINDS in turn) with a gateway key, made through the API. */
export async function meteredFacility(url: string, token: string, codes: readonly string[], name = "Шахта «Сверка»") {
  const made = async (path: string, body: unknown) => {
    const res = await callApi(url, token, "POST", path, body);
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; company?: string; key?: string };
  };
  const facility = await made("/v1/facilities/", { name, kind: "underground_mine" });
  const point = await made(`/v1/facilities/${facility.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" });
  const sensors = new Map<string, string>();
  for (const [i, code] of codes.entries())
    sensors.set(
      code,
      (await made(`/v1/facilities/${facility.id}/sensors/`, { code, kind: METER_KINDS[i % METER_KINDS.length], point: point.id })).id,
    );
  const key = await made(`/v1/facilities/${facility.id}/gateway-keys/`, { label: "Шлюз" });
  return { facility: facility.id, company: String(facility.company), sensors, key: String(key.key) };
}

/** A batch pushed: its readings and, when the platform answered 202, its id. */
export interface Pushed {
  readings: readonly Reading[];
  batch?: string;
}

/** Pushes each of `batches` through the gateway's route, `concurrency` at a time, without waiting for the
 *  consumer; a push the server never answered (it was killed) is left without a batch id. */
export async function pushAll(url: string, key: string, batches: readonly (readonly Reading[])[], concurrency = 1): Promise<Pushed[]> {
  const out: Pushed[] = batches.map((readings) => ({ readings }));
  let next = 0;
  const pusher = async () => {
    while (next < batches.length) {
      const index = next++;
      const body = { readings: batches[index].map(([sensor, t, value]) => ({ sensor, t: new Date(t).toISOString(), value })) };
      const res = await fetch(`${url}/api/v1/telemetry/readings/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Gateway ${key}` },
        body: JSON.stringify(body),
      }).catch(() => undefined);
      if (!res) return;
      if (res.status === 202) out[index].batch = ((await res.json()) as { batch: string }).batch;
      else await res.body?.cancel();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, pusher));
  return out;
}

/** `list` cut into consecutive batches of `size`, or of random sizes from 1 to `size` with `random`. */
export function cut<T>(list: readonly T[], size: number, random?: () => number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; ) {
    const n = random ? 1 + Math.floor(random() * size) : size;
    out.push(list.slice(i, i + n));
    i += n;
  }
  return out;
}

/** What storage holds of each sensor code between `from` and `to`: instant → value, and how many
 *  readings it holds at one instant more than once (none, when each is stored once). */
export async function storedReadings(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  sensors: ReadonlyMap<string, string>,
  from: number,
  to: number,
) {
  const stored = new Map<string, Map<number, number>>();
  let twice = 0;
  for (const [code, id] of sensors) {
    const got = await readingsBetween(deps, company, id, from, to);
    const byInstant = new Map<number, number>();
    got.times.forEach((t, i) => {
      if (byInstant.has(t)) twice++;
      byInstant.set(t, got.values[i]);
    });
    stored.set(code, byInstant);
  }
  return { stored, twice };
}

/** The latest value of each reading of the batches answered 202, in the order given (a later batch's
 *  value for an instant is a correction of an earlier one's). */
export function acknowledgedModel(pushed: readonly Pushed[]): Map<string, Map<number, number>> {
  const model = new Map<string, Map<number, number>>();
  for (const p of pushed) {
    if (!p.batch) continue;
    for (const [code, t, value] of p.readings) {
      let byInstant = model.get(code);
      if (!byInstant) model.set(code, (byInstant = new Map()));
      byInstant.set(t, value);
    }
  }
  return model;
}

/** The readings of the model storage lacks or holds with another value («code ISO-time»), the first 20. */
export function differences(
  model: ReadonlyMap<string, ReadonlyMap<number, number>>,
  stored: ReadonlyMap<string, ReadonlyMap<number, number>>,
) {
  const missing: string[] = [];
  const changed: string[] = [];
  for (const [code, byInstant] of model)
    for (const [t, value] of byInstant) {
      const have = stored.get(code)?.get(t);
      if (have === undefined) missing.push(`${code} ${new Date(t).toISOString()}`);
      else if (!Object.is(have, value)) changed.push(`${code} ${new Date(t).toISOString()}: ${have} ≠ ${value}`);
    }
  return { missing: missing.length, changed: changed.length, first: [...missing, ...changed].slice(0, 20) };
}

/** Readings stored that no push ever sent (the union of every batch sent, answered or not). */
export function strays(sent: readonly Pushed[], stored: ReadonlyMap<string, ReadonlyMap<number, number>>): number {
  const values = new Map<string, Set<number>>();
  for (const p of sent)
    for (const [code, t, value] of p.readings) {
      const key = `${code}|${t}`;
      let set = values.get(key);
      if (!set) values.set(key, (set = new Set()));
      set.add(value);
    }
  let count = 0;
  for (const [code, byInstant] of stored) for (const [t, value] of byInstant) if (!values.get(`${code}|${t}`)?.has(value)) count++;
  return count;
}

/** A batch's status as the API answers it. */
export interface BatchStatus {
  state: string;
  lines: number;
  accepted: number;
  duplicate: number;
  corrected: number;
  refused: unknown[];
}

/** Each batch answered 202, read back as applied: done, its counters adding up to its lines. Answers the
 *  sum of their `accepted`. */
export async function appliedCounts(url: string, token: string, pushed: readonly Pushed[]): Promise<number> {
  let accepted = 0;
  for (const p of pushed) {
    if (!p.batch) continue;
    const res = await callApi(url, token, "GET", `/v1/telemetry/batches/${p.batch}/`);
    const status = res.body as unknown as BatchStatus;
    if (status.state !== "done") throw new Error(`batch ${p.batch} is ${status.state}, not done`);
    if (status.accepted + status.duplicate + status.corrected + status.refused.length !== status.lines)
      throw new Error(`batch ${p.batch}: accepted + duplicate + corrected + refused ≠ lines (${JSON.stringify(status)})`);
    accepted += status.accepted;
  }
  return accepted;
}

/** The queue of readings empty: monitoringIdle answers once the drains asked for are over, and a batch
 *  whose application failed (a busy machine's storage timing out) is tried again after its back-off
 *  (1 s, then 2, 4 and 8), by a drain of its own. */
export async function everyBatchApplied(deps: Deps): Promise<void> {
  for (;;) {
    await monitoringIdle(deps);
    if ((await deps.repos.monitoring.queued(1)).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
