// items 1, 2 and 86 (R6, R13) on the in-memory repositories, on a clock of the test's own
// (27.11.2026 10:00 in Kemerovo): the month still running is shown «in progress» with its minutes so far
// and refused by the API (400 naming it) until it ends on the company's clock; ten parallel accepts of
// one month store one calculation, a multi-month accept refused or failing on a later month stores none;
// a month whose readings changed after acceptance is accepted again in a year not approved — its
// calculation replaced by a new version of it, the year's total moved by exactly the difference, the old
// figures and their readings kept, the change log naming who and why — and refused in a frozen year,
// whose total stays; an archived month's calculation no longer blocks accepting it again; an id field of
// 1 000 characters is a 400 naming it.
import { beforeAll, describe, expect, it } from "vitest";
import { instantOfWallTime } from "@core/company-clock";
import { MINUTE_MS } from "@core/dates";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { offerAcceptSchema } from "../../../contract/schemas/monitoring";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import { METHODOLOGY_VERSION } from "@core/registry";
import { pointPatchSchema } from "../../../contract/schemas/facility";
import { createUser } from "../../company/users";
import { listRequisitesAudit } from "../../company/requisites-audit";
import { getStoredCalculation } from "../../calculation-lookup";
import { patchCalculation } from "../../calculations/calculations";
import { getInventory, getInventoryWithCalculations } from "../../inventory/year";
import { patchPoint } from "../../company/emission-points";
import { transition } from "../../inventory/review";
import { inventoryState } from "../../inventory/state";
import type { Actor } from "../../context";
import { Conflict, Invalid } from "../../errors";
import { drainReadings } from "./consumer";
import { monitoringIdle } from "../live/forecaster";
import { acceptOffers, listOffers } from "./offers";
import { acceptedEvidenceKey } from "./accepted-evidence";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { fieldName } from "../../../contract/field-names";

const ZONE = "Asia/Novokuznetsk";
let now = instantOfWallTime(2026, 11, 27, 10, 0, ZONE);
let d: MemoryDomain;
let staff: Actor;
let reviewer: Actor;
let facility: string;
let point: string;
let project: string;

async function push(readings: { sensor: string; t: number; value: number }[]) {
  await storeBatch(d.deps, staff.company, facility, {
    json: { readings: readings.map((r) => ({ ...r, t: new Date(r.t).toISOString() })) },
  });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
}
/** An hour of 12 000 m³/min at 0,45 % from the given local day's 10:00. */
const hour = (month: number, day: number, ch4 = 0.45) => {
  const from = instantOfWallTime(2026, month, day, 10, 0, ZONE);
  return Array.from({ length: 60 }, (_, m) => [
    { sensor: "Q-В", t: from + m * MINUTE_MS, value: 12000 },
    { sensor: "М-В", t: from + m * MINUTE_MS, value: ch4 },
  ]).flat();
};
const body = (extra: Record<string, unknown>) => ({ facility, point, project, reason: "Пробный замер", ...extra });
const accept = (extra: Record<string, unknown>, actor = staff) =>
  d.write(() => acceptOffers(d.deps, actor, parseWith(offerAcceptSchema, body(extra))));
const offerOf = async (month: string) => (await listOffers(d.deps, staff, facility, 2026)).find((o) => o.month === month)!;
const undergroundOfProject = async () =>
  (await d.deps.repos.calculations.listAllByProject(staff.company, project, "underground", "active")).length;

beforeAll(async () => {
  d = await memoryDomain({ now: () => new Date(now) });
  staff = await d.actor("ООО «Принятие АГК»");
  const user = await createUser(d.deps, {
    companyId: staff.company,
    email: "reviewer@accept.example",
    password: "reviewer-password",
    role: "reviewer",
  });
  reviewer = { id: user.id, company: staff.company, email: user.email, role: "reviewer" };
  facility = (await d.facility(staff, { name: "Шахта «Приемка»", kind: "underground_mine" })).id;
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
  await push([...hour(8, 10), ...hour(9, 10), ...hour(10, 10), ...hour(11, 15)]);
});

describe("the month still running", () => {
  it("is shown with its minutes so far and not offered as a whole month", async () => {
    const november = await offerOf("2026-11");
    const elapsed = (now - instantOfWallTime(2026, 11, 1, 0, 0, ZONE)) / MINUTE_MS;
    expect(november).toMatchObject({ in_progress: true, month_minutes: 30 * 1440 });
    expect(november.minutes.expected).toBe(elapsed);
    expect(await offerOf("2026-10")).toMatchObject({ in_progress: false, month_minutes: 31 * 1440 });
  });

  it("is refused by the API with 400 naming the month, and accepted once it has ended on the company's clock", async () => {
    const refused = accept({ months: ["2026-11"] });
    await expect(refused).rejects.toBeInstanceOf(Invalid);
    await expect(refused).rejects.toThrow(
      "Месяцы: месяц 11.2026 еще идет (38\u00a0040 из 43\u00a0200 минут): его принимают после окончания месяца по часам компании",
    );
    expect(await undergroundOfProject()).toBe(0);
    // 30.11 23:59 in Kemerovo: still running; 01.12 00:00 there (17:00 UTC on 30.11): ended.
    now = instantOfWallTime(2026, 11, 30, 23, 59, ZONE);
    await expect(accept({ months: ["2026-11"] })).rejects.toThrow("еще идет (43\u00a0199 из 43\u00a0200 минут)");
    now = instantOfWallTime(2026, 12, 1, 0, 0, ZONE);
    expect((await offerOf("2026-11")).in_progress).toBe(false);
    const [accepted] = await accept({ months: ["2026-11"] });
    expect(accepted).toMatchObject({ month: "2026-11", in_progress: false, minutes: { expected: 43200 } });
  });
});

describe("one acceptance per month under races (R6)", () => {
  it("ten parallel accepts of one month: one 201, nine 409, one calculation stored", async () => {
    const before = await undergroundOfProject();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => accept({ months: ["2026-10"] })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason);
    expect(refused).toHaveLength(9);
    for (const error of refused) expect(error).toBeInstanceOf(Conflict);
    expect(await undergroundOfProject()).toBe(before + 1);
    // The claims were given back: the month is refused as accepted, not as being accepted.
    await expect(accept({ months: ["2026-10"] })).rejects.toThrow("Месяц 10.2026 уже принят");
  });

  it("a multi-month accept refused on a later month stores none", async () => {
    const before = await undergroundOfProject();
    // September free, October accepted and unchanged.
    await expect(accept({ months: ["2026-09", "2026-10"] })).rejects.toThrow("Месяц 10.2026 уже принят");
    // August free, September held by a request in flight.
    const claim = { company: staff.company, facility, point, month: "2026-09", token: "другой запрос", at: new Date(now).toISOString() };
    expect(await d.deps.repos.monitoring.claimMonth(claim, "1970-01-01T00:00:00.000Z")).toBe(true);
    await expect(accept({ months: ["2026-08", "2026-09"] })).rejects.toThrow("Месяц 09.2026 сейчас принимают в другом запросе");
    await d.deps.repos.monitoring.releaseMonth(claim);
    expect(await undergroundOfProject()).toBe(before);
    const accepted = (await d.deps.repos.monitoring.acceptances(staff.company, facility)).map((a) => a.month).sort();
    expect(accepted).toEqual(["2026-10", "2026-11"]);
  });

  it("a multi-month accept whose storage fails on a later month leaves no month in the year", async () => {
    const before = await undergroundOfProject();
    const put = d.deps.blobs.put.bind(d.deps.blobs);
    let puts = 0;
    d.deps.blobs.put = async (key, bytes, type) => {
      // The second month's evidence: the storage fails.
      if (key.startsWith("telemetry/accepted/") && ++puts === 3) throw new Error("хранилище недоступно");
      return put(key, bytes, type);
    };
    try {
      await expect(accept({ months: ["2026-08", "2026-09"] })).rejects.toThrow("хранилище недоступно");
    } finally {
      d.deps.blobs.put = put;
    }
    expect(await undergroundOfProject()).toBe(before);
    expect((await d.deps.repos.monitoring.acceptances(staff.company, facility)).map((a) => a.month).sort()).toEqual(["2026-10", "2026-11"]);
    const [august, september] = await accept({ months: ["2026-08", "2026-09"] });
    expect([august.accepted?.version, september.accepted?.version]).toEqual([1, 1]);
  });
});

describe("a month whose readings changed after acceptance", () => {
  it("is accepted again in a year not approved: a new version of its calculation, the total moved by exactly the difference", async () => {
    const offer = await offerOf("2026-10");
    const first = offer.accepted!;
    const total = (await getInventory(d.deps, staff, 2026)).total_t_co2e;
    const calculation = await getStoredCalculation(d.deps, staff, "underground", first.calculation);
    // A second file restores 20 more minutes of the hour at 0,45 %.
    const from = instantOfWallTime(2026, 10, 10, 11, 0, ZONE);
    await push(
      Array.from({ length: 20 }, (_, m) => [
        { sensor: "Q-В", t: from + m * MINUTE_MS, value: 12000 },
        { sensor: "М-В", t: from + m * MINUTE_MS, value: 0.45 },
      ]).flat(),
    );
    const changed = await offerOf("2026-10");
    expect(changed.accepted).toMatchObject({ changed: true, version: 1, calculation_archived: false, year_frozen: false });
    expect(changed.ch4_t).toBeCloseTo((first.ch4_t * 80) / 60, 9);
    await expect(accept({ months: ["2026-10"], reason: "" })).rejects.toThrow(
      "Причина: месяц 10.2026 уже принят — укажите, почему он принимается заново",
    );
    const [again] = await accept({ months: ["2026-10"], reason: "Второй файл восстановил 20 минут расходомера" });
    expect(again.accepted).toMatchObject({
      calculation: first.calculation,
      ch4_t: changed.ch4_t,
      changed: false,
      version: 2,
      again_reason: "Второй файл восстановил 20 минут расходомера",
      history: [
        {
          calculation: first.calculation,
          calculation_version: calculation.version,
          ch4_t: first.ch4_t,
          readings_sha256: offer.readings_sha256,
          accepted_by: first.accepted_by,
        },
      ],
    });
    const replaced = await getStoredCalculation(d.deps, staff, "underground", first.calculation);
    expect(replaced.version).toBe(calculation.version + 1);
    expect(Math.abs(Number(replaced.results.res_ch4) - changed.ch4_t) / changed.ch4_t).toBeLessThan(1e-12);
    const gwp = replaced.coefficients.gwp_ch4.value;
    const after = (await getInventory(d.deps, staff, 2026)).total_t_co2e;
    expect(after - total).toBeCloseTo((Number(replaced.results.res_ch4) - Number(calculation.results.res_ch4)) * gwp, 9);
    // The old readings stay for the verification pack, under their SHA-256.
    const old = { company: staff.company, facility, point, month: "2026-10", readings_sha256: offer.readings_sha256 };
    expect(await d.deps.blobs.get(acceptedEvidenceKey(old, "csv"))).toBeDefined();
    // The change log names who and why, with the figures before and after.
    const { results } = await listRequisitesAudit(d.deps, reviewer, { limit: 10, offset: 0 });
    const entry = results.find((e) => e.target_type === "accepted_month")!;
    expect(entry).toMatchObject({ actor_email: staff.email, target_label: "Вентиляционный ствол, 10.2026" });
    expect(entry.changes.find((c) => c.field === "reason")?.after).toBe("Второй файл восстановил 20 минут расходомера");
    expect(entry.changes.find((c) => c.field === "calculation_version")).toMatchObject({
      before: String(calculation.version),
      after: String(calculation.version + 1),
    });
    // Accepted again and unchanged since: refused as before.
    await expect(accept({ months: ["2026-10"] })).rejects.toThrow("Месяц 10.2026 уже принят");
  });

  it("is accepted again once its calculation is archived, into a new calculation", async () => {
    const first = (await offerOf("2026-09")).accepted!;
    const calculation = await getStoredCalculation(d.deps, staff, "underground", first.calculation);
    await d.write(() =>
      patchCalculation(d.deps, staff, "underground", calculation.id, { values: {}, is_deleted: true, version: calculation.version }),
    );
    expect((await offerOf("2026-09")).accepted).toMatchObject({ calculation_archived: true });
    const [again] = await accept({ months: ["2026-09"] });
    expect(again.accepted!.calculation).not.toBe(first.calculation);
    expect(again.accepted).toMatchObject({ version: 2, calculation_archived: false, history: [{ calculation: first.calculation }] });
  });

  it("stays as approved in an approved year: accepting it again is refused naming the reopening, the total unchanged", async () => {
    await d.approveYear(staff, reviewer, 2026);
    const approved = await getInventory(d.deps, staff, 2026);
    expect(approved.review.status).toBe("approved");
    await push(hour(8, 20));
    const august = await offerOf("2026-08");
    expect(august.accepted).toMatchObject({ changed: true, year_frozen: true });
    const refused = accept({ months: ["2026-08"], reason: "Новые показания" });
    await expect(refused).rejects.toBeInstanceOf(Conflict);
    await expect(refused).rejects.toThrow("открыть год для изменений");
    expect((await getInventory(d.deps, staff, 2026)).total_t_co2e).toBe(approved.total_t_co2e);
    expect((await offerOf("2026-08")).accepted).toMatchObject({ version: 1, changed: true });
  });
});

describe("id fields (R13)", () => {
  it("refuses an id of 1 000 characters with 400 naming the field", () => {
    for (const field of ["facility", "point", "project"]) {
      expect(() => parseWith(offerAcceptSchema, { ...body({ months: ["2026-10"] }), [field]: "x".repeat(1000) })).toThrow(
        `${fieldName(field)}: идентификатор не длиннее 128 символов`,
      );
    }
  });
});

describe("the CO2 content of an accepted month", () => {
  let shaft: string;
  beforeAll(async () => {
    shaft = (
      await d.write(() =>
        createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Ствол № 2", kind: "ventilation_shaft" })),
      )
    ).id;
    for (const [code, kind] of [
      ["Q-2", "flow"],
      ["М-2", "methane"],
    ]) {
      await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, { code, kind, point: shaft })));
    }
    for (const month of [5, 6]) {
      const from = instantOfWallTime(2026, month, 10, 10, 0, ZONE);
      await push(
        Array.from({ length: 60 }, (_, m) => [
          { sensor: "Q-2", t: from + m * MINUTE_MS, value: 9000 },
          { sensor: "М-2", t: from + m * MINUTE_MS, value: 0.5 },
        ]).flat(),
      );
    }
  });

  it("is entered on the point with where it came from, never without it", () => {
    expect(() => parseWith(pointCreateSchema, { name: "Ствол № 3", kind: "ventilation_shaft", co2_content_pct: 0.2 })).toThrow(
      "Источник содержания CO2: укажите, откуда содержание CO2",
    );
    expect(() =>
      parseWith(pointCreateSchema, { name: "Ствол № 3", kind: "ventilation_shaft", co2_content_pct: 120, co2_content_source: "x" }),
    ).toThrow("Содержание CO2: от 0 до 100 % об.");
  });

  it("is the point's own in the month accepted, its source printed, the method continuous, the version current", async () => {
    // A year reopened is needed for new months: the year above was approved; 2026's review is reopened.
    const { review } = await getInventory(d.deps, staff, 2026);
    await d.write(() =>
      transition(d.deps, reviewer, 2026, { action: "reopen", reason: "Новые месяцы", version: review.version }, (_c, y) =>
        inventoryState(d.deps, staff, y),
      ),
    );
    // Without a content: 0 % with the reason said, not an unexplained actual value.
    const [may] = await accept({ point: shaft, months: ["2026-05"] });
    const without = await getStoredCalculation(d.deps, staff, "underground", may.accepted!.calculation);
    expect(without.coefficients.ef_co2).toMatchObject({ value: 0, source: "custom" });
    expect(without.coefficients.ef_co2.justification).toBe(
      "Содержание CO2 для источника «Ствол № 2» не указано, каналом АГК не измеряется: принято 0 % об. (укажите его в карточке источника)",
    );
    const point = await d.deps.repos.emissionPoints.get(staff.company, facility, shaft);
    await d.write(() =>
      patchPoint(
        d.deps,
        staff,
        facility,
        shaft,
        parseWith(pointPatchSchema, {
          co2_content_pct: 0.35,
          co2_content_source: "анализ проб, протокол № 7 от 12.10.2026",
          version: point!.version,
        }),
      ),
    );
    const [june] = await accept({ point: shaft, months: ["2026-06"] });
    const calculation = await getStoredCalculation(d.deps, staff, "underground", june.accepted!.calculation);
    expect(calculation.coefficients.ef_co2).toMatchObject({ value: 0.35, source: "custom" });
    expect(calculation.coefficients.ef_co2.justification).toBe(
      "Содержание CO2 источника «Ствол № 2»: 0,35 % об. (анализ проб, протокол № 7 от 12.10.2026); каналом АГК не измеряется",
    );
    expect(Number(calculation.results.res_co2)).toBeGreaterThan(0);
    expect(calculation.methodology_version).toBe(METHODOLOGY_VERSION);
    expect(METHODOLOGY_VERSION).toBe("2026.7");
    const year = await getInventoryWithCalculations(d.deps, staff, 2026);
    const row = year.calculations.find((c) => c.id === calculation.id)!;
    expect(row.method).toBe("Непрерывные измерения (АГК)");
    // The year warns about none of its own accepted months as values without a justification.
    const unjustified = year.checks.filter((c) => c.code === "custom_without_justification");
    expect(unjustified.flatMap((c) => c.calculations ?? [])).not.toContain(calculation.id);
    expect(unjustified.flatMap((c) => c.calculations ?? [])).not.toContain(without.id);
  });
});
