// D63 on the in-memory repositories: section 12's ventilation hour accepted for March, then a late
// correction (minute 45's 0,46 % was 0,90 %: 52,8 m³ more CH4, +1,62 %) — the consumer keeps what the
// month gives now on the acceptance and the year's inventory warns «Данные АГК изменились после
// принятия» naming the point and the month, with the accepted and the present t CH4, linking the
// calculation, whose figures stay as accepted; a change of 0,1 % or less raises nothing; once the year is
// approved a further correction is named with «год утвержден» and the approved total stays; the
// consumer run again on the same days writes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { instantOfWallTime } from "@core/company-clock";
import { MINUTE_MS } from "@core/dates";
import vectors from "../../../../../tests/fixtures/monitoring/methodology-section-12.json";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { offerAcceptSchema } from "../../../contract/schemas/monitoring";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import { getInventory } from "../../inventory/year";
import { createUser } from "../../company/users";
import type { Actor } from "../../context";
import { drainReadings } from "./consumer";
import { monitoringIdle } from "../live/forecaster";
import { acceptOffers } from "./offers";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { recheckAcceptances } from "./accepted-changes";

let d: MemoryDomain;
let staff: Actor;
let reviewer: Actor;
let facility: string;
let project: string;
const HOUR = instantOfWallTime(2026, 3, 15, 10, 0, "Asia/Novokuznetsk");

async function push(readings: { sensor: string; t: number; value: number }[]) {
  await storeBatch(d.deps, staff.company, facility, {
    json: { readings: readings.map((r) => ({ ...r, t: new Date(r.t).toISOString() })) },
  });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
}
const changedChecks = async () => (await getInventory(d.deps, staff, 2026)).checks.filter((c) => c.code === "telemetry_changed");

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  staff = await d.actor("ООО «Изменения АГК»");
  const user = await createUser(d.deps, {
    companyId: staff.company,
    email: "reviewer@agk-changes.example",
    password: "reviewer-password",
    role: "reviewer",
  });
  reviewer = { id: user.id, company: staff.company, email: user.email, role: "reviewer" };
  facility = (await d.facility(staff, { name: "Шахта «Поправка»", kind: "underground_mine" })).id;
  const point = (
    await d.write(() =>
      createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Вентиляционный ствол", kind: "ventilation_shaft" })),
    )
  ).id;
  const sensor = (code: string, kind: string) =>
    d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, { code, kind, point })));
  await sensor("Q-В", "flow");
  await sensor("М-В", "methane");
  project = (await d.project(staff, { name: "Замеры 2026", start_date: "2026-01-01", end_date: "2026-12-31", facility })).id;
  const v = vectors.ventilation_hour_with_gap;
  const readings: { sensor: string; t: number; value: number }[] = [];
  for (let m = 0; m < v.minutes; m++) {
    const t = HOUR + m * MINUTE_MS;
    readings.push({ sensor: "Q-В", t, value: v.flow_m3_min });
    const c = v.ch4.find((p) => m >= p.from && m <= p.to);
    if (c) readings.push({ sensor: "М-В", t, value: c.value });
  }
  await push(readings);
  await d.write(() =>
    acceptOffers(
      d.deps,
      staff,
      parseWith(offerAcceptSchema, { facility, point, months: ["2026-03"], project, reason: "Замер одного часа" }),
    ),
  );
});

describe("an accepted month the readings change afterwards (D63)", () => {
  it("raises nothing for a change of 0,1 % or less", async () => {
    // Minute 50's 0,46 % read 0,4605 %: 0,06 m³ more CH4 of 3 252, 0,0018 %.
    await push([{ sensor: "М-В", t: HOUR + 50 * MINUTE_MS, value: 0.4605 }]);
    const [accepted] = await d.deps.repos.monitoring.acceptances(staff.company, facility);
    expect(accepted.now_ch4_t).toBeCloseTo(((3252 + 0.06) * 0.668) / 1000, 9);
    expect(await changedChecks()).toEqual([]);
  });

  it("warns on the year naming the point and month when a late correction moves it by 1,62 %, the calculation as accepted", async () => {
    await push([{ sensor: "М-В", t: HOUR + 45 * MINUTE_MS, value: 0.9 }]);
    const [accepted] = await d.deps.repos.monitoring.acceptances(staff.company, facility);
    expect(accepted.ch4_t).toBeCloseTo(2.172336, 6);
    expect(accepted.now_ch4_t).toBeCloseTo(((3252 + 0.06 + 52.8) * 0.668) / 1000, 9);
    const inventory = await getInventory(d.deps, staff, 2026);
    const checks = inventory.checks.filter((c) => c.code === "telemetry_changed");
    expect(checks).toEqual([
      {
        level: "warning",
        code: "telemetry_changed",
        message:
          "Данные АГК изменились после принятия: «Вентиляционный ствол», 03.2026 — принято 2,172 т CH4, по показаниям сейчас 2,208 т (+1,63 %); " +
          "принятый расчет не изменен: проверьте показания и примите месяц заново на странице «Данные АГК» (с причиной)",
        calculations: [accepted.calculation],
      },
    ]);
    expect(inventory.check_calculations.find((c) => c.id === accepted.calculation)?.name).toBe(
      "Вентиляционный ствол: по данным АГК, 03.2026",
    );
    // The year's figures are the accepted calculation's.
    expect(inventory.total_t_co2e).toBeGreaterThan(0);
  });

  it("never moves an approved year: a later correction is named, the approved figures stay", async () => {
    await d.approveYear(staff, reviewer, 2026);
    const approved = await getInventory(d.deps, staff, 2026);
    expect(approved.review.status).toBe("approved");
    // Minute 46's 0,46 % was 0,90 % too: another 52,8 m³ of CH4.
    await push([{ sensor: "М-В", t: HOUR + 46 * MINUTE_MS, value: 0.9 }]);
    const after = await getInventory(d.deps, staff, 2026);
    expect(after.total_t_co2e).toBe(approved.total_t_co2e);
    const [check] = after.checks.filter((c) => c.code === "telemetry_changed");
    expect(check.message).toBe(
      "Данные АГК изменились после принятия: «Вентиляционный ствол», 03.2026 — принято 2,172 т CH4, по показаниям сейчас 2,243 т (+3,25 %); " +
        "год утвержден: его показатели не меняются, месяц примут заново после того, как год откроют для изменений",
    );
  });

  it("writes nothing when the consumer is handed the same days again", async () => {
    const day = new Date(HOUR).toISOString().slice(0, 10);
    const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, facility);
    const again = await recheckAcceptances(d.deps, { company: staff.company, facility, days: sensors.map((s) => ({ sensor: s.id, day })) });
    expect(again).toEqual([]);
  });
});
