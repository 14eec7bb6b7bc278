// D65's forecast event with no page watching, on the local server as `npm start` runs it (dynalite, the
// consumer in its worker thread): a longwall whose methane rises in a sawtooth every 4 hours (0,5 % for
// 48 minutes, then +0,25 % an hour to 1,3 %, then back) has 8 days of it pushed by its gateway; the
// platform's 30-minute model is calibrated on the first four of those days for the company (POST
// v1/forecast_models/…/calibration/) and bound to the working. Its back-test on the rows after the
// calibration's judges its P better than the base rate — the 1-hour model's P, sure of
// 1 % an hour after each peak that falls back, was not, and no longer turns the rule on —
// and turns the rule «прогноз P ≥ 0,5» on (it warned 40 minutes ahead, «текущее ≥ 0,9·предела» 30, neither
// with more false alerts: functions/src/domain/monitoring/live/live.test.ts works the choice by hand). Then
// the next rise is pushed 10 minutes at a time and nothing asks for the tiles or opens their stream: the
// forecaster the consumer runs on each batch opens the forecast event as P reaches 0,5, before the reading
// reaches A; it is listed (kind «forecast»), posted once to the company's webhook and listed by the shift
// report; the fall back to 0,5 % closes it, posted once more. With the forecaster taken out of the local
// host's table (local/subscribers.ts) no forecast event is made and this file fails.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/company/users";
import { accessToken } from "../support/server";
import { HISTORY_HEADERS } from "../support/longwall-csv";

const LIMIT = 1;
const PERIOD = 240;
/** The meter's value k minutes into a rise: 0,5 % for 48 minutes, then +0,25 % an hour to 1,3 %. */
const sawtooth = (k: number) => (k < 48 ? 0.5 : Math.round((0.5 + ((k - 48) * 0.25) / 60) * 1000) / 1000);
/** The minute the live rise starts: its 150 minutes end well before the server's clock. On the clock's
 *  10-minute grid, as the tile's back-test samples the history: at another phase of the
 *  sawtooth (START 6 minutes past the grid) the back-test finds the reading's rule as good, keeps it, and
 *  whether this file passed hung on the minute it was run. */
const START = (Math.floor(Date.now() / (10 * MINUTE_MS)) - 20) * 10 * MINUTE_MS;
const HISTORY_DAYS = 8;
const two = (n: number) => String(n).padStart(2, "0");
/** «01.01.2025 08:10» (UTC), as the export writes it. */
const typed = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
};

let server: LocalServer;
let receiver: Server;
let token: string;
let gateway: string;
let facility: string;
const received: { key: string; body: { event: { kind: string; start: string; end: string | null } } }[] = [];

interface Event {
  id: string;
  kind: string;
  level: string;
  sensor_code: string;
  working: string;
  start: string;
  end: string | null;
  minutes_above: number;
  shift: { date: string; number: number };
  forecast: { horizon_min: number; probability: number; came_true: boolean | null } | null;
}

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const api = (path: string, init: { method?: string; body?: unknown; form?: FormData } = {}) =>
  fetch(`${server.url}/api/${path}`, {
    method: init.method ?? (init.body || init.form ? "POST" : "GET"),
    headers: { Authorization: `Bearer ${token}`, ...(init.body ? { "Content-Type": "application/json" } : {}) },
    body: init.form ?? (init.body ? JSON.stringify(init.body) : undefined),
  });

/** Pushes the meter's minutes [from, to) as the gateway does, and waits until the consumer applied them. */
async function push(from: number, to: number, value: (minute: number) => number) {
  const readings = [];
  for (let m = from; m < to; m += MINUTE_MS) readings.push({ sensor: "М-1", t: new Date(m + 20_000).toISOString(), value: value(m) });
  for (let i = 0; i < readings.length; i += 6000) {
    const res = await fetch(`${server.url}/api/v1/telemetry/readings/`, {
      method: "POST",
      headers: { Authorization: `Gateway ${gateway}`, "Content-Type": "application/json" },
      body: JSON.stringify({ readings: readings.slice(i, i + 6000) }),
    });
    expect(res.status, await res.clone().text()).toBe(202);
  }
  await server.settled();
}
const minutes = (k: number) => START + k * MINUTE_MS;
/** The live rise: k minutes after START. */
const rise = (t: number) => sawtooth((t - START) / MINUTE_MS);

const forecastEvents = async () => {
  // Instants, not dates: a date is 00:00 on the company's clock (UTC+7), and a rise that crosses its
  // midnight (this file run after 17:00 UTC) opens its event past the UTC date's day.
  const at = (t: number) => encodeURIComponent(new Date(t).toISOString());
  const query = `facility=${facility}&from=${at(START - 86_400_000)}&to=${at(START + 86_400_000)}&kind=forecast`;
  return (await json<{ results: Event[]; count: number }>(await api(`v1/telemetry/events/?${query}`))).results;
};
const delivered = () => received.filter((r) => r.body.event.kind === "forecast").map((r) => r.key);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ key: String(req.headers["idempotency-key"]), body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  server = await startLocalServer({ port: 0, webhookAllowedReceivers: ["127.0.0.1"] });
  const company = await createCompany(server.deps, { name: "ООО «Прогноз без экрана»" });
  const user = { email: "unwatched@example.com", password: "unwatched-password-1" };
  await createUser(server.deps, { companyId: company.id, ...user });
  token = await accessToken(server.url, user);
  facility = (await json<{ id: string }>(await api("v1/facilities/", { body: { name: "Шахта «Ночная»", kind: "underground_mine" } }), 201))
    .id;
  const point = await json<{ id: string }>(
    await api(`v1/facilities/${facility}/points/`, { body: { name: "Ствол", kind: "ventilation_shaft" } }),
    201,
  );
  await json(
    await api(`v1/facilities/${facility}/sensors/`, {
      body: { code: "М-1", kind: "methane", point: point.id, working: "Лава 3-1", warning: 0.8, alarm: LIMIT },
    }),
    201,
  );
  gateway = (await json<{ key: string }>(await api(`v1/facilities/${facility}/gateway-keys/`, { body: { label: "Шлюз" } }), 201)).key;
  // 8 days of rises before the live one (8 days are 48 periods: the live one starts a period).
  const first = START - HISTORY_DAYS * 86_400_000;
  const periodic = (t: number) => sawtooth(((((t - START) / MINUTE_MS) % PERIOD) + PERIOD) % PERIOD);
  await push(first, START, periodic);
  // The model calibrated for the company on the first half of those days' 10-minute rows: the tile judges P and
  // the alert rule on the rows after the model's own period only, the last four days.
  // The file a monitoring system exports, with the feature columns this working has no sensors for empty.
  const lines = [HISTORY_HEADERS.join(";")];
  for (let t = first; t < first + (HISTORY_DAYS / 2) * 86_400_000; t += 10 * MINUTE_MS)
    lines.push([typed(t), "", "", "", "", "", "", "", String(periodic(t)).replace(".", ",")].join(";"));
  const form = new FormData();
  form.set("file", new Blob([lines.join("\n")]), "история Лавы 3-1.csv");
  expect(await json<{ rows: number }>(await api("v1/forecast_models/xgboost-h30/calibration/", { form }), 201)).toMatchObject({
    rows: expect.any(Number),
  });
  await json(await api("v1/telemetry/live/models/", { body: { facility, working: "Лава 3-1", horizon: 30, model: "xgboost-h30" } }));
  await json(
    await api("v1/company/webhooks/", {
      body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/agk`, label: "Диспетчерская" },
    }),
    201,
  );
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe("a forecast event with no page watching", () => {
  let opened: Event;

  it("opens as the forecaster's P reaches 0,5 on a batch, before the reading reaches 0,9·A", async () => {
    // The calm start of the rise: no forecast event.
    await push(minutes(0), minutes(60), rise);
    expect(await forecastEvents()).toEqual([]);
    // The rise, 10 minutes a batch, until the event opens (by 0,9 %, at minute 156, it must have).
    let k = 60;
    let listed: Event[] = [];
    while (listed.length === 0 && k < 156) {
      await push(minutes(k), minutes(k + 10), rise);
      k += 10;
      listed = await forecastEvents();
    }
    // The rule is on only with P judged better than the base rate on the rows after the calibration's.
    const [tile] = (
      await json<{ tiles: { forecasts: { probability: unknown; alert: { rule: string } }[] }[] }>(
        await api(`v1/telemetry/live/?facility=${facility}`),
      )
    ).tiles;
    expect(tile.forecasts[0].probability).toMatchObject({ reliable: true, judgement: "better", judged_on: "history" });
    expect(tile.forecasts[0].alert.rule).toBe("forecast");
    expect(listed).toHaveLength(1);
    opened = listed[0];
    expect(opened).toMatchObject({
      kind: "forecast",
      level: "alarm",
      sensor_code: "М-1",
      working: "Лава 3-1",
      start: new Date(minutes(k - 1)).toISOString(),
      end: null,
      forecast: { horizon_min: 30, came_true: null },
    });
    expect(opened.forecast!.probability).toBeGreaterThanOrEqual(0.5);
    // Opened while the meter read under A, on the batch P reached 0,5 (the batches are 10 minutes).
    expect(rise(minutes(k - 1))).toBeLessThan(LIMIT);
  });

  it("is posted to the company's webhook once", async () => {
    await server.webhooks.drain();
    expect(delivered()).toEqual([`${opened.id}.open`]);
  });

  it("is listed by the shift report of its shift", async () => {
    const { date, number } = opened.shift;
    const res = await api(`v1/telemetry/shift-report/?facility=${facility}&date=${date}&shift=${number}`);
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const sheet = book.getWorksheet("Прогнозные события")!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => {
      const values = row.values as unknown[];
      if (values[1] === "Лава 3-1") rows.push(values.slice(1, 5));
    });
    expect(rows).toEqual([["Лава 3-1", "М-1", expect.any(String), 30]]);
  });

  it("closes at the first batch whose forecast falls under 0,5, posted once more", async () => {
    const k = (Date.parse(opened.start) - START) / MINUTE_MS + 1;
    await push(minutes(k), minutes(k + 10), () => 0.5);
    const [closed] = await forecastEvents();
    expect(closed).toMatchObject({ id: opened.id, start: opened.start, end: new Date(minutes(k + 9)).toISOString() });
    expect(closed.minutes_above).toBe(10);
    await server.webhooks.drain();
    expect(delivered()).toEqual([`${opened.id}.open`, `${opened.id}.closed`]);
    // The same readings again change nothing.
    await push(minutes(k), minutes(k + 10), () => 0.5);
    await server.webhooks.drain();
    expect(await forecastEvents()).toEqual([closed]);
    expect(delivered()).toHaveLength(2);
  });
});
