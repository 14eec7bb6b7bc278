// D94: a sensor's verification (поверка) — recorded once with its type, state register
// number, serial, dates and certificate; the sensor out of verification from the day after `valid_to` is
// named so in what is due of it (and so on «Мониторинг», in the register and in the operator's journal of a
// day from then on).
import { beforeAll, describe, expect, it } from "vitest";
import { zoneOf } from "@core/company-clock";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { verificationCreateSchema } from "../../../contract/schemas/sensor-checks";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { Conflict, Forbidden, Invalid } from "../../errors";
import { registerDocument } from "./documents";
import { facilityDoubt } from "../minutes/doubt";
import { createSensor } from "../ingest/register";
import { checkStates } from "./check-states";
import { listVerifications, recordVerification, verificationOn } from "./verifications";

const VERIFIED = {
  instrument_type: "ДМС 03",
  register_number: "12345-06",
  serial: "0417",
  verified_on: "2025-03-10",
  valid_to: "2026-03-09",
  certificate: "С-ГШ/10-03-2025/417",
};

describe("a sensor's verification (D94, item 3)", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility = "";
  let sensor = "";

  beforeAll(async () => {
    d = await memoryDomain(clockAt("2026-03-12T03:00:00Z"));
    staff = await d.actor("Кузбасс-Поверка");
    facility = (await d.facility(staff, { name: "Шахта «Поверка»", kind: "underground_mine" })).id;
    sensor = (
      await d.write(() =>
        createSensor(
          d.deps,
          staff,
          facility,
          parseWith(sensorCreateSchema, { code: "М-7", kind: "methane", working: "Лава 12-1", place: "face_10_20m", warning: 1, alarm: 2 }),
        ),
      )
    ).id;
  });

  it("says a day's state from the latest verification done by then", () => {
    const records = [VERIFIED, { ...VERIFIED, verified_on: "2026-03-15", valid_to: "2027-03-14" }];
    expect(verificationOn([], "2026-03-01")).toEqual({ state: "none", text: "поверка не записана", out_from: null });
    expect(verificationOn(records, "2026-03-09")).toEqual({ state: "valid", text: "поверен до 09.03.2026", out_from: null });
    expect(verificationOn(records, "2026-03-10")).toEqual({ state: "expired", text: "вне поверки с 10.03.2026", out_from: "2026-03-10" });
    expect(verificationOn(records, "2026-03-15").text).toBe("поверен до 14.03.2027");
  });

  it("records one, refuses a reviewer and a valid_to before the day, and names the sensor out of verification", async () => {
    expect(() => parseWith(verificationCreateSchema, { ...VERIFIED, valid_to: "2025-03-01" })).toThrow(Invalid);
    await expect(
      recordVerification(d.deps, { ...staff, role: "reviewer" }, facility, sensor, parseWith(verificationCreateSchema, VERIFIED)),
    ).rejects.toThrow(Forbidden);
    const recorded = await recordVerification(d.deps, staff, facility, sensor, parseWith(verificationCreateSchema, VERIFIED));
    expect(recorded).toMatchObject({ register_number: "12345-06", certificate: "С-ГШ/10-03-2025/417" });
    expect(recorded.recorded_by).not.toContain("@");
    const list = await listVerifications(d.deps, staff, facility, sensor);
    expect(list).toMatchObject({ code: "М-7", state: "expired", state_text: "вне поверки с 10.03.2026" });

    const now = Date.parse("2026-03-12T03:00:00Z");
    const [state] = (await checkStates(d.deps, staff.company, facility, now)).states;
    expect(state).toMatchObject({ verification: "вне поверки с 10.03.2026", out_of_verification_from: "2026-03-10" });
    expect(state.problems).toEqual(["вне поверки с 10.03.2026"]);
    // On 09.03 it was within its verification.
    const before = (await checkStates(d.deps, staff.company, facility, Date.parse("2026-03-09T10:00:00Z"))).states[0];
    expect(before).toMatchObject({ verification: "поверен до 09.03.2026", problems: [] });
  });
});

// A hostile review: a verification is a record of one that took place. Dated tomorrow (a
// typo of the year: 2027 for 2026) it was written, and from that day on would have covered the sensor's
// minutes with no verification behind them; it is refused at its field.
describe("a verification dated after today (D94)", () => {
  it("is refused at verified_on; today's is written", async () => {
    const d = await memoryDomain(clockAt("2026-03-12T03:00:00Z"));
    const staff = await d.actor("Кузбасс-Будущее");
    const facility = (await d.facility(staff, { name: "Шахта «Будущая»", kind: "underground_mine" })).id;
    const sensor = (
      await d.write(() =>
        createSensor(
          d.deps,
          staff,
          facility,
          parseWith(sensorCreateSchema, { code: "М-1", kind: "methane", working: "Лава 1", place: "face_10_20m", warning: 1, alarm: 2 }),
        ),
      )
    ).id;
    const record = (verified_on: string) =>
      recordVerification(
        d.deps,
        staff,
        facility,
        sensor,
        parseWith(verificationCreateSchema, { ...VERIFIED, verified_on, valid_to: "2027-03-11" }),
      );
    // 10:00 of 12.03.2026 at the company (UTC+7): the 13th has not begun there.
    await expect(record("2026-03-13")).rejects.toThrow("дата поверки позже сегодняшней (12.03.2026)");
    expect((await record("2026-03-12")).verified_on).toBe("2026-03-12");
  });
});

// A hostile review: a verification sent twice (a double press, a retry) at once or after is
// written once — it was written twice, and the sensor's register listed one certificate two times.
describe("a verification sent again (D94)", () => {
  it("is written once, answered with the one written", async () => {
    const d = await memoryDomain(clockAt("2026-03-12T03:00:00Z"));
    const staff = await d.actor("Кузбасс-Дважды");
    const facility = (await d.facility(staff, { name: "Шахта «Дважды»", kind: "underground_mine" })).id;
    const sensor = (
      await d.write(() =>
        createSensor(
          d.deps,
          staff,
          facility,
          parseWith(sensorCreateSchema, { code: "М-1", kind: "methane", working: "Лава 1", place: "face_10_20m", warning: 1, alarm: 2 }),
        ),
      )
    ).id;
    const record = () => recordVerification(d.deps, staff, facility, sensor, parseWith(verificationCreateSchema, VERIFIED));
    const [a, b] = await Promise.all([record(), record()]);
    const c = await record();
    expect(new Set([a.id, b.id, c.id]).size).toBe(1);
    expect((await listVerifications(d.deps, staff, facility, sensor)).results).toHaveLength(1);
  });
});

// A hostile review: a verification recorded wrongly is corrected by a newer record — but the
// state read the verification with the latest `verified_on`, so a correction to an earlier day (10.03.2026
// typed for 01.03.2025) never took effect: the sensor stayed «поверен до 09.03.2027» on every screen and its
// minutes unflagged. A correction now names the record it corrects (`corrects`), which stays listed, marked,
// and no longer counts; one correction each.
describe("a verification corrected to an earlier day (D94)", () => {
  it("counts the correction, keeps the corrected one listed and marked, and takes one correction", async () => {
    const d = await memoryDomain(clockAt("2026-03-12T03:00:00Z"));
    const staff = await d.actor("Кузбасс-Исправленная-Поверка");
    const facility = (await d.facility(staff, { name: "Шахта «Поверенная»", kind: "underground_mine" })).id;
    const sensorOf = async (code: string) =>
      (
        await d.write(() =>
          createSensor(
            d.deps,
            staff,
            facility,
            parseWith(sensorCreateSchema, { code, kind: "methane", working: "Лава 1", place: "face_10_20m", warning: 1, alarm: 2 }),
          ),
        )
      ).id;
    const sensor = await sensorOf("М-1");
    const other = await sensorOf("М-2");
    const record = (at: string, body: Record<string, unknown>) =>
      recordVerification(d.deps, staff, facility, at, parseWith(verificationCreateSchema, { ...VERIFIED, ...body }));
    const wrong = await record(sensor, { verified_on: "2026-03-10", valid_to: "2027-03-09", certificate: "С-1" });
    const fixed = await record(sensor, { verified_on: "2025-03-01", valid_to: "2026-02-28", certificate: "С-1", corrects: wrong.id });
    expect(fixed.corrects).toBe(wrong.id);
    const list = await listVerifications(d.deps, staff, facility, sensor);
    expect(list).toMatchObject({ state: "expired", state_text: "вне поверки с 01.03.2026" });
    expect(list.results.find((v) => v.id === wrong.id)).toMatchObject({ verified_on: "2026-03-10", corrected_by: fixed.id });
    const [state] = (await checkStates(d.deps, staff.company, facility, Date.parse("2026-03-12T03:00:00Z"))).states;
    expect(state).toMatchObject({ code: "М-1", verification: "вне поверки с 01.03.2026", out_of_verification_from: "2026-03-01" });
    // The minutes of 11.03 are under doubt: out of verification.
    const zone = zoneOf(await d.deps.repos.companies.get(staff.company));
    const doubt = await facilityDoubt(d.deps, staff.company, facility, 0, zone);
    expect(doubt(sensor, Date.parse("2026-03-10T17:00:00Z"), Date.parse("2026-03-11T17:00:00Z")).minutes).toBe(1_440);
    const register = await registerDocument(d.deps, staff, facility);
    expect(register.rows.find((r) => r.code === "М-1")).toMatchObject({ verified_on: "2025-03-01", valid_to: "2026-02-28" });
    // One correction each; another sensor's record is no record of this one's.
    await expect(record(sensor, { verified_on: "2025-03-02", valid_to: "2026-03-01", corrects: wrong.id })).rejects.toThrow(Conflict);
    await expect(record(sensor, { corrects: (await record(other, { certificate: "С-2" })).id })).rejects.toThrow(
      "исправляемая поверка этого датчика не найдена",
    );
  });
});
