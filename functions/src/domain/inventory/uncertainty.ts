// The year's uncertainty and key categories by IPCC line and gas (D26, D27; docs/methodology.md,
// Uncertainty): the inventory's netted lines at the year's GWP set, each with the activity-data and
// factor uncertainties of its gross figure (Eq. 3.2 over its counted calculations, each gas of a
// calculation by Eq. 3.1 over its inputs as it recorded them) and the destroyed gas the facility-
// years' netting takes off it with the uncertainty of the flares', boilers' and engines' own
// measurements of it (methodology 10.1); then the core's one computation of the
// Approach 1 table, key categories and a seeded Monte Carlo run (year-uncertainty.ts, which the
// `npm run inventory -- uncertainty` command runs on the same lines).
import {
  DEFAULT_SEED,
  DEFAULT_TRIALS,
  DESTROYED_GAS_SOURCE,
  DESTROYED_GAS_UNCERTAINTY,
  calculationModel,
  destroyedGasUncertainty,
  gasApproach1,
  type CalculationModel,
  type ModelInput,
  type UsedValue,
} from "@core/calculation-uncertainty";
import { co2Equivalent } from "@core/gwp-in-force";
import { burnsDrainedGas, type Gas } from "@core/inventory";
import type { UncertaintyCore } from "@core/uncertainty-core";
import { uncertaintyCore } from "@core/uncertainty-node";
import { linesReport, type LineInput } from "@core/year-uncertainty";
import { LIMITS } from "../../contract/schemas/limits";
import type { Actor, Deps } from "../context";
import { invalidAt } from "../errors";
import type { StoredCalculation } from "../../ports";
import { getInventory, inventoryWithStored } from "./year";

/** A stored calculation as a sum of products of its uncertain inputs, as it recorded them. */
export function modelOf(
  calculation: Pick<StoredCalculation, "id" | "type" | "name" | "results" | "coefficients"> & { point?: string | null },
): CalculationModel | undefined {
  return calculationModel({
    id: calculation.id,
    type: calculation.type,
    name: calculation.name,
    results: calculation.results,
    coefficients: calculation.coefficients as Record<string, UsedValue>,
    // D91: the months measured at one point share its instruments.
    point: calculation.point ?? null,
  });
}

/** The Monte Carlo run of the year's total: fixed, so the answer is reproducible. */
export const YEAR_MONTE_CARLO = { trials: DEFAULT_TRIALS, seed: DEFAULT_SEED } as const;

const lineId = (line: { category: number; ipcc_code: string; gas: string }) => `${line.category}|${line.ipcc_code}|${line.gas}`;
const hypotOf = (values: readonly number[]) => Math.hypot(...values);

/** D27, methodology 10.1: what the destroyed gas of each facility-year is uncertain by, per gas: the
 *  measurements of its counted flares, boilers and engines (`destroyedGasUncertainty`). */
export function destroyedUncertaintyOf(
  core: UncertaintyCore,
  devices: ReadonlyArray<{ readonly facility: string | null; readonly calculation: StoredCalculation }>,
): (facility: string | null, gas: Gas) => number {
  const byFacility = new Map<string | null, StoredCalculation[]>();
  for (const { facility, calculation } of devices) {
    if (!burnsDrainedGas(calculation.type)) continue;
    (byFacility.get(facility) ?? byFacility.set(facility, []).get(facility)!).push(calculation);
  }
  const known = new Map(
    [...byFacility.entries()].map(([facility, own]) => [
      facility,
      destroyedGasUncertainty(
        core,
        own.map((calculation) => ({ calculation, model: modelOf(calculation) })),
      ),
    ]),
  );
  return (facility, gas) => known.get(facility)?.[gas] ?? DESTROYED_GAS_UNCERTAINTY.upper_pct;
}

/** One gas of a counted calculation on a line, as the line's uncertainty reads it. */
export interface CountedGas {
  readonly facility: string | null;
  readonly gas: Gas;
  readonly gross_t_co2e: number;
  /** What the facility-year's netting takes off it (D26). */
  readonly subtracted_t_co2e: number;
  readonly model: CalculationModel | undefined;
  /** D91: the name of the emission point it measures, to name its instruments' group. */
  readonly point_name?: string;
  /** The facility the point is of, in words («шахты «Северная»»): two mines' «Ствол 1» are told apart. */
  readonly facility_words?: string;
}

/** D91: a source of error several calculations of a line share, as the year's screen names it. */
export interface SharedSource {
  /** `factor`: one dictionary entry (or company factor) at one version; `instruments`: one point's meters. */
  kind: "factor" | "instruments";
  label: string;
  /** The calculations that share it. */
  count: number;
  /** Their gross figure, t CO2-eq, and the group's uncertainty (%), its terms added linearly. */
  t_co2e: number;
  u_pct: number;
}

/** The facility a point is of, as a shared source's label says it: «шахты «Северная»» (the kind's word
 *  and the name), or the name alone where it starts with its kind's word («Шахта «Северная»»). */
export function facilityWords(facility: { name: string; kind?: string } | undefined): string | undefined {
  if (!facility) return undefined;
  if (/^(шахта|разрез|фабрика)(\s|$)/iu.test(facility.name)) return facility.name;
  const word = facility.kind === "underground_mine" ? "шахты" : facility.kind === "open_pit" ? "разреза" : "площадки";
  return `${word} «${facility.name}»`;
}

const percentText = (value: number) => value.toLocaleString("ru-RU", { maximumFractionDigits: 2 });
/** A justification as a label quotes it: at most LIMITS.text.sharedSourceQuote characters. */
const QUOTE = LIMITS.text.sharedSourceQuote;
const quoted = (text: string) => (text.length > QUOTE ? `${text.slice(0, QUOTE - 1)}…` : text);

/** How a group is named: a point's instruments by the point and its mine, a dictionary entry by its
 *  name, a value typed as the mine's own (D107) by the value, its uncertainty and justification. */
function sharedLabel(
  inputs: readonly ModelInput[],
  pointName: string | undefined,
  facility: string | undefined,
): { kind: SharedSource["kind"]; label: string } {
  const atPoint = inputs.filter((input) => input.share.startsWith("point/"));
  const entries = inputs.filter((input) => input.entry);
  const typed = inputs.filter((input) => input.typed);
  const lower = (label: string) => label.charAt(0).toLowerCase() + label.slice(1);
  const fields = (list: readonly ModelInput[]) => [...new Set(list.map((input) => lower(input.label)))].join(", ");
  const parts = [
    ...(atPoint.length > 0 ? [`приборы точки «${pointName ?? "без названия"}»${facility ? ` ${facility}` : ""} (${fields(atPoint)})`] : []),
    ...[...new Set(entries.map((input) => input.entry!))].map(
      (entry) => `«${entry}» (${fields(entries.filter((input) => input.entry === entry))})`,
    ),
    ...typed.map((input) => {
      const { lower_pct, upper_pct } = input.uncertainty;
      const band = lower_pct === upper_pct ? `±${percentText(upper_pct)} %` : `−${percentText(lower_pct)}/+${percentText(upper_pct)} %`;
      const why = input.typed!.justification
        ? `обоснование «${quoted(input.typed!.justification)}»`
        : `подтверждение «${input.typed!.evidence}»`;
      return `введенное значение: ${lower(input.label)} ${percentText(input.value)} ${input.unit} ${band}, ${why}`;
    }),
  ];
  return { kind: atPoint.length > 0 ? "instruments" : "factor", label: parts.join("; ") };
}

/** D27, D91: one netted line's uncertainties from the counted calculations on it: its gross figure's
 *  activity-data and factor uncertainties (each gas by Eq. 3.1 over its inputs as recorded; the
 *  calculations by Eq. 3.2 over their sources of error: a factor or one point's instruments shared
 *  by several adds linearly, `SharedSource`), and the destroyed gas each facility-year takes off it
 *  with what that facility's own measurements of it give, the facilities metered apart (Eq. 3.2).
 *  The year's page, a project's page and the comparison compute by it, so one netted figure has one
 *  uncertainty. */
export function lineUncertaintyOf(
  core: UncertaintyCore,
  gases: readonly CountedGas[],
  destroyedU: (facility: string | null, gas: Gas) => number,
): Omit<LineInput, "id" | "base" | "current"> & { gross: number; without: number; shared: SharedSource[] } {
  let gross = 0;
  let without = 0;
  const x: number[] = [];
  const ad: number[] = [];
  const ef: number[] = [];
  const adGroups: string[] = [];
  const efGroups: string[] = [];
  const destroyedOf = new Map<string | null, { gas: Gas; t: number }>();
  const groups = new Map<
    string,
    { inputs: readonly ModelInput[]; point?: string; facility?: string; ids: Set<string>; t: number; ux: number }
  >();
  const join = (key: string, inputs: readonly ModelInput[], own: CountedGas, u: number) => {
    const group =
      groups.get(key) ??
      groups.set(key, { inputs, point: own.point_name, facility: own.facility_words, ids: new Set(), t: 0, ux: 0 }).get(key)!;
    group.ids.add(own.model!.id);
    group.t += own.gross_t_co2e;
    group.ux += u * own.gross_t_co2e;
  };
  gases.forEach((own, i) => {
    const u = own.model ? gasApproach1(core, own.model, own.gas) : undefined;
    if (!u || (u.ad_u === 0 && u.ef_u === 0)) without += 1;
    gross += own.gross_t_co2e;
    x.push(own.gross_t_co2e);
    ad.push(u?.ad_u ?? 0);
    ef.push(u?.ef_u ?? 0);
    adGroups.push(u?.ad_group ?? `${i}/ad`);
    efGroups.push(u?.ef_group ?? `${i}/ef`);
    if (u && u.ad_u > 0) join(`ad:${u.ad_group}`, u.ad_inputs, own, u.ad_u);
    if (u && u.ef_u > 0) join(`ef:${u.ef_group}`, u.ef_inputs, own, u.ef_u);
    if (own.subtracted_t_co2e > 0) {
      const into = destroyedOf.get(own.facility) ?? destroyedOf.set(own.facility, { gas: own.gas, t: 0 }).get(own.facility)!;
      into.t += own.subtracted_t_co2e;
    }
  });
  const parts = [...destroyedOf.entries()];
  const destroyed = parts.reduce((sum, [, { t }]) => sum + t, 0);
  const shared = [...groups.values()]
    .filter((group) => group.ids.size > 1 && group.t > 0)
    .map(
      (group): SharedSource => ({
        ...sharedLabel(group.inputs, group.point, group.facility),
        count: group.ids.size,
        t_co2e: group.t,
        u_pct: group.ux / group.t,
      }),
    )
    .sort((a, b) => b.t_co2e * b.u_pct - a.t_co2e * a.u_pct);
  return {
    gross,
    without,
    shared,
    // D91: the core's Eq. 3.2 over the sources of error, each group's terms added linearly.
    ad_u: gross > 0 ? core.groupedSum(x, ad, adGroups) : 0,
    ef_u: gross > 0 ? core.groupedSum(x, ef, efGroups) : 0,
    ...(destroyed > 0
      ? { destroyed, destroyed_u: hypotOf(parts.map(([facility, { gas, t }]) => t * destroyedU(facility, gas))) / destroyed }
      : {}),
  };
}

export async function yearUncertainty(deps: Deps, actor: Actor, year: number, facilityId?: string, baseYear?: number) {
  if (baseYear !== undefined && baseYear >= year) throw invalidAt("base", "базовый год должен быть раньше отчетного");
  const [{ inventory, stored }, base, points, facilities] = await Promise.all([
    inventoryWithStored(deps, actor, year, facilityId),
    baseYear === undefined ? undefined : getInventory(deps, actor, baseYear, facilityId),
    deps.repos.emissionPoints.listOfCompany(actor.company),
    deps.repos.facilities.list(actor.company),
  ]);
  // D91: a point's instruments are named by the point and its mine (two mines may each have a «Ствол 1»).
  const pointName = new Map(points.map((p) => [p.id, p.name]));
  const facilityOf = new Map(facilities.map((f) => [f.id, f]));
  const pointFacility = new Map(points.map((p) => [p.id, facilityWords(facilityOf.get(p.facility))]));
  const core = uncertaintyCore();
  const gwpCh4 = inventory.gwp.gwp_ch4;
  const byId = new Map(stored.map((calculation) => [calculation.id, calculation]));
  const models = new Map(stored.map((calculation) => [calculation.id, modelOf(calculation)]));
  const counted = inventory.calculations.filter((row) => row.counted);
  const destroyedU = destroyedUncertaintyOf(
    core,
    counted.flatMap((row) => (byId.has(row.id) ? [{ facility: row.facility, calculation: byId.get(row.id)! }] : [])),
  );
  // The base year at this year's GWP set, so the trend compares like with like.
  const baseOf = new Map((base?.categories ?? []).map((line) => [lineId(line), { line, t_co2e: co2Equivalent(line.gas, line.t, gwpCh4) }]));
  const lines = inventory.categories.map((line): { line: typeof line; input: LineInput; without: number; shared: SharedSource[] } => {
    const id = lineId(line);
    const gases = counted.flatMap((row): CountedGas[] => {
      if (lineId({ category: row.category, ipcc_code: row.ipcc_code, gas: line.gas }) !== id) return [];
      const own = row.gases.find((g) => g.gas === line.gas);
      if (!own) return [];
      return [
        {
          facility: row.facility,
          gas: line.gas,
          gross_t_co2e: own.t_co2e,
          subtracted_t_co2e: row.netting?.find((g) => g.gas === line.gas)?.t_co2e ?? 0,
          model: models.get(row.id),
          point_name: pointName.get(byId.get(row.id)?.point ?? ""),
          facility_words: pointFacility.get(byId.get(row.id)?.point ?? ""),
        },
      ];
    });
    const { gross: _gross, without, shared, ...u } = lineUncertaintyOf(core, gases, destroyedU);
    return { line, input: { id, base: baseOf.get(id)?.t_co2e ?? 0, current: line.t_co2e, ...u }, without, shared };
  });
  // Lines of the base year that this year no longer has count in the trend with nothing now.
  const gone = [...baseOf.entries()]
    .filter(([id]) => !lines.some((l) => l.input.id === id))
    .map(([id, { line, t_co2e }]): (typeof lines)[number] => ({
      line: { ...line, t: 0, t_co2e: 0, count: 0, calculations: [] },
      input: { id, base: t_co2e, current: 0, ad_u: 0, ef_u: 0 },
      without: 0,
      shared: [],
    }));
  const all = [...lines, ...gone];
  const total = inventory.total_t_co2e;
  const baseTotal = all.reduce((sum, l) => sum + l.input.base, 0);
  const withTrend = base !== undefined && baseTotal !== 0;
  const inputs = all.map((l) => (withTrend ? l.input : { ...l.input, base: l.input.current }));
  // the Monte Carlo run off the request thread where the host can.
  const report =
    inputs.length > 0 && total !== 0
      ? await (deps.yearMath ? deps.yearMath.linesReport(inputs, YEAR_MONTE_CARLO) : linesReport(core, inputs, YEAR_MONTE_CARLO))
      : undefined;
  const g = new Map(report?.rows.map((row) => [row.id, row.G]));
  const interval = (value: number, u_pct: number) => {
    const half = (Math.abs(value) * u_pct) / 100;
    return { u_pct, lower: value - half, upper: value + half };
  };
  return {
    year,
    facility: facilityId ?? null,
    base_year: baseYear ?? null,
    gwp: inventory.gwp,
    ...(inventory.approved ? { approved_version: inventory.approved.version } : {}),
    lines: all.map(({ line, input, without, shared }) => ({
      id: input.id,
      category: line.category,
      category_label: line.category_label,
      ipcc_code: line.ipcc_code,
      ipcc_label: line.ipcc_label,
      gas: line.gas,
      count: line.count,
      without_uncertainty: without,
      t_co2e: input.current,
      gross_t_co2e: input.current + (input.destroyed ?? 0),
      destroyed_t_co2e: input.destroyed ?? 0,
      ad_u: input.ad_u,
      ef_u: input.ef_u,
      destroyed_u: input.destroyed_u ?? 0,
      shared_sources: shared,
      ...interval(input.current, g.get(input.id) ?? 0),
      base_t_co2e: withTrend ? input.base : null,
    })),
    destroyed_source: DESTROYED_GAS_SOURCE,
    total: { t_co2e: total, ...interval(total, report?.level_pct ?? 0) },
    monte_carlo: report?.monte_carlo ? { ...YEAR_MONTE_CARLO, ...report.monte_carlo } : null,
    key_level: (report?.kca_level ?? []).map(({ id, L, cumulative, key }) => ({ id, share: L, cumulative, key })),
    key_level_approach2: (report?.kca_level_approach2 ?? []).map(({ id, LU, cumulative, key }) => ({ id, share: LU, cumulative, key })),
    trend:
      withTrend && report
        ? {
            base_year: baseYear!,
            base_t_co2e: baseTotal,
            trend_pct: report.trend_pct,
            trend_uncertainty_pp: report.trend_uncertainty_pp,
            key_trend: report.kca_trend.map(({ id, share, cumulative, key }) => ({ id, share, cumulative, key })),
          }
        : null,
  };
}
