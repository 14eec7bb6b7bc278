// D61–D63 through the API: a 30-day month with a 26-hour gap pushed as readings comes out of
// GET v1/telemetry/offers/ 96,39 % complete and is accepted without a reason into a measured calculation
// «по данным АГК» whose CH4 is the offer's, once; another company's 404; one of ten parallel accepts.
// Section 12's worked examples as offers, the reason below 95 % and the late correction's flag are the
// domain's, asserted in the unit tier (functions/src/domain/monitoring/minutes/offers.test.ts,
// accepted-changes.test.ts); the ventilation and drainage hours are pushed here as the month's other points.
// D92: the drainage station's accepted month is gross, so a flare fed from it is counted once;
// a meter the register places after a take-off asks the basis at acceptance; a month accepted «чистый»
// before D92 is made gross once, with a change-log entry, while a sent or approved year keeps it: the
// approved version keeps its figures and the version approved after a reopen takes the correction.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { instantOfWallTime } from "@core/company-clock";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { minutesReadAnswer } from "@server/domain/monitoring/live/minute-reads";
import type { Actor } from "@server/domain/context";
import vectors from "../fixtures/monitoring/methodology-section-12.json";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import { inventoryCalculations } from "../support/inventory";
import { migrateCompanyDrainageBasis } from "@server/domain/monitoring/minutes/drainage-basis-migration";

let h: Harness;
let staff: string;
let company: string;
let other: string;
let facility: { id: string };
let project: { id: string };
const points: Record<string, string> = {};

interface Offer {
  point: string;
  point_name: string;
  month: string;
  volume_thousand_m3: number;
  ef_ch4: number;
  ch4_t: number;
  minutes: { expected: number; valid: number; substituted: number; missing: number };
  completeness: number;
  longest_gap_min: number;
  readings_sha256: string;
  accepted: null | { calculation: string; ch4_t: number; changed: boolean; difference_pct: number; reason: string };
}

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });
const round = (value: number, decimals: number) => Number(value.toFixed(decimals));
const ZONE = "Asia/Novokuznetsk";
// 15.03.2026 10:00 in Kemerovo: more than 24 h from either end of the month, so nothing outside the
// hour is substituted and the month's figures are the hour's.
const HOUR = instantOfWallTime(2026, 3, 15, 10, 0, ZONE);

async function push(readings: { sensor: string; t: number; value: number }[]) {
  for (let i = 0; i < readings.length; i += 10_000) {
    const body = { facility: facility.id, readings: readings.slice(i, i + 10_000).map((r) => ({ ...r, t: new Date(r.t).toISOString() })) };
    await json(await post("/api/v1/telemetry/readings/", body), 202);
  }
  await monitoringIdle(h.deps);
}

const offers = async (token = staff) =>
  json<Offer[]>(await h.request(`/api/v1/telemetry/offers/?facility=${facility.id}&year=2026`, { token }), 200);
const offerOf = async (point: string, month: string) => (await offers()).find((o) => o.point === points[point] && o.month === month)!;

beforeAll(async () => {
  h = await createHarness();
  ({ token: staff, companyId: company } = await h.signedInUser("ООО «Предложения АГК»"));
  ({ token: other } = await h.signedInUser("ООО «Чужие предложения»"));
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Замер»", kind: "underground_mine" }), 201);
  for (const [name, kind] of [
    ["Вентиляционный ствол", "ventilation_shaft"],
    ["Дегазационная установка", "drainage_station"],
    ["Ствол с пропуском", "ventilation_shaft"],
  ]) {
    points[name] = (await json<{ id: string }>(await post(`/api/v1/facilities/${facility.id}/points/`, { name, kind }), 201)).id;
  }
  const sensor = (code: string, kind: string, point: string, extra: Record<string, unknown> = {}) =>
    post(`/api/v1/facilities/${facility.id}/sensors/`, { code, kind, point: points[point], ...extra });
  for (const res of [
    await sensor("Q-В", "flow", "Вентиляционный ствол"),
    await sensor("М-В", "methane", "Вентиляционный ствол", { warning: 1, alarm: 1.5 }),
    await sensor("Q-Д", "flow", "Дегазационная установка", { conditions: "actual" }),
    await sensor("М-Д", "methane_high", "Дегазационная установка"),
    await sensor("P-Д", "pressure", "Дегазационная установка"),
    await sensor("T-Д", "temperature", "Дегазационная установка"),
    await sensor("Q-П", "flow", "Ствол с пропуском"),
    await sensor("М-П", "methane", "Ствол с пропуском"),
  ]) {
    expect(res.status).toBe(201);
  }
  project = await json(
    await post("/api/v1/projects/create_project/", {
      name: "Замеры 2026",
      start_date: "2026-01-01",
      end_date: "2026-12-31",
      facility: facility.id,
    }),
    201,
  );

  const v = vectors.ventilation_hour_with_gap;
  const d = vectors.drainage_hour_at_actual_conditions;
  const readings: { sensor: string; t: number; value: number }[] = [];
  for (let m = 0; m < 60; m++) {
    const t = HOUR + m * MINUTE_MS;
    readings.push({ sensor: "Q-В", t, value: v.flow_m3_min });
    const c = v.ch4.find((p) => m >= p.from && m <= p.to);
    if (c) readings.push({ sensor: "М-В", t, value: c.value });
    readings.push(
      { sensor: "Q-Д", t, value: d.flow_m3_min },
      { sensor: "P-Д", t, value: d.pressure_kpa },
      { sensor: "T-Д", t, value: d.temperature_c },
    );
    readings.push({ sensor: "М-Д", t, value: d.ch4.find((p) => m >= p.from && m <= p.to)!.value });
  }
  // April (30 days): every minute but a 26-hour gap of the methane meter, 03.04 10:00 – 04.04 12:00.
  const april = instantOfWallTime(2026, 4, 1, 0, 0, ZONE);
  const gap = [instantOfWallTime(2026, 4, 3, 10, 0, ZONE), instantOfWallTime(2026, 4, 4, 12, 0, ZONE)];
  for (let m = 0; m < 30 * 1440; m++) {
    const t = april + m * MINUTE_MS;
    readings.push({ sensor: "Q-П", t, value: 9000 });
    if (t < gap[0] || t >= gap[1]) readings.push({ sensor: "М-П", t, value: 0.4 + (m % 5) * 0.01 });
  }
  await push(readings);
});
afterAll(() => h.close());

describe("section 12's offers through the API", () => {
  it("a 26-hour gap is not substituted: April is 96,39 % complete and offered without a reason", async () => {
    const l = vectors.long_gap;
    const offer = await offerOf("Ствол с пропуском", "2026-04");
    expect(offer.minutes).toMatchObject({ expected: l.month_days * 1440, missing: l.gap_minutes, substituted: 0 });
    expect(round(offer.completeness, l.completeness.decimals)).toBe(l.completeness.value);
    expect(offer.longest_gap_min).toBe(l.gap_minutes);
  });

  it("is another company's 404", async () => {
    expect((await h.request(`/api/v1/telemetry/offers/?facility=${facility.id}&year=2026`, { token: other })).status).toBe(404);
    const body = { facility: facility.id, point: points["Ствол с пропуском"], months: ["2026-04"], project: project.id };
    expect((await post("/api/v1/telemetry/offers/accept/", body, other)).status).toBe(404);
  });
});

describe("accepting months (D62, D63)", () => {
  it("accepts a month of 96,39 % into a measured calculation «по данным АГК» whose CH4 is the offer's", async () => {
    const offer = await offerOf("Ствол с пропуском", "2026-04");
    // taken where the host's threads read the minutes (its months' minutes read on
    // the request thread held it 211 and 798 ms at load 13 in the loop budget), refusals as the domain's.
    const spreadsheets = h.deps.spreadsheets;
    const before = spreadsheets.minutesRead;
    const asked: string[] = [];
    spreadsheets.minutesRead = async (actor, read) => {
      asked.push(read.read);
      return minutesReadAnswer(h.deps, actor as Actor, read);
    };
    onTestFinished(() => {
      spreadsheets.minutesRead = before;
    });
    const [accepted] = await json<Offer[]>(
      await post("/api/v1/telemetry/offers/accept/", {
        facility: facility.id,
        point: points["Ствол с пропуском"],
        months: ["2026-04"],
        project: project.id,
      }),
      201,
    );
    expect(accepted.accepted).toMatchObject({ ch4_t: offer.ch4_t, changed: false, reason: "" });
    const calculation = await json<{ name: string; res_ch4: number; period: { from: string; to: string }; point: string }>(
      await h.request(`/api/v1/underground/${accepted.accepted!.calculation}/`, { token: staff }),
      200,
    );
    expect(calculation.name).toBe("Ствол с пропуском: по данным АГК, 04.2026");
    expect(Math.abs(calculation.res_ch4 - offer.ch4_t) / offer.ch4_t).toBeLessThan(1e-9);
    expect(calculation.period).toMatchObject({ from: "2026-04-01", to: "2026-04-30" });
    expect(
      (
        await post("/api/v1/telemetry/offers/accept/", {
          facility: facility.id,
          point: points["Ствол с пропуском"],
          months: ["2026-04"],
          project: project.id,
        })
      ).status,
    ).toBe(409);
    expect(asked.filter((read) => read === "accept_offers")).toEqual(["accept_offers", "accept_offers"]);
  });
});

describe("one acceptance per month on the table (R6 and R13)", () => {
  // An accept is heavy work (it reads the month's minutes): past the user's slots a parallel one is
  // answered 429 before it reads anything; those let in race on the table, and one wins.
  it("ten parallel accepts of one month answer one 201, the others 409 or 429, and store one calculation", async () => {
    const body = {
      facility: facility.id,
      point: points["Дегазационная установка"],
      months: ["2026-03"],
      project: project.id,
      reason: "Час",
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => post("/api/v1/telemetry/offers/accept/", body)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s !== 201 && s !== 409 && s !== 429)).toEqual([]);
    for (const refused of answers.filter((r) => r.status === 409))
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/03\.2026/);
    const calculations = await h.deps.repos.calculations.listAllByProject(company, project.id, "underground", "active");
    expect(calculations.filter((c) => c.point === points["Дегазационная установка"])).toHaveLength(1);
  });

  it("refuses a point of 1 000 characters with 400 naming it, not 500", async () => {
    const body = { facility: facility.id, point: "x".repeat(1000), months: ["2026-03"], project: project.id };
    const refused = await json<{ detail: string }>(await post("/api/v1/telemetry/offers/accept/", body), 400);
    expect(refused.detail).toContain("Источник выбросов: идентификатор не длиннее 128 символов");
  });
});

describe("an accepted drainage month is gross (D92)", () => {
  const drainage = async () =>
    (await h.deps.repos.calculations.listAllByProject(company, project.id, "underground", "active")).find(
      (c) => c.point === points["Дегазационная установка"],
    )!;

  it("is stored gross: its own pipeline meters measure all the drained gas", async () => {
    const calculation = await drainage();
    expect(calculation.inputs.basis).toBe("gross");
    // The hour of section 12's drainage vector, by hand from the readings pushed: 30 m³/min at 95 kPa and
    // 15 °C is 30 × 95/101,325 × 293,15/288,15 = 28,6154 m³/min at 20 °C, 1 716,92 m³ in the hour; the
    // methane 38 % for 30 minutes and 36 % for 30, 37 %: 635,261 m³ × 0,668 kg/m³ = 0,424355 t CH4.
    const d = vectors.drainage_hour_at_actual_conditions;
    const standard = d.flow_m3_min * (d.pressure_kpa / 101.325) * (293.15 / (273.15 + d.temperature_c));
    const ch4Pct = d.ch4.reduce((sum, p) => sum + p.value * (p.to - p.from + 1), 0) / d.minutes;
    const byHand = (standard * d.minutes * (ch4Pct / 100) * vectors.rho_ch4) / 1000;
    expect(Math.abs(byHand - 0.424355)).toBeLessThan(5e-7);
    expect(Math.abs((calculation.results.res_ch4 as number) - byHand)).toBeLessThan(1e-6);
  });

  it("and a flare fed from it is counted once: 0,424355 − 0,2004 = 0,223955 t CH4 on the mining line, no double-count warning", async () => {
    // 0,5 thousand m³ at 60 % CH4 and 0,668 kg/m³: 0,5 × 60 × 0,668 / 100 = 0,2004 t CH4 sent to the flare.
    await json(
      await post("/api/v1/torch_composition/", {
        name: "Факел дегазации",
        project: project.id,
        volume: 0.5,
        w_ch4: 60,
        cf: 0.0006,
        p_co2: 1.8393,
        p_ch4: 0.668,
        drainage_points: [points["Дегазационная установка"]],
        dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
      }),
      201,
    );
    const stored = await drainage();
    const drained = stored.results.res_ch4 as number;
    const rows = await inventoryCalculations(h, staff, 2026, { facility: facility.id, line: "3|1.B.1.a.i.1|CH4" });
    const row = rows.find((r) => r.id === stored.id)! as unknown as {
      gases: Array<{ gas: string; t: number }>;
      netting?: Array<{ gas: string; t: number }>;
    };
    const gross = row.gases.find((g) => g.gas === "CH4")!.t;
    const burnt = row.netting?.find((g) => g.gas === "CH4")?.t ?? 0;
    expect(Math.abs(gross - drained)).toBeLessThan(1e-9);
    expect(Math.abs(burnt - 0.2004)).toBeLessThan(1e-9);
    expect(Math.abs(gross - burnt - 0.223955)).toBeLessThan(5e-7);
    const inventory = await json<{ checks: Array<{ code: string }> }>(
      await h.request(`/api/v1/inventory/?year=2026&facility=${facility.id}`, { token: staff }),
      200,
    );
    expect(inventory.checks.map((c) => c.code)).not.toContain("possible_double_count");
    // «Измерено и оценено» reads the gross it measured and the 0,2004 t the balance sent to the flare;
    // «чистый» made it say the burnt methane was missing from the measurement (drained_net).
    const comparison = await json<{ facilities: Array<{ facility: string; explanations: Array<{ kind: string; t?: number }> }> }>(
      await h.request(`/api/v1/inventory/measured-vs-estimated/?year=2026&facility=${facility.id}`, { token: staff }),
      200,
    );
    const kinds = comparison.facilities.find((f) => f.facility === facility.id)!.explanations;
    expect(kinds.map((e) => e.kind)).not.toContain("drained_net");
    expect(Math.abs(kinds.find((e) => e.kind === "drained_balance")!.t! - 0.2004)).toBeLessThan(1e-9);
  });

  it("asks the basis where the register places the meter after a take-off, and records the answer", async () => {
    const after = await json<{ id: string; meter_after_takeoff?: boolean }>(
      await post(`/api/v1/facilities/${facility.id}/points/`, {
        name: "Дегазация после отбора",
        kind: "drainage_station",
        meter_after_takeoff: true,
      }),
      201,
    );
    expect(after.meter_after_takeoff).toBe(true);
    const body = { facility: facility.id, point: after.id, months: ["2026-03"], project: project.id };
    const asked = await json<{ detail: string }>(await post("/api/v1/telemetry/offers/accept/", body), 400);
    expect(asked.detail).toContain("стоит после отбора газа на использование: укажите, что он измеряет");
    // Before a take-off the meter sees all the drained gas: «чистый» is refused there.
    const net = await json<{ detail: string }>(
      await post("/api/v1/telemetry/offers/accept/", { ...body, point: points["Дегазационная установка"], basis: "net" }),
      400,
    );
    expect(net.detail).toContain("измеряет весь каптированный газ");
    // A take-off meter is a drainage station's only.
    const shaft = await json<{ detail: string }>(
      await post(`/api/v1/facilities/${facility.id}/points/`, {
        name: "Ствол после отбора",
        kind: "ventilation_shaft",
        meter_after_takeoff: true,
      }),
      400,
    );
    expect(shaft.detail).toContain("только для дегазационной установки");
  });

  it("makes a month accepted «чистый» before D92 gross once, with a change-log entry by «система»; a year in review keeps it", async () => {
    const stored = await drainage();
    // As an acceptance before D92 stored it: the type's default basis.
    const { basis: _basis, ...inputs } = stored.inputs;
    await h.deps.repos.calculations.replace({ ...stored, inputs, version: stored.version + 1 }, stored.version);
    // While 2026 is in review its figures do not move, and the company is not marked done.
    const review = (await h.deps.repos.inventoryReviews.get(company, 2026))!;
    await h.deps.repos.inventoryReviews.put({ ...review, status: "in_review", version: review.version + 1 }, review.version);
    expect(await migrateCompanyDrainageBasis(h.deps, company)).toMatchObject({ months: 0, kept: 1 });
    expect((await drainage()).inputs.basis).toBeUndefined();
    expect(await h.deps.repos.migrations.isDone(company, "accepted-drainage-gross")).toBe(false);
    // Reopened: the next run corrects it.
    const frozen = (await h.deps.repos.inventoryReviews.get(company, 2026))!;
    await h.deps.repos.inventoryReviews.put({ ...frozen, status: review.status, version: frozen.version + 1 }, frozen.version);
    const report = await migrateCompanyDrainageBasis(h.deps, company);
    expect(report).toMatchObject({ months: 1, kept: 0, conflicts: 0 });
    const corrected = await drainage();
    expect(corrected.inputs.basis).toBe("gross");
    expect(corrected.results.res_ch4).toBe(stored.results.res_ch4);
    // In the company's change log, which its users read.
    const entries = (await h.deps.repos.adminAudit.listCompany(company, { limit: 50, offset: 0 })).results.filter(
      (e) => e.action === "telemetry.basis_gross",
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_email: "system", before: { basis: "net" }, after: { basis: "gross" } });
    // Done: marked, and a second run changes nothing.
    expect(await h.deps.repos.migrations.isDone(company, "accepted-drainage-gross")).toBe(true);
    expect(await migrateCompanyDrainageBasis(h.deps, company)).toMatchObject({ months: 0 });
  });
  it("keeps an approved version's figures; the version approved after a reopen takes the correction", async () => {
    await createUser(h.deps, { companyId: company, email: "reviewer@offers.example", password: "reviewer-password", role: "reviewer" });
    const reviewer = ((await (await signIn(h, "reviewer@offers.example", "reviewer-password")).json()) as { access: string }).access;
    const act = async (action: string, as: string, reason?: string) => {
      const { review } = await json<{ review: { version: number } }>(
        await h.request("/api/v1/inventory/?year=2026", { token: staff }),
        200,
      );
      await json(await post("/api/v1/inventory/2026/review/", { action, version: review.version, ...(reason ? { reason } : {}) }, as), 200);
    };
    type Snapshot = {
      inventory: {
        calculations: Array<{ id: string; gases: Array<{ gas: string; t: number }>; netting?: Array<{ gas: string; t: number }> }>;
        checks: Array<{ code: string }>;
      };
    };
    const version = async (n: number) => json<Snapshot>(await h.request(`/api/v1/inventory/2026/versions/${n}/`, { token: staff }), 200);
    const burntOf = (snapshot: Snapshot, id: string) =>
      snapshot.inventory.calculations.find((row) => row.id === id)!.netting?.find((g) => g.gas === "CH4")?.t ?? 0;
    // The month as an acceptance before D92 stored it («чистый»), and the year approved so.
    const stored = await drainage();
    const { basis: _basis, ...inputs } = stored.inputs;
    await h.deps.repos.calculations.replace({ ...stored, inputs, version: stored.version + 1 }, stored.version);
    await act("send_to_review", staff);
    await act("approve", reviewer);
    const first = await version(1);
    // «Чистый»: the flare's 0,2004 t is not taken off the drained gas, and the year warns of a double count.
    expect(burntOf(first, stored.id)).toBe(0);
    expect(first.inventory.checks.map((c) => c.code)).toContain("possible_double_count");

    // Approved: the month keeps its figures and version 1 does not move.
    expect(await migrateCompanyDrainageBasis(h.deps, company)).toMatchObject({ months: 0, kept: 1 });
    expect((await drainage()).inputs.basis).toBeUndefined();
    expect(await version(1)).toEqual(first);

    // Reopened with a reason, the next run corrects the month; version 2 nets the flare's gas once.
    await act("reopen", reviewer, "исправление основы принятого месяца дегазации (D92)");
    expect(await migrateCompanyDrainageBasis(h.deps, company)).toMatchObject({ months: 1, kept: 0 });
    expect((await drainage()).inputs.basis).toBe("gross");
    await act("send_to_review", staff);
    await act("approve", reviewer);
    const second = await version(2);
    expect(Math.abs(burntOf(second, stored.id) - 0.2004)).toBeLessThan(1e-9);
    expect(second.inventory.checks.map((c) => c.code)).not.toContain("possible_double_count");
    expect(await version(1)).toEqual(first);
  });
});
