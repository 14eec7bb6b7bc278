// The base year and the targets: a base year of 2020 is offered its recalculation once an
// administrator's factor change moves its comparable total by more than 5 %, and accepting it is
// logged (who, when, why, before → after); a −30 % CO2-eq target by 2030 against 2020 gives the share
// achieved and the path; a per-tonne target of a facility divides by that facility's coal; another
// company sees none of it. On the in-memory repositories.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import { changeCoefficientAsAdmin } from "../admin/dictionaries";
import type { Actor } from "../context";
import { Conflict, NotFound } from "../errors";
import { getDictionaryItem } from "../reference/dictionaries";
import { addTarget, getTrendSettings, recalculateBaseYear, removeTarget, setBaseYear } from "./targets";
import { wholeYearAnswer } from "./whole-year";
import type { WholeYearRead } from "../../ports";
import { fieldName } from "../../contract/field-names";

let d: MemoryDomain;
let staff: Actor;
let admin: Actor;
let pit: { id: string };
let mine: { id: string };

/** Open-pit coal per year, t; the underground mine mines 500 000 t each year. */
const PIT: Record<number, number> = { 2020: 1_000_000, 2024: 800_000 };
const UNDERGROUND_T = 500_000;
/** CH4, t: coal × EF m³/t × 0,67 kg/m³ / 1000. */
const ch4 = (coal: number, ef: number) => (coal * ef * 0.67) / 1000;

async function year(y: number) {
  const open = await d.project(staff, { name: `Разрез ${y}`, start_date: `${y}-01-01`, end_date: `${y}-12-31`, facility: pit.id });
  await d.calc(staff, "open_mining_ch4", {
    name: `Разрез ${y}`,
    project: open.id,
    volume: PIT[y],
    dictionary_items: { get_open_mining_ch4: 1 },
  });
  const under = await d.project(staff, { name: `Шахта ${y}`, start_date: `${y}-01-01`, end_date: `${y}-12-31`, facility: mine.id });
  await d.calc(staff, "underground_emission_ch4", {
    name: `Шахта ${y}`,
    project: under.id,
    volume: UNDERGROUND_T,
    dictionary_items: { get_underground_emission_ch4: 1 },
  });
}

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  staff = await d.actor("ООО «Цели»");
  admin = await d.actor("Оператор платформы", "admin");
  pit = await d.facility(staff, { name: "Разрез «Цель»", kind: "open_pit" });
  mine = await d.facility(staff, { name: "Шахта «Цель»", kind: "underground_mine" });
  await year(2020);
  await year(2024);
  await d.settled();
}, 60_000);

const version = async () => (await getTrendSettings(d.deps, staff)).version;
/** Underground: 500 000 t × 18 m³/t × 0,67 kg/m³. */
const underground = ch4(UNDERGROUND_T, 18);

describe("the base year and its recalculation", () => {
  it("records the base year's comparable total and offers no recalculation while nothing moved it", async () => {
    const answer = await d.write(async () =>
      setBaseYear(d.deps, staff, { year: 2020, reason: "Первый год с полными данными", version: 0 }),
    );
    expect(answer.base_year).toMatchObject({ year: 2020, reason: "Первый год с полными данными", set_by: staff.email });
    expect(answer.base_year!.t_co2e).toBeCloseTo((ch4(PIT[2020], 1.2) + underground) * 25, 6);
    expect(answer.base_year_check).toMatchObject({ year: 2020, change_pct: 0, recalculation_offered: false });
    expect(answer.significance_pct).toBe(5);
  });

  it("offers the recalculation when a factor change moves it by more than 5 %, and logs the one accepted", async () => {
    const { version: itemVersion } = await getDictionaryItem(d.deps, "get_open_mining_ch4", 1);
    await d.write(() =>
      changeCoefficientAsAdmin(d.deps, admin, "get_open_mining_ch4", 1, {
        field: "ef",
        value: 2.0,
        effective_from: "2025-01-01",
        reason: "Уточненный коэффициент",
        version: itemVersion,
      }),
    );
    const before = (ch4(PIT[2020], 1.2) + underground) * 25;
    const after = (ch4(PIT[2020], 2.0) + underground) * 25;
    const offered = await getTrendSettings(d.deps, staff);
    expect(offered.base_year_check).toEqual({
      year: 2020,
      recorded_t_co2e: expect.closeTo(before, 6),
      comparable_t_co2e: expect.closeTo(after, 6),
      change_pct: expect.closeTo(((after - before) / before) * 100, 6),
      recalculation_offered: true,
    });
    const accepted = await recalculateBaseYear(d.deps, staff, { reason: "Новый коэффициент открытой добычи", version: offered.version });
    expect(accepted.base_year!.t_co2e).toBeCloseTo(after, 6);
    expect(accepted.base_year_check).toMatchObject({ change_pct: 0, recalculation_offered: false });
    const log = await d.deps.repos.adminAudit.listCompany(staff.company, { limit: 10, offset: 0 });
    expect(log.results[0]).toMatchObject({
      action: "trend.base_year.recalculate",
      actor_email: staff.email,
      target_label: "Базовый год 2020",
      before: expect.objectContaining({ t_co2e: expect.closeTo(before, 6) }),
      after: expect.objectContaining({ t_co2e: expect.closeTo(after, 6), reason: "Новый коэффициент открытой добычи" }),
    });
    await expect(recalculateBaseYear(d.deps, staff, { reason: "Еще раз", version: offered.version })).rejects.toBeInstanceOf(Conflict);
  });
});

describe("targets", () => {
  it("gives a −30 % CO2-eq target by 2030 against 2020 its share achieved and its path", async () => {
    const answer = await addTarget(d.deps, staff, {
      name: "Глобальное метановое обязательство",
      gas: "co2e",
      scope: "company",
      kind: "absolute",
      base_year: 2020,
      target_year: 2030,
      percent: 30,
      version: await version(),
    });
    const [target] = answer.targets;
    // Both years at today's factor (2,0) and GWP (25).
    const base = (ch4(PIT[2020], 2.0) + underground) * 25;
    const latest = (ch4(PIT[2024], 2.0) + underground) * 25;
    const path2024 = base - (base * 0.3 * 4) / 10;
    expect(target.progress).toEqual({
      unit: "т CO2-экв.",
      // 2020 is the recorded base year, recalculated above (D46).
      base_recorded: true,
      base_value: expect.closeTo(base, 6),
      target_value: expect.closeTo(base * 0.7, 6),
      path: [
        { year: 2020, value: expect.closeTo(base, 6) },
        { year: 2030, value: expect.closeTo(base * 0.7, 6) },
      ],
      latest_year: 2024,
      latest_value: expect.closeTo(latest, 6),
      path_value: expect.closeTo(path2024, 6),
      share_achieved_pct: expect.closeTo(((base - latest) / (base * 0.3)) * 100, 6),
      on_path: latest <= path2024,
    });
  });

  it("divides a facility's per-tonne target by that facility's coal", async () => {
    const answer = await addTarget(d.deps, staff, {
      name: "Метан на тонну, разрез",
      gas: "CH4",
      scope: "facility",
      facility: pit.id,
      kind: "per_tonne",
      base_year: 2020,
      target_year: 2030,
      percent: 10,
      version: await version(),
    });
    const target = answer.targets.find((t) => t.facility === pit.id)!;
    // The pit's CH4 per t of its own coal: 2,0 × 0,67 / 1000 whatever the year's tonnage.
    expect(target.progress.unit).toBe("т CH4 на т угля");
    expect(target.progress.base_value).toBeCloseTo(ch4(1, 2.0), 12);
    expect(target.progress.latest_value).toBeCloseTo(ch4(1, 2.0), 12);
    expect(target.progress.share_achieved_pct).toBeCloseTo(0, 6);
    expect(target.progress.on_path).toBe(false);
  });

  it("shows another company none of it, and refuses its facility and its targets as not found", async () => {
    const other = await d.actor("ООО «Чужая»");
    const theirs = await getTrendSettings(d.deps, other);
    expect(theirs).toMatchObject({ base_year: null, base_year_check: null, targets: [], version: 0 });
    const body = {
      name: "Чужая площадка",
      gas: "co2e" as const,
      scope: "facility" as const,
      facility: pit.id,
      kind: "absolute" as const,
      base_year: 2020,
      target_year: 2030,
      percent: 30,
      version: 0,
    };
    await expect(addTarget(d.deps, other, body)).rejects.toBeInstanceOf(NotFound);
    const mine = (await getTrendSettings(d.deps, staff)).targets[0];
    await expect(removeTarget(d.deps, other, mine.id, 0)).rejects.toBeInstanceOf(NotFound);
    expect((await getTrendSettings(d.deps, staff)).targets).toHaveLength(2);
  });
});

describe("a target of the recorded base year (D46)", () => {
  it("reads the recorded base until a recalculation is accepted, then the recalculated one", async () => {
    const own = await d.actor("ООО «Базовый год»");
    const field = await d.facility(own, { name: "Разрез «База»", kind: "open_pit" });
    for (const y of [2020, 2024]) {
      const open = await d.project(own, { name: `Разрез ${y}`, start_date: `${y}-01-01`, end_date: `${y}-12-31`, facility: field.id });
      await d.calc(own, "open_mining_ch4", {
        name: `Разрез ${y}`,
        project: open.id,
        volume: PIT[y],
        dictionary_items: { get_open_mining_ch4: 1 },
      });
    }
    await d.settled();
    const ownVersion = async () => (await getTrendSettings(d.deps, own)).version;
    // Recorded at today's factor (2,0, since the test above).
    const recorded = ch4(PIT[2020], 2.0) * 25;
    await d.write(() => setBaseYear(d.deps, own, { year: 2020, reason: "Первый полный год", version: 0 }));
    const body = {
      name: "−20 % к 2030",
      gas: "co2e",
      scope: "company",
      kind: "absolute",
      base_year: 2020,
      target_year: 2030,
      percent: 20,
    } as const;
    await addTarget(d.deps, own, { ...body, version: await ownVersion() });
    // A base year without data is refused.
    await expect(addTarget(d.deps, own, { ...body, base_year: 2019, version: await ownVersion() })).rejects.toThrow(
      `${fieldName("base_year")}: в 2019 году нет учтенных расчетов — базовым может быть год с инвентаризацией`,
    );

    // The administrator's factor of 2026 moves the comparable base; nobody accepted it yet.
    const { version: itemVersion } = await getDictionaryItem(d.deps, "get_open_mining_ch4", 1);
    await d.write(() =>
      changeCoefficientAsAdmin(d.deps, admin, "get_open_mining_ch4", 1, {
        field: "ef",
        value: 3.0,
        effective_from: "2026-01-01",
        reason: "Еще раз уточненный коэффициент",
        version: itemVersion,
      }),
    );
    const moved = ch4(PIT[2020], 3.0) * 25;
    const offered = await getTrendSettings(d.deps, own);
    expect(offered.base_year_check).toMatchObject({ recorded_t_co2e: expect.closeTo(recorded, 6), recalculation_offered: true });
    const [before] = offered.targets;
    expect(before.progress).toMatchObject({
      base_recorded: true,
      base_value: expect.closeTo(recorded, 6),
      target_value: expect.closeTo(recorded * 0.8, 6),
    });
    // The latest year reads today's conditions, the base the recorded ones, until the policy says otherwise.
    expect(before.progress.latest_value).toBeCloseTo(ch4(PIT[2024], 3.0) * 25, 6);

    const accepted = await recalculateBaseYear(d.deps, own, { reason: "Коэффициент 2026 года", version: offered.version });
    const [after] = accepted.targets;
    expect(after.progress).toMatchObject({
      base_recorded: true,
      base_value: expect.closeTo(moved, 6),
      target_value: expect.closeTo(moved * 0.8, 6),
    });
  });
});

describe("a write's answer", () => {
  it("is the trend's settings computed where the host's threads compute them, not on the request thread", async () => {
    const asked: unknown[] = [];
    const computed = { ...(await getTrendSettings(d.deps, staff)), marker: "из потока" };
    const threaded = {
      ...d.deps,
      spreadsheets: {
        ...d.deps.spreadsheets,
        wholeYear: async (_actor: unknown, read: unknown) => {
          asked.push(read);
          return computed;
        },
      },
    };
    const added = await addTarget(threaded, staff, {
      name: "Через поток",
      gas: "co2e",
      scope: "company",
      kind: "absolute",
      base_year: 2020,
      target_year: 2031,
      percent: 10,
      version: await version(),
    });
    expect(added).toBe(computed);
    const removed = await removeTarget(threaded, staff, (await getTrendSettings(d.deps, staff)).targets.at(-1)!.id);
    expect(removed).toBe(computed);
    expect(asked).toEqual([{ read: "trend_settings" }, { read: "trend_settings" }]);
  });
});

describe("the base year's writes", () => {
  it("are taken where the host's threads compute the year's answers: its comparable total is a fold of the year", async () => {
    // 65–190 ms of the request thread at load 17 in the loop budget.
    const asked: unknown[] = [];
    const threaded = {
      ...d.deps,
      spreadsheets: {
        ...d.deps.spreadsheets,
        wholeYear: async (actor: Actor, read: WholeYearRead) => {
          asked.push(read.read);
          return wholeYearAnswer(d.deps, actor, read);
        },
      },
    };
    const set = await setBaseYear(threaded, staff, { year: 2020, reason: "Базовый год через поток", version: await version() });
    expect(set.base_year).toMatchObject({ year: 2020, reason: "Базовый год через поток" });
    const again = await recalculateBaseYear(threaded, staff, { reason: "Пересчет через поток", version: set.version });
    expect(again.base_year).toMatchObject({ year: 2020, reason: "Пересчет через поток" });
    expect(again).toEqual(await getTrendSettings(d.deps, staff));
    expect(asked).toEqual(["base_year", "base_year_recalculation"]);
    // A refusal comes back as the domain's.
    await expect(setBaseYear(threaded, staff, { year: 2020, reason: "Устаревшая версия", version: set.version })).rejects.toThrow(Conflict);
  });
});
