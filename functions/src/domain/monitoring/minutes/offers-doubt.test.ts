// D94 in a measured month (D63): a methane sensor whose check failed on 03.03.2026 at
// 09:00 and passed on 05.03.2026 at 09:00 carries 2 880 minutes «под сомнением» in March — kept and used,
// never substituted: the offer says so, its figures are what they would be without the flag, acceptance
// without a reason is a 400 naming «Причина», and with one the reason is stored, the calculation's CH4
// justification (the line the report passport prints) carries the flag and the reason, and the month's
// evidence for the verification pack names the channel's spans. February, without a flag, is accepted
// without a reason.
import { beforeAll, describe, expect, it } from "vitest";
import { instantOfWallTime } from "@core/company-clock";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { offerAcceptSchema } from "../../../contract/schemas/monitoring";
import { sensorCheckCreateSchema } from "../../../contract/schemas/sensor-checks";
import { parseWith } from "../../../http/validate";
import { describeCoefficient } from "../../../export/content";
import { createPoint } from "../../company/emission-points";
import { getStoredCalculation } from "../../calculation-lookup";
import type { Actor } from "../../context";
import { Invalid } from "../../errors";
import { recordCheck } from "../instruments/sensor-checks";
import { monitoringIdle } from "../live/forecaster";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { drainReadings } from "./consumer";
import { acceptedEvidenceKey } from "./accepted-evidence";
import { acceptOffers, listOffers } from "./offers";

const ZONE = "Asia/Novokuznetsk";
const now = instantOfWallTime(2026, 4, 10, 10, 0, ZONE);
let d: MemoryDomain;
let staff: Actor;
let facility: string;
let point: string;
let project: string;

/** A reading of each channel every 6 hours of the month (gaps under 24 h are substituted: 100 %). */
function month(m: number, days: number) {
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let day = 1; day <= days; day++) {
    for (const hour of [0, 6, 12, 18]) {
      const t = new Date(instantOfWallTime(2026, m, day, hour, 0, ZONE)).toISOString();
      readings.push({ sensor: "Q-В", t, value: 12000 }, { sensor: "М-В", t, value: 0.45 });
    }
  }
  // The month's last minute, so its end is read, not substituted from a gap.
  const last = new Date(instantOfWallTime(2026, m, days, 23, 59, ZONE)).toISOString();
  readings.push({ sensor: "Q-В", t: last, value: 12000 }, { sensor: "М-В", t: last, value: 0.45 });
  return readings;
}

const accept = (months: string[], reason?: string) =>
  d.write(() =>
    acceptOffers(d.deps, staff, parseWith(offerAcceptSchema, { facility, point, project, months, ...(reason ? { reason } : {}) })),
  );
const offerOf = async (m: string) => (await listOffers(d.deps, staff, facility, 2026)).find((o) => o.month === m)!;

beforeAll(async () => {
  d = await memoryDomain({ now: () => new Date(now) });
  staff = await d.actor("ООО «Сомнение АГК»");
  facility = (await d.facility(staff, { name: "Шахта «Поверочная»", kind: "underground_mine" })).id;
  point = (
    await d.write(() =>
      createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Вентиляционный ствол", kind: "ventilation_shaft" })),
    )
  ).id;
  for (const [code, kind] of [
    ["Q-В", "flow"],
    ["М-В", "methane"],
  ]) {
    await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, { code, kind, point })));
  }
  project = (await d.project(staff, { name: "Замеры 2026", start_date: "2026-01-01", end_date: "2026-12-31", facility })).id;
  await storeBatch(d.deps, staff.company, facility, { json: { readings: [...month(2, 28), ...month(3, 31)] } });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  const electrician = await d.colleague(staff, {
    email: "electrician-month@example.com",
    first_name: "Андрей",
    last_name: "Сидоров",
    duty: "agk_electrician",
  });
  const methane = (await d.deps.repos.sensors.listOfFacility(staff.company, facility)).find((s) => s.code === "М-В")!.id;
  for (const [at, result] of [
    ["2026-03-03T09:00:00+07:00", "failed"],
    ["2026-03-05T09:00:00+07:00", "passed"],
  ] as const) {
    await recordCheck(
      d.deps,
      electrician,
      facility,
      methane,
      parseWith(sensorCheckCreateSchema, {
        at,
        kind: "planned",
        button_test_ok: result === "passed",
        result,
        ...(result === "failed" ? { fault: "Не работает кнопка «Контроль»" } : {}),
      }),
    );
  }
});

const FLAG = "М-В: показания под сомнением: датчик не прошел проверку 03.03.2026 — 2\u00a0880 мин";

describe("a measured month whose channel carries minutes «под сомнением» (D94)", () => {
  it("says so in the offer; its figures are the readings' own, nothing substituted for the flag", async () => {
    const march = await offerOf("2026-03");
    const february = await offerOf("2026-02");
    expect(march.doubt).toEqual({ text: FLAG, sensors: [{ code: "М-В", minutes: 2880, why: ["датчик не прошел проверку 03.03.2026"] }] });
    expect(february.doubt).toBeNull();
    expect(march.completeness).toBe(1);
    // The same content and flow every minute: the flagged minutes count as the others, so March is
    // February's volume scaled by the days.
    expect(march.ef_ch4).toBeCloseTo(0.45, 9);
    expect(march.volume_thousand_m3 / 31).toBeCloseTo(february.volume_thousand_m3 / 28, 9);
  });

  it("is refused without a reason, 400 naming it; accepted with one, stored and printed beside the CH4 content", async () => {
    const refused = accept(["2026-03"]);
    await expect(refused).rejects.toBeInstanceOf(Invalid);
    await expect(refused).rejects.toThrow(`Причина: за 03.2026 ${FLAG} — показания сохранены и учтены, не замещены`);
    expect(await d.deps.repos.monitoring.acceptances(staff.company, facility)).toEqual([]);

    const [february] = await accept(["2026-02"]);
    expect(february.accepted?.reason).toBe("");

    const [march] = await accept(["2026-03"], "Датчик заменен 05.03, показания сверены с интерферометром");
    expect(march.accepted?.reason).toBe("Датчик заменен 05.03, показания сверены с интерферометром");
    const stored = (await d.deps.repos.monitoring.acceptances(staff.company, facility)).find((a) => a.month === "2026-03")!;
    expect(stored.reason).toBe("Датчик заменен 05.03, показания сверены с интерферометром");
    const calculation = await getStoredCalculation(d.deps, staff, "underground", march.accepted!.calculation);
    const line = describeCoefficient(calculation.coefficients.ef_ch4)!;
    expect(line).toContain(
      `${FLAG} (сохранены и учтены, не замещены); причина принятия: Датчик заменен 05.03, показания сверены с интерферометром`,
    );

    const evidence = JSON.parse(
      new TextDecoder().decode(
        (await d.deps.blobs.get(
          acceptedEvidenceKey(
            { company: staff.company, facility, point, month: "2026-03", readings_sha256: march.readings_sha256 },
            "json",
          ),
        ))!.body,
      ),
    );
    expect(evidence.doubt).toEqual([
      {
        code: "М-В",
        minutes: 2880,
        why: ["датчик не прошел проверку 03.03.2026"],
        spans: [{ from: "2026-03-03T02:00:00.000Z", to: "2026-03-05T02:00:00.000Z", why: "датчик не прошел проверку 03.03.2026" }],
      },
    ]);
  });
});
