// D61–D63 on the in-memory repositories: section 12's worked examples pushed as readings come out of
// the month's offers as printed (the ventilation hour: 720 thousand m³, 0,451667 %, 2,172336 t, 50
// valid and 10 substituted minutes; the drainage hour at actual conditions: 1 716,92 m³, 37 %,
// 0,424355 t); a month below 95 % is accepted only with a reason, into a measured calculation «по
// данным АГК» whose CH4 is the offer's, once; a later correction that moves it by more than 0,1 % flags
// it, the calculation unchanged. Over HTTP, with the 30-day month's 26-hour gap and another company's
// 404s: tests/integration/monitoring-offers.test.ts.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { instantOfWallTime } from "@core/company-clock";
import { MINUTE_MS } from "@core/dates";
import vectors from "../../../../../tests/fixtures/monitoring/methodology-section-12.json";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { readingsStored } from "../../../../../tests/support/reading-layout";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { offerAcceptSchema } from "../../../contract/schemas/monitoring";
import { parseWith } from "../../../http/validate";
import { getCalculation } from "../../calculation-lookup";
import { calculationView } from "../../calculations/calculations";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import type { Clock } from "../../../ports";
import { drainReadings } from "./consumer";
import { monitoringIdle } from "../live/forecaster";
import { acceptOffers, listOffers } from "./offers";
import { acceptedMonths } from "../../../export/verification-pack";
import { instrumentsOfMonths } from "../../../export/pack-instruments";
import { sensorCheckCreateSchema, verificationCreateSchema } from "../../../contract/schemas/sensor-checks";
import { createUser } from "../../company/users";
import { recordCheck } from "../instruments/sensor-checks";
import { recordVerification } from "../instruments/verifications";
import type { SnapshotLine } from "../../inventory/versions";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";

let d: MemoryDomain;
let staff: Actor;
let facility: string;
let project: string;
const points: Record<string, string> = {};

const round = (value: number, decimals: number) => Number(value.toFixed(decimals));
const ZONE = "Asia/Novokuznetsk";
// 30.03.2026 10:00 in Kemerovo: more than 24 h from either end of the month, so nothing outside the
// hour is substituted and the month's figures are the hour's.
const HOUR = instantOfWallTime(2026, 3, 30, 10, 0, ZONE);
// the month read back from either layout. At 01:00 of 01.04 in Kemerovo the month is
// over and the hour's UTC day still takes minutes (the facility's minute items); months later its
// readings are in the sensors' day items.
const LAYOUTS = [
  { day: "an open day (the facility's minute items)", clock: clockAt("2026-03-31T18:00:00Z"), open: true },
  { day: "a closed day (the sensors' day items)", clock: clockAt("2026-11-16T03:00:00Z"), open: false },
];

async function push(readings: { sensor: string; t: number; value: number }[]) {
  const body = { readings: readings.map((r) => ({ ...r, t: new Date(r.t).toISOString() })) };
  await storeBatch(d.deps, staff.company, facility, { json: body });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
}

const offerOf = async (point: string, month: string) =>
  (await listOffers(d.deps, staff, facility, 2026)).find((o) => o.point === points[point] && o.month === month)!;
const accept = (body: Record<string, unknown>) => d.write(() => acceptOffers(d.deps, staff, parseWith(offerAcceptSchema, body)));

async function monthOfReadings(clock: Clock) {
  d = await memoryDomain(clock);
  staff = await d.actor("ООО «Предложения АГК»");
  facility = (await d.facility(staff, { name: "Шахта «Замер»", kind: "underground_mine" })).id;
  for (const [name, kind] of [
    ["Вентиляционный ствол", "ventilation_shaft"],
    ["Дегазационная установка", "drainage_station"],
  ]) {
    points[name] = (await d.write(() => createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name, kind })))).id;
  }
  const sensor = (code: string, kind: string, point: string, extra: Record<string, unknown> = {}) =>
    d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, { code, kind, point: points[point], ...extra })));
  await sensor("Q-В", "flow", "Вентиляционный ствол");
  await sensor("М-В", "methane", "Вентиляционный ствол", { warning: 1, alarm: 1.5 });
  await sensor("Q-Д", "flow", "Дегазационная установка", { conditions: "actual" });
  await sensor("М-Д", "methane_high", "Дегазационная установка");
  await sensor("P-Д", "pressure", "Дегазационная установка");
  await sensor("T-Д", "temperature", "Дегазационная установка");
  project = (await d.project(staff, { name: "Замеры 2026", start_date: "2026-01-01", end_date: "2026-12-31", facility })).id;

  const v = vectors.ventilation_hour_with_gap;
  const dr = vectors.drainage_hour_at_actual_conditions;
  const readings: { sensor: string; t: number; value: number }[] = [];
  for (let m = 0; m < 60; m++) {
    const t = HOUR + m * MINUTE_MS;
    readings.push({ sensor: "Q-В", t, value: v.flow_m3_min });
    const c = v.ch4.find((p) => m >= p.from && m <= p.to);
    if (c) readings.push({ sensor: "М-В", t, value: c.value });
    readings.push(
      { sensor: "Q-Д", t, value: dr.flow_m3_min },
      { sensor: "P-Д", t, value: dr.pressure_kpa },
      { sensor: "T-Д", t, value: dr.temperature_c },
    );
    readings.push({ sensor: "М-Д", t, value: dr.ch4.find((p) => m >= p.from && m <= p.to)!.value });
  }
  await push(readings);
}

describe.each(LAYOUTS)("on $day", ({ clock, open }) => {
  beforeAll(() => monthOfReadings(clock));

  it(`keeps the hour's readings in the ${open ? "minute" : "day"} items`, async () => {
    // Six meters a minute for 60 minutes, but the ventilation methane meter's 10-minute gap: 350.
    const stored = await readingsStored(d.deps.repos, staff.company, facility, "2026-03-30");
    expect(stored).toEqual(open ? { minuteItems: 350, dayItems: 0 } : { minuteItems: 0, dayItems: 350 });
  });

  describe("section 12's worked examples as the month's offers", () => {
    it("the ventilation hour with a gap: 720 thousand m³, 0,451667 %, 2,172336 t (3 252 m³ CH4), 10 minutes substituted", async () => {
      const v = vectors.ventilation_hour_with_gap;
      const offer = await offerOf("Вентиляционный ствол", "2026-03");
      expect(offer.point_name).toBe("Вентиляционный ствол");
      expect(offer.volume_thousand_m3).toBeCloseTo(v.volume_thousand_m3, 9);
      expect(round(offer.ef_ch4, v.ef_ch4.decimals)).toBe(v.ef_ch4.value);
      expect(offer.ch4_t).toBeCloseTo((v.ch4_m3 * vectors.rho_ch4) / 1000, 9);
      expect(round(offer.ch4_t, v.ch4_t.decimals)).toBe(v.ch4_t.value);
      expect(offer.minutes).toEqual({ expected: 31 * 1440, valid: v.valid, substituted: v.substituted, missing: 31 * 1440 - 60 });
      expect(offer.accepted).toBeNull();
      expect(offer.readings_sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it("the drainage hour at actual conditions: 1 716,92 m³, 37 %, 0,424355 t", async () => {
      const dr = vectors.drainage_hour_at_actual_conditions;
      const offer = await offerOf("Дегазационная установка", "2026-03");
      expect(round(offer.volume_thousand_m3 * 1000, dr.volume_m3.decimals)).toBe(dr.volume_m3.value);
      expect(round(offer.ef_ch4, dr.ef_ch4.decimals)).toBe(dr.ef_ch4.value);
      expect(round(offer.ch4_t, dr.ch4_t.decimals)).toBe(dr.ch4_t.value);
    });

    it("offers only the months with readings", async () => {
      const offers = await listOffers(d.deps, staff, facility, 2026);
      expect(offers.map((o) => `${o.point_name} ${o.month}`).sort()).toEqual([
        "Вентиляционный ствол 2026-03",
        "Дегазационная установка 2026-03",
      ]);
      expect(await listOffers(d.deps, staff, facility, 2025)).toEqual([]);
    });
  });

  describe("accepting months (D62, D63)", () => {
    const body = () => ({ facility, point: points["Вентиляционный ствол"], months: ["2026-03"], project });

    it("refuses a month without readings, a point of no facility's and another facility's project", async () => {
      await expect(accept({ ...body(), months: ["2026-05"] })).rejects.toThrow(
        "Месяцы: за 05.2026 нет показаний датчиков источника «Вентиляционный ствол»",
      );
      await expect(accept({ ...body(), point: "not-a-point" })).rejects.toThrow("Источник выбросов: источник выбросов не найден");
      const elsewhere = (await d.facility(staff, { name: "Шахта «Другая»", kind: "underground_mine" })).id;
      const theirs = (
        await d.project(staff, { name: "Чужая площадка", start_date: "2026-01-01", end_date: "2026-12-31", facility: elsewhere })
      ).id;
      await expect(accept({ ...body(), project: theirs })).rejects.toThrow("Проект: проект не относится к этой площадке");
    });

    it("asks for a reason below 95 %, then accepts into a measured calculation «по данным АГК» whose CH4 is the offer's, once", async () => {
      const offer = await offerOf("Вентиляционный ствол", "2026-03");
      expect(offer.completeness).toBeLessThan(0.95);
      await expect(accept(body())).rejects.toThrow("ниже 95 %: укажите причину");
      const [accepted] = await accept({ ...body(), reason: "Пробный замер" });
      expect(accepted.accepted).toMatchObject({ ch4_t: offer.ch4_t, reason: "Пробный замер", changed: false, difference_pct: 0, project });
      const calculation = calculationView(
        await getCalculation(d.deps, staff, "underground", accepted.accepted!.calculation),
      ) as unknown as {
        id: string;
        name: string;
        period: unknown;
        point: string;
        res_ch4: number;
      };
      expect(calculation.name).toBe("Вентиляционный ствол: по данным АГК, 03.2026");
      expect(calculation.period).toMatchObject({ from: "2026-03-01", to: "2026-03-31" });
      expect(calculation.point).toBe(points["Вентиляционный ствол"]);
      expect(Math.abs(calculation.res_ch4 - offer.ch4_t) / offer.ch4_t).toBeLessThan(1e-9);
      expect((await offerOf("Вентиляционный ствол", "2026-03")).accepted).toMatchObject({ calculation: calculation.id, changed: false });
      await expect(accept({ ...body(), reason: "Еще раз" })).rejects.toThrow("Месяц 03.2026 уже принят");
    });

    it("flags the accepted month when a late correction moves it by more than 0,1 %, the calculation unchanged", async () => {
      const before = (await offerOf("Вентиляционный ствол", "2026-03")).accepted!;
      // Minute 45's 0,46 % was 0,90 %: 12 000 × 0,0044 = 52,8 m³ more CH4, +1,62 %.
      await push([{ sensor: "М-В", t: HOUR + 45 * MINUTE_MS, value: 0.9 }]);
      const now = await offerOf("Вентиляционный ствол", "2026-03");
      expect(now.ch4_t).toBeCloseTo(((3252 + 52.8) * 0.668) / 1000, 9);
      expect(now.accepted).toMatchObject({ changed: true, ch4_t: before.ch4_t });
      expect(now.accepted!.difference_pct).toBeCloseTo((52.8 / 3252) * 100, 6);
      const calculation = calculationView(await getCalculation(d.deps, staff, "underground", now.accepted!.calculation)) as unknown as {
        res_ch4: number;
      };
      expect(calculation.res_ch4).toBeCloseTo(before.ch4_t, 9);
    });

    it("keeps the readings the month came from for the verification pack, as accepted, the late correction aside", async () => {
      const accepted = (await d.deps.repos.monitoring.acceptances(staff.company, facility))[0];
      const line = { id: accepted.calculation, facility } as SnapshotLine;
      const { files, listed, missing } = await acceptedMonths(d.deps, staff.company, [{ ...line, id: "other" }, line]);
      expect(missing).toEqual([]);
      expect(files.map((f) => f.name)).toEqual(["telemetry/0002.csv", "telemetry/0002.json"]);
      expect(listed).toEqual([
        {
          calculation: "calculations/0002.json",
          readings: "telemetry/0002.csv",
          month: "2026-03",
          point: "Вентиляционный ствол",
          readings_sha256: accepted.readings_sha256,
        },
      ]);
      const [csv, json] = files.map((f) => new TextDecoder().decode(f.bytes));
      expect(createHash("sha256").update(csv).digest("hex")).toBe(accepted.readings_sha256);
      // The ventilation hour's 110 readings as accepted: minute 45 still 0,46 %.
      expect(csv.split("\n").filter(Boolean)).toHaveLength(110);
      expect(csv).toContain(`М-В;${new Date(HOUR + 45 * MINUTE_MS).toISOString()};0.46\n`);
      const description = JSON.parse(json);
      expect(description).toMatchObject({ month: "2026-03", conditions: "standard", readings_sha256: accepted.readings_sha256 });
      expect(description.sensors.map((s: { role: string }) => s.role)).toEqual(["flow", "ch4"]);
      expect(description.result.ch4_t).toBe(accepted.ch4_t);
    });

    it("carries the checks and verifications of the month's sensors as recorded by the approval", async () => {
      const user = await createUser(d.deps, {
        companyId: staff.company,
        email: `electrician-pack-${open}@example.com`,
        password: "correct-horse",
        first_name: "Андрей",
        last_name: "Сидоров",
        duty: "agk_electrician",
      });
      const electrician = { id: user.id, company: staff.company, email: user.email, role: user.role };
      const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, facility);
      const id = (code: string) => sensors.find((s) => s.code === code)!.id;
      await d.write(() =>
        recordCheck(
          d.deps,
          electrician,
          facility,
          id("М-В"),
          parseWith(sensorCheckCreateSchema, {
            at: new Date(HOUR + 30 * MINUTE_MS).toISOString(),
            kind: "planned",
            reading_pct: 0.46,
            reference_pct: 0.44,
            reference_instrument: "ШИ-11 № 4512",
            button_test_ok: false,
            result: "failed",
            fault: "Не работает кнопка «Контроль»",
          }),
        ),
      );
      await d.write(() =>
        recordVerification(
          d.deps,
          staff,
          facility,
          id("М-В"),
          parseWith(verificationCreateSchema, {
            instrument_type: "ДМС 03",
            register_number: "12345-06",
            serial: "0419",
            verified_on: "2025-03-01",
            valid_to: "2026-03-15",
            certificate: "С-419",
          }),
        ),
      );
      // The М-Д's check of another point's month is not this month's.
      await d.write(() =>
        recordCheck(
          d.deps,
          electrician,
          facility,
          id("М-Д"),
          parseWith(sensorCheckCreateSchema, { at: new Date(HOUR).toISOString(), kind: "planned", button_test_ok: true, result: "passed" }),
        ),
      );
      const accepted = (await d.deps.repos.monitoring.acceptances(staff.company, facility))[0];
      const { used } = await acceptedMonths(d.deps, staff.company, [{ id: accepted.calculation, facility } as SnapshotLine]);
      const now = d.deps.clock.now().toISOString();
      const file = (await instrumentsOfMonths(d.deps, staff.company, used, now, ZONE)) as {
        months: { calculation: string; sensors: { code: string; checks: Record<string, unknown>[]; verifications: unknown[] }[] }[];
      };
      expect(file.months).toHaveLength(1);
      expect(file.months[0].calculation).toBe("calculations/0001.json");
      const of = (code: string) => file.months[0].sensors.find((s) => s.code === code)!;
      expect(file.months[0].sensors.map((s) => s.code)).toEqual(["Q-В", "М-В"]);
      expect(of("М-В").checks).toEqual([
        expect.objectContaining({
          result: "датчик не прошел проверку",
          reading_pct: 0.46,
          reference_pct: 0.44,
          fault: "Не работает кнопка «Контроль»",
          signatures: expect.objectContaining({ "электрослесарь АГК": { by: "Сидоров А.", at: expect.any(String) } }),
        }),
      ]);
      expect(of("М-В").verifications).toEqual([
        {
          instrument_type: "ДМС 03",
          register_number: "12345-06",
          serial: "0419",
          verified_on: "2025-03-01",
          valid_to: "2026-03-15",
          certificate: "С-419",
        },
      ]);
      expect(of("Q-В")).toEqual({ code: "Q-В", checks: [], verifications: [] });
      // Approved before they were written: the pack of that version carries none of them (its bytes stay).
      const earlier = (await instrumentsOfMonths(d.deps, staff.company, used, "2026-03-31T00:00:00Z", ZONE)) as typeof file;
      expect(earlier.months[0].sensors.every((s) => s.checks.length === 0 && s.verifications.length === 0)).toBe(true);

      // The review: the verification's day was typed wrong (01.03.2025 for 01.04.2026) and is corrected a
      // minute after; the correction's day is after the window, and it goes with the record it corrects.
      // Approved since, the corrected one names its correction and the correction the one it corrects;
      // approved before the correction, the file is the same bytes as before.
      const typed = (await d.deps.repos.sensorChecks.verificationsOfFacility(staff.company, facility)).find((v) => v.sensor === id("М-В"))!;
      const later = new Date(Date.parse(now) + MINUTE_MS).toISOString();
      const correction = await d.write(() =>
        recordVerification(
          { ...d.deps, clock: clockAt(later) },
          staff,
          facility,
          id("М-В"),
          parseWith(verificationCreateSchema, {
            instrument_type: "ДМС 03",
            register_number: "12345-06",
            serial: "0419",
            verified_on: "2026-04-01",
            valid_to: "2027-03-31",
            certificate: "С-419",
            corrects: typed.id,
          }),
        ),
      );
      const corrected = (await instrumentsOfMonths(d.deps, staff.company, used, later, ZONE)) as typeof file;
      expect(corrected.months[0].sensors.find((s) => s.code === "М-В")!.verifications).toEqual([
        { ...(of("М-В").verifications[0] as object), record: typed.id, corrected_by: correction.id },
        {
          instrument_type: "ДМС 03",
          register_number: "12345-06",
          serial: "0419",
          verified_on: "2026-04-01",
          valid_to: "2027-03-31",
          certificate: "С-419",
          record: correction.id,
          corrects: typed.id,
        },
      ]);
      const again = await instrumentsOfMonths(d.deps, staff.company, used, now, ZONE);
      expect(JSON.stringify(again)).toBe(JSON.stringify(file));
    });
  });
});
