// methodology section 14 (D81–D86): what an underground mine measured against what its
// inventory estimates from its coal. Per mine and year: the gross CH4 of its mining line measured at
// its ventilation shafts and drainage stations (formula 3.1, before the destroyed gas is netted)
// against its estimate of the same line from coal mined (IPCC Tier 1/2, the counted one or the one
// kept «для сравнения»), each with its Approach 1 uncertainty as the year's uncertainty computes it
// (uncertainty.ts `lineUncertaintyOf`), the difference, the verdict, the factor the measurement
// implies and what is known to separate the two. One builder serves the live year and an approved
// version's snapshot (the verification pack's comparison.json, which verify.py recomputes).
import { AGK_MEASUREMENT_FREQUENCY, emissionPointKindInText, type EmissionPointKind } from "@core/inventory";
import { TIER_LABELS, tierOf } from "@core/coefficient-sources";
import { monthPeriod } from "@core/source-periods";
import type { UncertaintyCore } from "@core/uncertainty-core";
import { uncertaintyCore } from "@core/uncertainty-node";
import type { Actor, Deps } from "../context";
import type { CoefficientUse, EmissionPoint, Facility } from "../../ports";
import { approvedLines } from "./approved";
import { getReview } from "./review";
import { lineUncertaintyOf, modelOf } from "./uncertainty";
import type { InventorySnapshot } from "./versions";
import { inventoryWithStored } from "./year";

/** D83: the density the implied factor is read at: the IPCC production types' 0,67 kg/m³ (D2), so it
 *  compares with the estimate's factor like for like. */
export const IMPLIED_FACTOR_DENSITY_KG_M3 = 0.67;
/** D81: the mining line both sides are of. */
export const MINING_LINE = "1.B.1.a.i.1";
/** D81: the measured type (formula 3.1) and the estimate's type (IPCC Eq. 4.1.3 from coal mined). */
const MEASURED_TYPE = "underground";
const ESTIMATE_TYPE = "underground_emission_ch4";
/** D81: the points whose measured gas is the mining line's: the air the shafts exhaust and the gas drained. */
const MEASURED_KINDS: readonly EmissionPointKind[] = ["ventilation_shaft", "drainage_station"];
/** D63: a change of an accepted month's CH4 above this share is «moved» (as the year's check reads it). */
const MOVED_SHARE = 0.001;
/** D93: with fewer months in scope (every shaft and drainage station measured) there is no verdict. [A] */
export const MIN_SCOPE_MONTHS = 9;
/** D93: the reason a part-year gives no verdict. */
export const tooEarly = (months: number) => `судить рано: измерено ${months} из 12 месяцев`;

/** «1 месяц», «3 месяца», «11 месяцев». */
export function monthsWord(n: number): string {
  const [ten, hundred] = [n % 10, n % 100];
  if (ten === 1 && hundred !== 11) return "месяц";
  if (ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14)) return "месяца";
  return "месяцев";
}

/** D82, D84: the rule of the comparison — a test vector of methodology section 14. */
export function compareFigures(input: {
  measured_t: number;
  measured_u_pct: number;
  estimated_t: number;
  estimated_u_pct: number;
  coal_t: number | null;
}) {
  const difference_t = input.measured_t - input.estimated_t;
  // The two are independent: the difference's 95 % half-width is IPCC Eq. 3.2 with a subtracted term.
  const combined_t = Math.hypot((input.measured_u_pct * input.measured_t) / 100, (input.estimated_u_pct * input.estimated_t) / 100);
  return {
    difference_t,
    difference_pct: input.estimated_t !== 0 ? (100 * difference_t) / input.estimated_t : null,
    combined_t,
    consistent: Math.abs(difference_t) <= combined_t,
    implied_ef_m3_per_t: impliedFactor(input.measured_t, input.coal_t),
  };
}

/** D83: m³ CH4 per t of coal that `ch4_t` gives at 0,67 kg/m³: the inverse of Eq. 4.1.3. */
export const impliedFactor = (ch4_t: number, coal_t: number | null) =>
  coal_t !== null && coal_t > 0 ? (ch4_t * 1000) / (coal_t * IMPLIED_FACTOR_DENSITY_KG_M3) : null;

/** A calculation as both the live year and a version's snapshot give it. */
export interface ComparedLine {
  id: string;
  name: string;
  type: string;
  facility: string | null;
  point: string | null;
  counted: boolean;
  inventory_role: "primary" | "alternative";
  ipcc_code: string;
  period: { from: string; to: string };
  gases: ReadonlyArray<{ gas: string; t: number }>;
  netting?: ReadonlyArray<{ gas: string; t: number }>;
  inputs: Record<string, number | string>;
  results: Record<string, unknown>;
  coefficients: Record<string, CoefficientUse>;
}

export type PointOf = Pick<EmissionPoint, "id" | "facility" | "name" | "kind" | "in_service_from" | "in_service_to">;
type MeasuredSource = "agk" | "periods" | "mixed";
/** What an accepted month's evidence says of its minutes (D60, D62). */
export interface MonthMinutes {
  completeness: number;
  valid: number;
  substituted: number;
}

export interface Explanation {
  kind:
    | "month_missing"
    | "substituted"
    | "no_channels"
    | "readings_moved"
    | "drained_balance"
    | "drained_net"
    | "no_estimate"
    | "counted_side"
    | "months_not_ended"
    | "scope"
    | "factor";
  text: string;
  t?: number;
  month?: string;
  point?: string;
  calculation?: string;
}

const ch4Of = (line: Pick<ComparedLine, "gases">) => line.gases.find((g) => g.gas === "CH4")?.t ?? 0;
const nettedOf = (line: Pick<ComparedLine, "netting">) => line.netting?.find((g) => g.gas === "CH4")?.t ?? 0;
const dayMs = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / dayMs) + 1;
const monthKey = (year: number, m: number) => `${year}-${String(m).padStart(2, "0")}`;
export const monthLabel = (month: string) => `${month.slice(5)}.${month.slice(0, 4)}`;
const tonnes = (t: number) => t.toLocaleString("ru-RU", { maximumFractionDigits: 2 });
const percent = (share: number) => (100 * share).toLocaleString("ru-RU", { maximumFractionDigits: 2 });

/** D85: a span's t spread over the months of `year` by days, with the hours it covers in each. */
function byMonths(year: number, from: string, to: string, t: number, hours?: number): Array<{ month: string; t: number; hours: number }> {
  const span = daysBetween(from, to);
  const out: Array<{ month: string; t: number; hours: number }> = [];
  for (let m = 1; m <= 12; m += 1) {
    const { from: mFrom, to: mTo } = monthPeriod(year, m);
    const a = from > mFrom ? from : mFrom;
    const b = to < mTo ? to : mTo;
    if (a > b) continue;
    const share = daysBetween(a, b) / span;
    out.push({ month: monthKey(year, m), t: t * share, hours: (hours ?? span * 24) * share });
  }
  return out;
}

/** D85: a measured calculation's CH4 by month: each measurement period's own result, a calculation
 *  of one volume spread over the days it covers. */
function measuredMonths(year: number, line: ComparedLine) {
  const periods = Array.isArray(line.results?.periods)
    ? (line.results.periods as Array<{ from: string; to: string; res_ch4: number; hours: number }>)
    : undefined;
  if (periods && periods.length > 0) return periods.flatMap((p) => byMonths(year, p.from, p.to, p.res_ch4, p.hours));
  return byMonths(year, line.period.from, line.period.to, ch4Of(line));
}

const isAgk = (line: ComparedLine) => line.inputs?.measurement_frequency === AGK_MEASUREMENT_FREQUENCY;

/** What the builder reads besides the lines: the mine's facilities and points, and for the live year
 *  what the monitoring says of its months (none for a version's snapshot). */
export interface ComparisonSources {
  year: number;
  lines: readonly ComparedLine[];
  facilities: ReadonlyArray<Pick<Facility, "id" | "name" | "kind">>;
  points: readonly PointOf[];
  /** The accepted months' minutes by calculation (D60, D62). */
  minutes?: ReadonlyMap<string, MonthMinutes>;
  /** D63: accepted months whose readings give another figure now. */
  moved?: ReadonlyArray<{ facility: string; point: string; month: string; calculation: string; ch4_t: number; now_ch4_t: number }>;
  /** the shafts and drainage stations without their own channels for a month, with what each
   *  lacks in words («метана», …), as «Данные АГК» names it (listPointChannels). */
  lacking?: ReadonlyMap<string, readonly string[]>;
  /** D93: today (yyyy-MM-dd) for the live year: a month not yet ended is never missing nor compared.
   *  Absent (a version's snapshot): every month of the year has ended. */
  today?: string;
}

/** The comparison of every underground mine of the lines (D81–D86). */
export function compareMines(core: UncertaintyCore, sources: ComparisonSources) {
  return sources.facilities
    .filter((f) => f.kind === "underground_mine")
    .map((facility) => compareMine(core, sources, facility))
    .filter((row) => row.measured.calculations.length > 0 || row.estimated !== null);
}

/** Approach 1 of the calculations' CH4 as one gross line, % (the year's computation, D27). */
function approach1(core: UncertaintyCore, lines: readonly ComparedLine[]): number {
  const { ad_u, ef_u } = lineUncertaintyOf(
    core,
    lines.map((line) => ({
      facility: line.facility,
      gas: "CH4" as const,
      gross_t_co2e: ch4Of(line),
      subtracted_t_co2e: 0,
      model: modelOf({ ...line, results: line.results ?? {}, coefficients: line.coefficients ?? {} }),
    })),
    () => 0,
  );
  return core.product([ad_u, ef_u]);
}

function compareMine(core: UncertaintyCore, sources: ComparisonSources, facility: Pick<Facility, "id" | "name" | "kind">) {
  const { year } = sources;
  const points = sources.points.filter((p) => p.facility === facility.id && MEASURED_KINDS.includes(p.kind as EmissionPointKind));
  const pointIds = new Set(points.map((p) => p.id));
  const own = sources.lines.filter((l) => l.facility === facility.id && l.ipcc_code === MINING_LINE);
  const measured = own.filter((l) => l.type === MEASURED_TYPE && l.counted && l.point !== null && pointIds.has(l.point));
  const counted = own.filter((l) => l.type === ESTIMATE_TYPE && l.counted);
  const alternatives = own.filter((l) => l.type === ESTIMATE_TYPE && l.inventory_role === "alternative");
  // A primary estimate the year leaves out beside the measured months (a duplicate of them, D43) is
  // still the mine's estimate from its coal: compared all the same, and the row says the measurement counts.
  const standing = own.filter((l) => l.type === ESTIMATE_TYPE && !l.counted && l.inventory_role === "primary");
  const estimates = counted.length > 0 ? counted : alternatives.length > 0 ? alternatives : standing;
  const role = counted.length > 0 ? ("counted" as const) : alternatives.length > 0 ? ("alternative" as const) : ("not_counted" as const);
  const pointName = new Map(points.map((p) => [p.id, p.name]));

  // Per month and point: t, hours measured and where the figure came from.
  type Cell = { t: number; hours: number; agk: boolean; other: boolean; minutes?: MonthMinutes };
  const cells = new Map<string, Map<string, Cell>>();
  for (const line of measured) {
    for (const part of measuredMonths(year, line)) {
      const byPoint = cells.get(part.month) ?? cells.set(part.month, new Map()).get(part.month)!;
      const cell = byPoint.get(line.point!) ?? byPoint.set(line.point!, { t: 0, hours: 0, agk: false, other: false }).get(line.point!)!;
      cell.t += part.t;
      cell.hours += part.hours;
      if (isAgk(line)) {
        cell.agk = true;
        cell.minutes = sources.minutes?.get(line.id) ?? cell.minutes;
      } else cell.other = true;
    }
  }
  const sourceOf = (c: { agk: boolean; other: boolean }): MeasuredSource => (c.agk && c.other ? "mixed" : c.agk ? "agk" : "periods");
  const months = Array.from({ length: 12 }, (_, i) => {
    const month = monthKey(year, i + 1);
    const { from, to } = monthPeriod(year, i + 1);
    const monthHours = daysBetween(from, to) * 24;
    const byPoint = [...(cells.get(month) ?? new Map<string, Cell>()).entries()].map(([point, c]) => ({
      point,
      point_name: pointName.get(point) ?? "",
      ch4_t: c.t,
      source: sourceOf(c),
      // D62 for a month accepted from the АГК; else the hours its periods cover in the month.
      completeness: c.minutes ? c.minutes.completeness : Math.min(1, c.hours / monthHours),
    }));
    if (byPoint.length === 0) return { month, ch4_t: null, source: null, completeness: null, points: [] };
    const any = { agk: byPoint.some((p) => p.source !== "periods"), other: byPoint.some((p) => p.source !== "agk") };
    return {
      month,
      ch4_t: byPoint.reduce((s, p) => s + p.ch4_t, 0),
      source: sourceOf(any),
      completeness: Math.min(...byPoint.map((p) => p.completeness)),
      points: byPoint,
    };
  });
  const measuredT = measured.reduce((s, l) => s + ch4Of(l), 0);

  // D93: the months compared are the ended ones in which every shaft and drainage station in service
  // has a measurement; a month not yet ended is neither missing nor compared.
  const ended = (m: number) => sources.today === undefined || monthPeriod(year, m).to < sources.today;
  const serving = (m: number) => {
    const { from, to } = monthPeriod(year, m);
    return points.filter((p) => !(p.in_service_from && p.in_service_from > to) && !(p.in_service_to && p.in_service_to < from));
  };
  const scopeMonths = months
    .filter((row, i) => {
      const own = serving(i + 1);
      return ended(i + 1) && own.length > 0 && own.every((p) => row.points.some((q) => q.point === p.id));
    })
    .map((row) => row.month);
  const inScope = new Set(scopeMonths);
  // The hours of the year its points in service were measured, over theirs (a month's completeness).
  let [pointHours, measuredHours] = [0, 0];
  months.forEach((row, i) => {
    const { from, to } = monthPeriod(year, i + 1);
    const monthHours = daysBetween(from, to) * 24;
    for (const p of serving(i + 1)) {
      pointHours += monthHours;
      measuredHours += monthHours * Math.min(1, row.points.find((q) => q.point === p.id)?.completeness ?? 0);
    }
  });
  const measuredSide = {
    ch4_t: measuredT,
    u_pct: measured.length > 0 ? approach1(core, measured) : 0,
    calculations: measured.map((l) => l.id),
    coverage: { months: scopeMonths.length, hours_pct: pointHours > 0 ? (100 * measuredHours) / pointHours : 0 },
    months,
  };

  const estimateT = estimates.reduce((s, l) => s + ch4Of(l), 0);
  const coal = estimates.reduce((s, l) => s + Number(l.inputs?.volume ?? 0), 0);
  const coal_t = estimates.length > 0 ? coal : null;
  const first = estimates[0];
  const efUse = first?.coefficients?.ef;
  const estimated = first
    ? {
        ch4_t: estimateT,
        u_pct: approach1(core, estimates),
        method: `МГЭИК 2006, т. 2, гл. 4.1, уравнение 4.1.3: ${efUse ? TIER_LABELS[tierOf(first.type, "ef", efUse.source)] : TIER_LABELS[1]}`,
        // D83: one factor, or the coal-weighted mean of several estimates' factors.
        ef:
          coal > 0
            ? estimates.reduce((s, l) => s + Number(l.coefficients?.ef?.value ?? 0) * Number(l.inputs?.volume ?? 0), 0) / coal
            : null,
        role,
        calculations: estimates.map((l) => l.id),
        ...estimateMonths(year, estimates),
      }
    : null;
  // D93: the whole year where every month is in scope (the figures as D81 sums them), else the
  // measured months against the estimate's share of them (D85: by coal, else by days) and their coal.
  const scope = scopeMonths.length === 12 ? ("year" as const) : ("measured_months" as const);
  const compared =
    estimated && measured.length > 0 && scopeMonths.length > 0
      ? scope === "year"
        ? { months: scopeMonths, measured_ch4_t: measuredT, estimated_ch4_t: estimateT, coal_t }
        : {
            months: scopeMonths,
            measured_ch4_t: months.filter((m) => inScope.has(m.month)).reduce((sum, m) => sum + (m.ch4_t ?? 0), 0),
            estimated_ch4_t: estimated.months.filter((m) => inScope.has(m.month)).reduce((sum, m) => sum + m.ch4_t, 0),
            coal_t: estimates
              .flatMap((l) => byMonths(year, l.period.from, l.period.to, Number(l.inputs?.volume ?? 0)))
              .filter((part) => inScope.has(part.month))
              .reduce((sum, part) => sum + part.t, 0),
          }
      : null;
  const verdict = compared
    ? compareFigures({
        measured_t: compared.measured_ch4_t,
        measured_u_pct: measuredSide.u_pct,
        estimated_t: compared.estimated_ch4_t,
        estimated_u_pct: estimated!.u_pct,
        coal_t: compared.coal_t,
      })
    : null;
  const judged = scopeMonths.length >= MIN_SCOPE_MONTHS;
  const row = {
    facility: facility.id,
    facility_name: facility.name,
    measured: measuredSide,
    estimated,
    coal_t,
    scope,
    compared,
    difference_t: verdict?.difference_t ?? null,
    difference_pct: verdict?.difference_pct ?? null,
    combined_t: verdict?.combined_t ?? null,
    // D93: never a verdict from missing data.
    consistent: judged ? (verdict?.consistent ?? null) : null,
    verdict_reason: estimated && measured.length > 0 && !judged ? tooEarly(scopeMonths.length) : null,
    // D93: the factor of the compared months' coal; none where no month compares.
    implied_ef_m3_per_t: verdict ? verdict.implied_ef_m3_per_t : measured.length === 0 ? impliedFactor(measuredT, coal_t) : null,
    density_kg_m3: IMPLIED_FACTOR_DENSITY_KG_M3,
  };
  const explanations = explanationsOf(sources, facility.id, points, measured, months, cells, estimated === null, ended, {
    role: estimated?.role ?? null,
    measured_counted: measured.length > 0,
    estimate_names: estimates.map((l) => l.name),
    ...row,
    estimate_ef: estimated?.ef ?? null,
    monthly_basis: estimated?.monthly_basis ?? null,
  });
  return { ...row, explanations, explanation_totals: totalsOf(explanations) };
}

/** D85: the estimate's monthly share: each estimate that covers one month is that month's (coal mined
 *  in the month known), else every estimate is spread over the days it covers. */
function estimateMonths(year: number, estimates: readonly ComparedLine[]) {
  const monthly = estimates.every((l) => l.period.from.slice(0, 7) === l.period.to.slice(0, 7));
  const sums = new Map<string, number>();
  for (const line of estimates) {
    for (const part of byMonths(year, line.period.from, line.period.to, ch4Of(line)))
      sums.set(part.month, (sums.get(part.month) ?? 0) + part.t);
  }
  return {
    monthly_basis: monthly && estimates.length > 1 ? ("coal" as const) : ("days" as const),
    months: Array.from({ length: 12 }, (_, i) => ({ month: monthKey(year, i + 1), ch4_t: sums.get(monthKey(year, i + 1)) ?? 0 })),
  };
}

/** D86: what is known to separate the two figures, each with the t it carries where it has one. */
function explanationsOf(
  sources: ComparisonSources,
  facility: string,
  points: readonly PointOf[],
  measured: readonly ComparedLine[],
  months: ReadonlyArray<{ month: string; points: ReadonlyArray<{ point: string }> }>,
  cells: ReadonlyMap<string, ReadonlyMap<string, { t: number; hours: number; minutes?: MonthMinutes }>>,
  noEstimate: boolean,
  ended: (month: number) => boolean,
  verdict: VerdictOf,
): Explanation[] {
  const { year } = sources;
  const out: Explanation[] = [];
  if (noEstimate) out.push({ kind: "no_estimate", text: "Нет оценки по добыче угля (уравнение 4.1.3): сравнивать не с чем" });
  if (verdict.role === "not_counted" && verdict.measured_counted) {
    const names = verdict.estimate_names.map((name) => `«${name}»`).join(", ");
    out.push({
      kind: "counted_side",
      text:
        `В итоге года учтено измерение: оценка по добыче угля ${names} стоит рядом с измеренными месяцами и не учтена ` +
        "(дубликат измерения, D43) — сравнение с ней сделано все равно",
    });
  }
  out.push(...scopeExplanations(year, verdict, ended));
  for (const point of points) {
    // The point's year measured: its t over the days its months cover (D86: «the year's measured rate»).
    let t = 0;
    let hours = 0;
    for (const byPoint of cells.values()) {
      const cell = byPoint.get(point.id);
      if (cell) [t, hours] = [t + cell.t, hours + cell.hours];
    }
    const rate = hours > 0 ? t / hours : null;
    for (const { month, points: measuredHere } of months) {
      const { from, to } = monthPeriod(year, Number(month.slice(5)));
      // A month the point was out of service is no gap, nor one not yet ended (D93).
      if ((point.in_service_from && point.in_service_from > to) || (point.in_service_to && point.in_service_to < from)) continue;
      if (!ended(Number(month.slice(5)))) continue;
      if (measuredHere.some((p) => p.point === point.id)) continue;
      const carry = rate === null ? undefined : rate * daysBetween(from, to) * 24;
      out.push({
        kind: "month_missing",
        text:
          `«${point.name}», ${monthLabel(month)}: нет измерения или месяц не принят` +
          (carry === undefined ? "" : ` — при измеренном за год темпе источника ≈ ${tonnes(carry)} т CH4`),
        ...(carry === undefined ? {} : { t: carry }),
        month,
        point: point.id,
      });
    }
  }
  // D60: the share of the accepted months' minutes that were substituted, and the t resting on them.
  let [valid, substituted, onSubstituted] = [0, 0, 0];
  for (const byPoint of cells.values()) {
    for (const cell of byPoint.values()) {
      if (!cell.minutes) continue;
      const { valid: v, substituted: s } = cell.minutes;
      [valid, substituted] = [valid + v, substituted + s];
      if (v + s > 0) onSubstituted += (cell.t * s) / (v + s);
    }
  }
  if (substituted > 0) {
    out.push({
      kind: "substituted",
      text:
        `Замещенные минуты (D60): ${substituted.toLocaleString("ru-RU")} из ${(valid + substituted).toLocaleString("ru-RU")} минут ` +
        `принятых месяцев АГК (${percent(substituted / (valid + substituted))} %), на них приходится ≈ ${tonnes(onSubstituted)} т CH4`,
      t: onSubstituted,
    });
  }
  for (const point of points) {
    const lacks = sources.lacking?.get(point.id);
    if (!lacks || lacks.length === 0) continue;
    out.push({
      kind: "no_channels",
      text:
        `«${point.name}», ${emissionPointKindInText(point.kind as EmissionPointKind)}: нет своего канала АГК ` +
        `${lacks.join(" и ")} — его месяцы не измеряются непрерывно`,
      point: point.id,
    });
  }
  const names = new Map(points.map((p) => [p.id, p.name]));
  for (const moved of (sources.moved ?? []).filter((m) => m.facility === facility && m.month.startsWith(`${year}-`))) {
    if (Math.abs(moved.now_ch4_t - moved.ch4_t) <= MOVED_SHARE * Math.abs(moved.ch4_t)) continue;
    out.push({
      kind: "readings_moved",
      text:
        `«${names.get(moved.point) ?? "источник"}», ${monthLabel(moved.month)}: показания АГК изменились после принятия — ` +
        `принято ${tonnes(moved.ch4_t)} т CH4, по показаниям сейчас ${tonnes(moved.now_ch4_t)} т`,
      t: moved.now_ch4_t - moved.ch4_t,
      month: moved.month,
      point: moved.point,
      calculation: moved.calculation,
    });
  }
  // D17, D35: the drained gas measured against what the balance sent from it to destruction.
  for (const point of points.filter((p) => p.kind === "drainage_station")) {
    const lines = measured.filter((l) => l.point === point.id);
    if (lines.length === 0) continue;
    const drained = lines.reduce((s, l) => s + ch4Of(l), 0);
    const net = lines.filter((l) => l.inputs?.basis === "net");
    if (net.length > 0) {
      out.push({
        kind: "drained_net",
        text: `«${point.name}»: дегазация измерена как чистый выброс (без сожженного газа) — сожженный метан в измеренной сумме не учтен, а в оценке по углю учтен`,
        point: point.id,
      });
      continue;
    }
    const sent = lines.reduce((s, l) => s + nettedOf(l), 0);
    out.push({
      kind: "drained_balance",
      text:
        `«${point.name}»: измерено ${tonnes(drained)} т CH4 каптированного газа, из них по балансу метана направлено на сжигание ` +
        `${tonnes(sent)} т — сравнивается валовый выброс, до вычета сожженного`,
      t: sent,
      point: point.id,
    });
  }
  return out;
}

export type MineComparison = ReturnType<typeof compareMines>[number];

/** What the scope's explanations read of a mine's row. */
interface VerdictOf {
  /** D81: which estimate is compared: the counted one, the one kept «для сравнения», or a primary one the
   *  year leaves out beside the measured months (`not_counted`). */
  role: "counted" | "alternative" | "not_counted" | null;
  measured_counted: boolean;
  estimate_names: readonly string[];
  scope: "year" | "measured_months";
  compared: { months: readonly string[]; measured_ch4_t: number; estimated_ch4_t: number; coal_t: number | null } | null;
  difference_t: number | null;
  difference_pct: number | null;
  consistent: boolean | null;
  implied_ef_m3_per_t: number | null;
  estimate_ef: number | null;
  monthly_basis: "coal" | "days" | null;
}

const signed = (t: number, digits = 2) =>
  `${t > 0 ? "+" : t < 0 ? "−" : ""}${Math.abs(t).toLocaleString("ru-RU", { maximumFractionDigits: digits })}`;
const factor = (ef: number) => ef.toLocaleString("ru-RU", { maximumFractionDigits: 1 });

/** D93: the months not yet ended, what a part-year compares and, for a whole year that diverges,
 *  what the difference rests on once no month is missing: the factor. */
function scopeExplanations(year: number, v: VerdictOf, ended: (month: number) => boolean): Explanation[] {
  const out: Explanation[] = [];
  const pending = Array.from({ length: 12 }, (_, i) => i + 1).filter((m) => !ended(m));
  if (pending.length > 0) {
    const first = monthLabel(monthKey(year, pending[0]));
    const last = monthLabel(monthKey(year, pending[pending.length - 1]));
    out.push({
      kind: "months_not_ended",
      text:
        `${pending.length === 1 ? `Месяц ${first} еще не закончился` : `Месяцы ${first}–${last} еще не закончились`} — ` +
        "это не пропуск измерений, в сравнение они не входят",
    });
  }
  if (!v.compared) return out;
  if (v.scope === "measured_months") {
    const n = v.compared.months.length;
    out.push({
      kind: "scope",
      text:
        `Сравниваемые месяцы — ${n} из 12, в которых измерены все источники: измерено ${tonnes(v.compared.measured_ch4_t)} т CH4 ` +
        `против доли оценки за те же месяцы ${tonnes(v.compared.estimated_ch4_t)} т (${v.monthly_basis === "coal" ? "по добыче угля месяцев" : "по дням"})`,
      t: v.compared.measured_ch4_t - v.compared.estimated_ch4_t,
    });
  }
  if (v.consistent === false && v.implied_ef_m3_per_t !== null && v.estimate_ef !== null && v.difference_t !== null) {
    const months =
      v.scope === "year"
        ? "за все 12 месяцев, измеренных на всех источниках"
        : `за ${v.compared.months.length} ${monthsWord(v.compared.months.length)}, измеренных на всех источниках`;
    out.push({
      kind: "factor",
      text:
        `Разница ${signed(v.difference_t)} т CH4 (${signed(v.difference_pct ?? 0, 1)} %) ${months}: пропусков в сравниваемых месяцах нет, ` +
        `и ее объясняет коэффициент — измеренный метан соответствует ≈ ${factor(v.implied_ef_m3_per_t)} м³ на тонну угля против ` +
        `${factor(v.estimate_ef)} м³/т оценки; газоносность шахты ${v.implied_ef_m3_per_t < v.estimate_ef ? "ниже" : "выше"} принятого в оценке значения`,
      t: v.difference_t,
    });
  }
  return out;
}

/** The explanations' totals per kind, before their lines: how many and the t they carry. */
function totalsOf(explanations: readonly Explanation[]) {
  const byKind = new Map<Explanation["kind"], { count: number; t: number; known: number }>();
  for (const e of explanations) {
    const k = byKind.get(e.kind) ?? byKind.set(e.kind, { count: 0, t: 0, known: 0 }).get(e.kind)!;
    k.count += 1;
    if (e.t !== undefined) [k.t, k.known] = [k.t + e.t, k.known + 1];
  }
  const label: Partial<Record<Explanation["kind"], (n: number) => string>> = {
    month_missing: (n) => `не измерено или не принято: ${n} ${monthsWord(n)}`,
    no_channels: (n) => `без своих каналов АГК: ${n} ${n === 1 ? "источник" : n < 5 ? "источника" : "источников"}`,
    readings_moved: (n) => `показания изменились после принятия: ${n} ${monthsWord(n)}`,
  };
  return [...byKind.entries()]
    .filter(([kind]) => label[kind])
    .map(([kind, { count, t, known }]) => ({
      kind,
      count,
      ...(known > 0 ? { t } : {}),
      text: label[kind]!(count) + (known > 0 ? `, ≈ ${tonnes(t)} т CH4` : ""),
    }));
}

/** The lines the year compares (D40: an approved year its version's; else the live calculations with
 *  what they were computed from) and the approved version, if any. */
export async function yearLines(
  deps: Deps,
  actor: Actor,
  year: number,
  facility: string | undefined,
): Promise<{ lines: ComparedLine[]; approved_version: number | null }> {
  const review = await getReview(deps, actor.company, year);
  const approved = await approvedLines(deps, review, facility);
  if (approved) return { lines: approved as unknown as ComparedLine[], approved_version: review.snapshot?.version ?? null };
  const { inventory, stored } = await inventoryWithStored(deps, actor, year, facility);
  const byId = new Map(stored.map((c) => [c.id, c]));
  const lines = inventory.calculations.flatMap((row) => {
    const calc = byId.get(row.id);
    return calc ? [{ ...row, inputs: calc.inputs, results: calc.results, coefficients: calc.coefficients }] : [];
  });
  return { lines, approved_version: null };
}

/** The comparison of an approved version, from its snapshot alone (D39: the pack's comparison.json is
 *  a function of the version): its lines, facilities and points as approved, no monitoring state. */
export function snapshotComparison(snapshot: Pick<InventorySnapshot, "year" | "version" | "inventory" | "legal_entity">) {
  const entity = snapshot.legal_entity;
  return {
    year: snapshot.year,
    version: snapshot.version,
    facilities: compareMines(uncertaintyCore(), {
      year: snapshot.year,
      lines: snapshot.inventory.calculations as unknown as ComparedLine[],
      facilities: entity?.facilities ?? [],
      points: (entity?.points ?? []) as PointOf[],
    }),
  };
}

/** D86: the one line the report passport prints of the comparison, per mine. */
export function agreementLine(mines: ReadonlyArray<MineComparison>): string {
  const compared = mines.filter((m) => m.consistent !== null || m.verdict_reason !== null);
  if (compared.length === 0) return "Сравнивать не с чем: нет шахты с измеренным выбросом и оценкой по добыче угля";
  return compared
    .map((m) => {
      // D93: a part-year without enough months says so, never «расходятся».
      if (m.consistent === null) return `«${m.facility_name}»: ${m.verdict_reason}`;
      const sign = (m.difference_t ?? 0) > 0 ? "+" : "";
      const verdict = m.consistent ? "измерение и оценка согласуются" : "измерение и оценка расходятся больше их неопределенности";
      // D93: a part-year judged (9 months or more) states the months compared and their figures, of which
      // the difference is; the year's measured total beside the whole year's estimate would not give it.
      const figures =
        m.scope === "measured_months" && m.compared
          ? `за ${m.compared.months.length} из 12 месяцев, измеренных на всех источниках, измерено ${tonnes(m.compared.measured_ch4_t)} т CH4, ` +
            `доля оценки за них ${tonnes(m.compared.estimated_ch4_t)} т`
          : `измерено ${tonnes(m.measured.ch4_t)} т CH4, оценка ${tonnes(m.estimated!.ch4_t)} т`;
      return (
        `«${m.facility_name}»: ${verdict} — ${figures}, ` +
        `разница ${sign}${tonnes(m.difference_t!)} т (${sign}${(m.difference_pct ?? 0).toLocaleString("ru-RU", { maximumFractionDigits: 1 })} %), ` +
        `допустимо ±${tonnes(m.combined_t!)} т`
      );
    })
    .join("; ");
}
