// The company's base year and reduction targets (docs/methodology.md, «Базовый год и его пересчет»;
// docs/user-guide.md, «Динамика»). The base year keeps its comparable total as set; when a method,
// factor or facility change moves that total under today's conditions by more than the significance
// threshold (default 5 %, GHG Protocol's base-year recalculation policy), the trend offers the
// recalculation, and accepting it is logged as the company's change (who, when, why, before → after).
// A target's progress is read from the same comparable figures: the base year's value, the target
// value, the latest year's share of the way and the straight-line path between them.
import type * as z from "zod";
import type { trendSettingsAnswerSchema, trendTargetSchema } from "../../contract/schemas/answers";
import { recordChange } from "../audit";
import type { Actor, Deps } from "../context";
import { Conflict, Invalid, invalidAt, NotFound } from "../errors";
import { newId } from "../ids";
import { REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "../reference/gwp-years";
import { oneDictionaryCheck } from "../reference/dictionaries";
import type { TrendSettings } from "../../ports";
import { trendYears, type TrendYear } from "./trend";
import { inventoryTotalsByYear } from "./year";
import { LIMITS } from "../../contract/schemas/limits";

export const DEFAULT_SIGNIFICANCE_PCT = 5;
export const TARGETS_MAX = LIMITS.inventory.targets;

export type TrendTarget = z.output<typeof trendTargetSchema>;
export type TrendSettingsAnswer = z.output<typeof trendSettingsAnswerSchema>;

const round = (value: number) => Math.round(value * 1e9) / 1e9;

/** The conditions the base year and the targets are read at: today's reporting year's. */
const conditionsYear = (deps: Deps) => Math.min(REPORTING_YEAR_MAX, deps.clock.now().getUTCFullYear());

async function storedSettings(deps: Deps, company: string): Promise<TrendSettings> {
  return (
    (await deps.repos.trendSettings.get(company)) ?? {
      company,
      base_year: null,
      significance_pct: DEFAULT_SIGNIFICANCE_PCT,
      targets: [],
      version: 0,
    }
  );
}

function checkVersion(settings: TrendSettings, version: number) {
  if (settings.version !== version) {
    throw new Conflict("Настройки динамики уже изменены другим пользователем. Обновите страницу и повторите.");
  }
}

async function save(deps: Deps, settings: TrendSettings, change: Partial<TrendSettings>): Promise<TrendSettings> {
  const next = { ...settings, ...change, version: settings.version + 1, updated_at: deps.clock.now().toISOString() };
  await deps.repos.trendSettings.put(next, settings.version);
  return next;
}

function checkYear(year: number, field: string) {
  if (!Number.isInteger(year) || year < REPORTING_YEAR_MIN || year > REPORTING_YEAR_MAX) {
    throw invalidAt(field, `укажите год от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`);
  }
}

/** The year's comparable total (of the company) under today's conditions, or undefined without data. */
async function comparableTotal(deps: Deps, actor: Actor, year: number): Promise<{ t_co2e: number; conditions_year: number } | undefined> {
  const known = (await inventoryTotalsByYear(deps, actor)).some((t) => t.year === year);
  if (!known) return undefined;
  const { conditions, years } = await trendYears(deps, actor, [year], conditionsYear(deps));
  return { t_co2e: years[0].comparable.total_t_co2e, conditions_year: conditions.year };
}

const baseYearLabel = (year: number) => `Базовый год ${year}`;

export async function setBaseYear(
  deps: Deps,
  actor: Actor,
  body: { year: number; reason: string; version: number },
): Promise<TrendSettingsAnswer> {
  const threads = deps.spreadsheets.wholeYear;
  if (threads) return (await threads(actor, { read: "base_year", body })) as TrendSettingsAnswer;
  return setBaseYearHere(deps, actor, body);
}

/** the base year's writes compute its comparable total, a fold of the year (65–190 ms
 *  of the request thread at load 17 in the loop budget): taken in the host's threads where the year's
 *  answers are (whole-year.ts), here where it has none, the answer computed in place. */
export async function setBaseYearHere(
  deps: Deps,
  actor: Actor,
  body: { year: number; reason: string; version: number },
): Promise<TrendSettingsAnswer> {
  deps = oneDictionaryCheck(deps);
  checkYear(body.year, "year");
  const settings = await storedSettings(deps, actor.company);
  checkVersion(settings, body.version);
  const total = await comparableTotal(deps, actor, body.year);
  if (!total) throw invalidAt("year", `в ${body.year} году нет учтенных расчетов — базовым может быть год с инвентаризацией`);
  const base_year = { year: body.year, reason: body.reason.trim(), ...total, set_at: deps.clock.now().toISOString(), set_by: actor.email };
  const next = await save(deps, settings, { base_year });
  await logBaseYear(deps, actor, "trend.base_year.set", settings.base_year, base_year);
  return answerOf(deps, actor, next);
}

/** Accepts the recalculated base year: its total under today's conditions, logged with the reason. */
export async function recalculateBaseYear(
  deps: Deps,
  actor: Actor,
  body: { reason: string; version: number },
): Promise<TrendSettingsAnswer> {
  const threads = deps.spreadsheets.wholeYear;
  if (threads) return (await threads(actor, { read: "base_year_recalculation", body })) as TrendSettingsAnswer;
  return recalculateBaseYearHere(deps, actor, body);
}

/** The recalculation here, in this thread (as setBaseYearHere). */
export async function recalculateBaseYearHere(
  deps: Deps,
  actor: Actor,
  body: { reason: string; version: number },
): Promise<TrendSettingsAnswer> {
  deps = oneDictionaryCheck(deps);
  const settings = await storedSettings(deps, actor.company);
  checkVersion(settings, body.version);
  const before = settings.base_year;
  if (!before) throw new Invalid("Базовый год не задан: сначала укажите его");
  const total = await comparableTotal(deps, actor, before.year);
  if (!total) throw new Invalid(`В ${before.year} году больше нет учтенных расчетов: выберите другой базовый год`);
  const base_year = { ...before, ...total, reason: body.reason.trim(), set_at: deps.clock.now().toISOString(), set_by: actor.email };
  const next = await save(deps, settings, { base_year });
  await logBaseYear(deps, actor, "trend.base_year.recalculate", before, base_year);
  return answerOf(deps, actor, next);
}

async function logBaseYear(
  deps: Deps,
  actor: Actor,
  action: string,
  before: TrendSettings["base_year"],
  after: NonNullable<TrendSettings["base_year"]>,
) {
  await recordChange(
    deps,
    actor,
    { action, target_type: "base_year", target_id: String(after.year), target_label: baseYearLabel(after.year), before, after },
    actor.company,
  );
}

export async function setSignificance(
  deps: Deps,
  actor: Actor,
  body: { significance_pct: number; version: number },
): Promise<TrendSettingsAnswer> {
  const settings = await storedSettings(deps, actor.company);
  checkVersion(settings, body.version);
  return answerAfterWrite(deps, actor, await save(deps, settings, { significance_pct: body.significance_pct }));
}

export async function addTarget(
  deps: Deps,
  actor: Actor,
  body: Omit<TrendTarget, "id" | "created_at" | "created_by" | "facility"> & { facility?: string | null; version: number },
): Promise<TrendSettingsAnswer> {
  checkYear(body.base_year, "base_year");
  checkYear(body.target_year, "target_year");
  if (body.target_year <= body.base_year) throw invalidAt("target_year", "год цели должен быть позже базового года");
  const facility = body.scope === "facility" ? (body.facility ?? null) : null;
  if (body.scope === "facility" && !facility) throw invalidAt("facility", "выберите площадку цели");
  if (facility && !(await deps.repos.facilities.get(actor.company, facility))) throw new NotFound("Площадка не найдена");
  // a target is measured against a year with an inventory.
  if (!(await inventoryTotalsByYear(deps, actor)).some((t) => t.year === body.base_year)) {
    throw invalidAt("base_year", `в ${body.base_year} году нет учтенных расчетов — базовым может быть год с инвентаризацией`);
  }
  const settings = await storedSettings(deps, actor.company);
  checkVersion(settings, body.version);
  if (settings.targets.length >= TARGETS_MAX) throw new Invalid(`Не более ${TARGETS_MAX} целей: удалите ненужную`);
  const target: TrendTarget = {
    id: newId(),
    name: body.name.trim(),
    gas: body.gas,
    scope: body.scope,
    facility,
    kind: body.kind,
    base_year: body.base_year,
    target_year: body.target_year,
    percent: body.percent,
    created_at: deps.clock.now().toISOString(),
    created_by: actor.email,
  };
  return answerAfterWrite(deps, actor, await save(deps, settings, { targets: [...settings.targets, target] }));
}

/** Deletes a target; `version`, when sent, must be the settings' version read. */
export async function removeTarget(deps: Deps, actor: Actor, id: string, version?: number): Promise<TrendSettingsAnswer> {
  const settings = await storedSettings(deps, actor.company);
  if (!settings.targets.some((t) => t.id === id)) throw new NotFound("Цель не найдена");
  if (version !== undefined) checkVersion(settings, version);
  return answerAfterWrite(deps, actor, await save(deps, settings, { targets: settings.targets.filter((t) => t.id !== id) }));
}

export async function getTrendSettings(deps: Deps, actor: Actor): Promise<TrendSettingsAnswer> {
  return answerOf(oneDictionaryCheck(deps), actor, await storedSettings(deps, actor.company));
}

/** A write's answer: the settings as stored, with the base year's check and each target's progress —
 *  a fold of every year with an inventory, so computed where the host's threads compute the trend's
 *  settings (the local host's spreadsheet threads, as GET v1/inventory/trend/settings/ is), off the
 *  request thread (a target's removal held it 459 ms at load 10), else here. */
async function answerAfterWrite(deps: Deps, actor: Actor, settings: TrendSettings): Promise<TrendSettingsAnswer> {
  const threads = deps.spreadsheets.wholeYear;
  if (threads) return (await threads(actor, { read: "trend_settings" })) as TrendSettingsAnswer;
  return answerOf(deps, actor, settings);
}

/** The settings with the base year's check and each target's progress, all under today's conditions. */
async function answerOf(deps: Deps, actor: Actor, settings: TrendSettings): Promise<TrendSettingsAnswer> {
  const { company: _company, ...shown } = settings;
  const known = (await inventoryTotalsByYear(deps, actor)).map((t) => t.year);
  const read = new Map<string, Promise<TrendYear[]>>();
  // Each scope's years read once per conditions for the base year's check and every target.
  const yearsOf = (facility: string | null, conditions = conditionsYear(deps)) => {
    const key = `${facility ?? ""}|${conditions}`;
    if (!read.has(key)) {
      read.set(
        key,
        trendYears(deps, actor, known, conditions, facility ?? undefined).then((r) => r.years),
      );
    }
    return read.get(key)!;
  };
  /** D46: a target of the recorded base year reads that year as recorded until a
   *  recalculation is accepted — the company's CO2-eq its recorded total, any other figure under
   *  the conditions it was recorded at — and the recalculated one after. */
  const recordedBaseOf = async (target: TrendTarget): Promise<number | undefined> => {
    const recorded = settings.base_year;
    if (!recorded || recorded.year !== target.base_year) return undefined;
    if (target.gas === "co2e" && target.kind === "absolute" && target.scope === "company") return round(recorded.t_co2e);
    const year = (await yearsOf(target.facility, recorded.conditions_year)).find((y) => y.year === target.base_year);
    return year && figureOf(target, year);
  };
  let base_year_check: TrendSettingsAnswer["base_year_check"] = null;
  if (settings.base_year) {
    const now = (await yearsOf(null)).find((y) => y.year === settings.base_year!.year)?.comparable.total_t_co2e;
    const recorded = settings.base_year.t_co2e;
    const change_pct = now === undefined || recorded === 0 ? undefined : round(((now - recorded) / recorded) * 100);
    base_year_check = {
      year: settings.base_year.year,
      recorded_t_co2e: recorded,
      ...(now !== undefined ? { comparable_t_co2e: now } : {}),
      ...(change_pct !== undefined ? { change_pct } : {}),
      recalculation_offered: change_pct !== undefined && Math.abs(change_pct) > settings.significance_pct,
    };
  }
  const targets = [];
  for (const target of settings.targets) {
    targets.push({ ...target, progress: progressOf(target, await yearsOf(target.facility), await recordedBaseOf(target)) });
  }
  return { ...shown, base_year_check, targets };
}

/** The scope's figure of the year the target is about: t CO2-eq or t of the gas, per t of coal when asked. */
function figureOf(target: TrendTarget, year: TrendYear): number | undefined {
  const figure =
    target.gas === "co2e"
      ? year.comparable.total_t_co2e
      : year.comparable.lines.filter((l) => l.gas === target.gas).reduce((sum, l) => sum + l.t, 0);
  if (target.kind === "absolute") return round(figure);
  return year.coal.total_t ? figure / year.coal.total_t : undefined;
}

function progressOf(target: TrendTarget, years: TrendYear[], recordedBase?: number): TrendSettingsAnswer["targets"][number]["progress"] {
  const base = years.find((y) => y.year === target.base_year);
  const baseValue = recordedBase ?? (base && figureOf(target, base));
  if (baseValue === undefined) {
    return { note: `Нет данных за базовый ${target.base_year} год${target.kind === "per_tonne" ? " (выбросы и добыча угля)" : ""}` };
  }
  const targetValue = round(baseValue * (1 - target.percent / 100));
  const path = (year: number) =>
    round(baseValue + ((targetValue - baseValue) * (year - target.base_year)) / (target.target_year - target.base_year));
  const latest = years
    .filter((y) => y.year > target.base_year && y.year <= target.target_year)
    .map((y) => ({ year: y.year, value: figureOf(target, y) }))
    .filter((y): y is { year: number; value: number } => y.value !== undefined)
    .at(-1);
  const unit = `${target.gas === "co2e" ? "т CO2-экв." : `т ${target.gas}`}${target.kind === "per_tonne" ? " на т угля" : ""}`;
  return {
    unit,
    ...(recordedBase !== undefined ? { base_recorded: true } : {}),
    base_value: baseValue,
    target_value: targetValue,
    path: [
      { year: target.base_year, value: baseValue },
      { year: target.target_year, value: targetValue },
    ],
    ...(latest
      ? {
          latest_year: latest.year,
          // One precision with the base: figureOf rounds an absolute figure, a per-tonne one is as computed.
          latest_value: latest.value,
          path_value: path(latest.year),
          share_achieved_pct: baseValue === targetValue ? 100 : round(((baseValue - latest.value) / (baseValue - targetValue)) * 100),
          on_path: latest.value <= path(latest.year),
        }
      : {}),
  };
}
