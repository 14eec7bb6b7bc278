// Section 13.5 (a) as a stored climate project and period over the API: a facility with a drainage
// station, the open flare Ф-1's meters (flow at 0 °C, CH4, flame) with their dates of verification,
// six hours of minutes on the company's clock (+7) — flame lost for 7 minutes in hour 02, the flow
// missing for 25 minutes in hour 04 — and the period 01.06.2026 00:00 – 06:00 computed from them:
// 15,588375 t CO2-eq, 15 carbon units.
import { expect } from "vitest";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import type { Harness } from "./harness";
import { CLIMATE_REPORT_HAND_FIELDS, CLIMATE_REPORT_HAND_KEYS } from "@server/contract/schemas/climate-report";

export const CASE_A_METHODOLOGY = {
  code: "CDM-ACM0008",
  name: "ACM0008: Abatement of methane from coal mines",
  version: "08.0",
  source: "UNFCCC CDM, копия исполнителя",
  tools: [{ code: "TOOL06", name: "Project emissions from flaring", version: "04.0" }],
};

/** Hour by hour Q (m³/min at 0 °C) and C (%). */
const A_HOURS = [
  [21.0, 38.5],
  [22.5, 37.0],
  [22.0, 37.5],
  [20.5, 39.0],
  [20.5, 39.0],
  [21.5, 38.0],
];
/** 2026-06-01 00:00 in Novokuznetsk (UTC+7). */
const JUNE_1 = Date.UTC(2026, 4, 31, 17, 0);

type Meters = { q: string; c: string; flame: string };

/** The six hours' minutes of the flare's meters from `start` (UTC ms of 00:00 on the company's clock),
 *  each at its minute's 30th second: no flow from 04:10 to 04:34, no flame from 02:20 to 02:26. */
export function caseAReadings(start: number, codes: Meters) {
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < 6 * 60; m++) {
    const hour = Math.floor(m / 60);
    const minute = m % 60;
    const t = new Date(start + m * 60_000 + 30_000).toISOString();
    if (!(hour === 4 && minute >= 10 && minute <= 34)) readings.push({ sensor: codes.q, t, value: A_HOURS[hour][0] });
    readings.push({ sensor: codes.c, t, value: A_HOURS[hour][1] });
    readings.push({ sensor: codes.flame, t, value: hour === 2 && minute >= 20 && minute <= 26 ? 0 : 1 });
  }
  return readings;
}

/** The flare's three meters registered at `point` of `facility` over the API (`call`, as a browser
 *  file's script calls it), their six hours of minutes pushed, and waited for until each meter's day
 *  holds them (the readings' consumer applies a push in the background). */
export async function caseAMetersPushed(
  call: <T>(method: string, path: string, body?: unknown) => Promise<T>,
  facility: string,
  point: string,
  start: number,
  codes: Meters,
): Promise<void> {
  const ids: string[] = [];
  for (const [code, kind] of [
    [codes.q, "flow"],
    [codes.c, "methane_high"],
    [codes.flame, "flame"],
  ]) {
    ids.push((await call<{ id: string }>("POST", `v1/facilities/${facility}/sensors/`, { code, kind, point })).id);
  }
  await call("POST", "v1/telemetry/readings/", { facility, readings: caseAReadings(start, codes) });
  for (const id of ids) {
    const deadline = Date.now() + 90_000;
    const held = async () =>
      (await call<{ value: (number | null)[] }>("GET", `v1/facilities/${facility}/sensors/${id}/day/?date=2026-06-01`)).value.filter(
        (v) => v !== null,
      ).length;
    while ((await held()) < 335) {
      if (Date.now() > deadline) throw new Error("the pushed readings were not applied in 90 s");
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

async function created(res: Response): Promise<Record<string, unknown>> {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Record<string, unknown>;
}

export interface CaseAPeriod {
  facility: string;
  point: string;
  project: Record<string, unknown> & { id: string; name: string };
  period: Record<string, unknown> & { id: string };
}

/** The project «Факельная установка Ф-1» of the token's company and its period of case (a). */
export async function caseAPeriod(h: Harness, token: string, name = "Факельная установка Ф-1"): Promise<CaseAPeriod> {
  const post = (path: string, json: unknown) => h.request(path, { method: "POST", token, json });
  const facility = String(
    (
      await created(
        await post("/api/v1/facilities/", {
          name: `Шахта «Северная» ${name}`,
          kind: "underground_mine",
          address: "г. Воркута, ул. Шахтерская, 1",
        }),
      )
    ).id,
  );
  const point = String(
    (
      await created(
        await post(`/api/v1/facilities/${facility}/points/`, {
          name: "Дегазационная станция ДС-1",
          kind: "drainage_station",
          instrument: "АГК",
        }),
      )
    ).id,
  );
  for (const [code, kind] of [
    ["Q-A", "flow"],
    ["C-A", "methane_high"],
    ["FL-A", "flame"],
  ]) {
    await created(
      await post(`/api/v1/facilities/${facility}/sensors/`, {
        code,
        kind,
        point,
        in_service_from: "2026-01-15",
        in_service_to: "2027-01-14",
      }),
    );
  }
  const readings = caseAReadings(JUNE_1, { q: "Q-A", c: "C-A", flame: "FL-A" });
  const pushed = await post("/api/v1/telemetry/readings/", { facility, readings });
  expect(pushed.status, await pushed.clone().text()).toBe(202);
  await monitoringIdle(h.deps);
  const device = { name: "Ф-1", point, kind: "flare_open", flow_basis: "normal_0C", sensors: { q: "Q-A", c: "C-A", flame: "FL-A" } };
  const project = (await created(
    await post("/api/v1/climate-projects/", { name, facility, start: "2026-06-01", methodology: CASE_A_METHODOLOGY, devices: [device] }),
  )) as CaseAPeriod["project"];
  const period = (await created(
    await post(`/api/v1/climate-projects/${project.id}/periods/`, { start: "2026-06-01T00:00", end: "2026-06-01T06:00" }),
  )) as CaseAPeriod["period"];
  return { facility, point, project, period };
}

/** Every hand-written field of a period's report filled (a period is approved only
 *  once they are): PATCH …/report/ with `{fields: FILLED_REPORT, version}`. */
export const FILLED_REPORT: Record<string, string> = Object.fromEntries(
  CLIMATE_REPORT_HAND_KEYS.map((key) => [key, `${CLIMATE_REPORT_HAND_FIELDS[key].label}: заполнено исполнителем`]),
);
