// What-if and the air needed (docs/api.md, «What-if and the air needed»): one row of a longwall's
// readings forecast again along one feature, with the calibrated interval and the chance of
// reaching the limit, and the least air flow x1 in the calibration's observed range whose upper
// bound stays below the limit. The core does both (wasm-core/src/gbdt/what-if.ts), the same code
// the browser runs as the user types; this is the API's door to it.
import {
  AIR_FEATURE,
  airFormula,
  airRecommendation,
  type airNeeded,
  halfWidth,
  horizonLabel,
  OUTSIDE_TRAINING,
  outsideTraining,
  type IntervalLevel,
} from "@core/gbdt";
import { FORECAST_FEATURES, REGISTRY, type NumberField } from "@core/registry";
import { formatNumber } from "./russian-numbers";
import type { ForecastModelVersion } from "../../ports";
import type { Actor, Deps } from "../context";
import { Conflict, Invalid, invalidAt } from "../errors";
import { featureRow, forecastSettings } from "./forecast";
import { calibrationFor, calibrationSummary, modelById } from "./calibration";
import { modelScoring } from "./scoring";
import { namedValues } from "./named-features";

const COLUMNS = new Map(
  ((REGISTRY.regres_methane.inputs.find((f) => f.name === "data") as { columns: readonly NumberField[] }).columns ?? []).map((c) => [
    c.name,
    c,
  ]),
);

/** The model as a user is told of it: its library, version and description, never a file name. */
const modelOf = (version: ForecastModelVersion) => ({
  id: version.id,
  method: version.method,
  version: version.version,
  library: version.library,
  library_version: version.library_version,
  description: version.description,
});

function modelId(value: unknown): string {
  if (typeof value !== "string" || value === "") throw invalidAt("model", "укажите версию модели (id)");
  return value;
}

/** The settings of a what-if or air-needed request: `level` (or `confidence`, %) and `limit` (%);
 *  no warning level (checked against the limit by forecastSettings, so given as the limit). */
function settingsOf(body: Record<string, unknown>) {
  const limit = body.limit;
  return forecastSettings({
    level: body.level ?? body.confidence,
    limit,
    warning: typeof limit === "number" && limit > 0 ? limit : undefined,
  });
}

/** What-if and the air needed vary one row's readings: a model that looks ahead also reads the
 *  measured y of the last hour, which one row does not carry. */
function nowcastOnly(version: { horizon?: number }) {
  if ((version.horizon ?? 0) > 0) {
    throw invalidAt(
      "model",
      `расчет «что если» и потребного воздуха делается по модели текущего момента (без горизонта), а эта прогнозирует на ${horizonLabel(version.horizon ?? 0)} вперед`,
    );
  }
}

/** One row's readings as sent, with the model's named features (a row without one
 *  is refused, naming it); a row with none of x1 … x15 is refused (nothing to forecast from). */
function readingsRow(raw: unknown, version: Pick<ForecastModelVersion, "features">) {
  const row = featureRow(raw, "row");
  if (FORECAST_FEATURES.every((f) => row[f] === null)) {
    throw invalidAt("row", "в строке нет ни одного показания датчиков: прогнозировать не из чего");
  }
  const named = namedValues(raw as Record<string, unknown>, version.features ?? [], (_, message) => invalidAt("row", message));
  return { ...row, ...named } as Record<string, number | null> & typeof row;
}

/** A non-negative number of the body (absent: undefined), named `where`. */
function optionalNumber(value: unknown, where: string, max?: number): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (max !== undefined && value > max)) {
    throw invalidAt(where, `ожидается неотрицательное число${max !== undefined ? ` не больше ${max}` : ""}`);
  }
  return value;
}

/** The user's range of air flow (`range: [from, to]`, m³/min), checked. */
function airRange(value: unknown): [number, number] | undefined {
  if (value === undefined || value === null) return undefined;
  const column = COLUMNS.get(AIR_FEATURE)!;
  if (!Array.isArray(value) || value.length !== 2) throw invalidAt("range", "ожидается [от, до] в м³/мин");
  const [from, to] = value.map((v, i) => optionalNumber(v, `range[${i}]`, column.max));
  if (from === undefined || to === undefined || from >= to) throw invalidAt("range", "нужно «от» меньше «до», м³/мин");
  return [from, to];
}

export async function forecastWhatIf(deps: Deps, actor: Actor, body: Record<string, unknown>) {
  const version = await modelById(deps, modelId(body.model), actor.company);
  nowcastOnly(version);
  const row = readingsRow(body.row, version);
  const vary = body.vary as Record<string, unknown> | undefined;
  if (typeof vary !== "object" || vary === null) throw invalidAt("vary", "укажите признак (feature), from, to и steps");
  const feature = vary.feature;
  if (typeof feature !== "string" || !(FORECAST_FEATURES as readonly string[]).includes(feature)) {
    throw invalidAt("vary.feature", `один из признаков ${FORECAST_FEATURES.join(", ")}`);
  }
  const column = COLUMNS.get(feature)!;
  const bound = (name: "from" | "to") => {
    const value = vary[name];
    if (typeof value !== "number" || !Number.isFinite(value)) throw invalidAt(`vary.${name}`, `ожидается число`);
    if (value < column.min || (column.max !== undefined && value > column.max)) {
      throw invalidAt(`vary.${name}`, `${column.label} от ${column.min} до ${column.max} ${column.unit}`);
    }
    return value;
  };
  const steps = vary.steps ?? 20;
  const { level, limit } = settingsOf(body);
  const calibration = (await calibrationFor(deps, actor.company, version)) ?? null;
  let points;
  try {
    points = await modelScoring(deps).score(version, {
      op: "what_if",
      args: [row, { feature, from: bound("from"), to: bound("to"), steps: steps as number }, calibration, level, limit],
    });
  } catch (error) {
    if (error instanceof RangeError) throw new Invalid(`vary.${error.message}`);
    throw error;
  }
  return { model: modelOf(version), calibration: calibrationSummary(calibration ?? undefined), level, limit, feature, points };
}

/** The points of the model's what-if along the air flow over `range`, each outside the training
 *  (calibration) range flagged «вне данных обучения». */
const WHAT_IF_STEPS = 20;

export async function forecastAirNeeded(deps: Deps, actor: Actor, body: Record<string, unknown>) {
  const version = await modelById(deps, modelId(body.model), actor.company);
  nowcastOnly(version);
  const row = readingsRow(body.row, version);
  const raw = body.row as Record<string, unknown>;
  const measured = optionalNumber(raw.y, "row.y", 100);
  const inflow = optionalNumber(body.inflow, "inflow");
  const intake = optionalNumber(body.intake, "intake", 100) ?? 0;
  const asked = airRange(body.range);
  const { level, limit } = settingsOf(body);
  const calibration = await calibrationFor(deps, actor.company, version);
  if (!calibration) {
    throw new Conflict(
      "Модель не откалибрована: без интервала запас по расходу воздуха не определить. Загрузите историю с фактической концентрацией",
    );
  }
  const column = COLUMNS.get(AIR_FEATURE)!;
  const observed = calibration.ranges[AIR_FEATURE];
  if (!observed) throw new Conflict(`В калибровке нет значений признака «${column.label}»: откалибруйте модель заново`);
  const scoring = modelScoring(deps);
  const columns = [...FORECAST_FEATURES, ...(version.features ?? [])];
  const flow = (v: number) => formatNumber(v, 0);
  // The formula: the row's measured concentration, else the model's forecast for it.
  const [forecast] = await scoring.score(version, {
    op: "predict",
    args: [[columns.map((f) => row[f] ?? Number.NaN)], columns],
  });
  let formula: ReturnType<typeof airFormula>;
  try {
    formula = airFormula({
      inflow,
      concentration: measured ?? forecast,
      airFlow: row.x1,
      intake,
      limit,
      halfWidth: halfWidth(calibration, level as IntervalLevel) ?? 0,
    });
  } catch (error) {
    if (error instanceof RangeError) throw invalidAt("row", error.message);
    throw error;
  }
  const range = asked ?? observed;
  // The model's what-if over the user's range, flagged where it leaves the data it learned from.
  const values = Array.from({ length: WHAT_IF_STEPS + 1 }, (_, i) => range[0] + ((range[1] - range[0]) * i) / WHAT_IF_STEPS);
  const points = (
    await scoring.score(version, {
      op: "what_if",
      args: [row, { feature: AIR_FEATURE, from: range[0], to: range[1], steps: WHAT_IF_STEPS }, calibration, level as IntervalLevel, limit],
    })
  ).map((point, i) => ({ ...point, outside: outsideTraining(calibration, AIR_FEATURE, values[i]) }));
  let answer: ReturnType<typeof airNeeded> | undefined;
  try {
    answer = await scoring.score(version, { op: "air_needed", args: [row, calibration, level as IntervalLevel, limit, asked] });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const within: [number, number] = answer?.range ?? range;
  // Never less than the formula with its margin: the model's figure raises it, never lowers it.
  const recommended = airRecommendation(formula, answer);
  const formulaText =
    `по формуле Q = 100·q / (C_пред − C_вх): приток метана ` +
    `${formatNumber(formula.inflow, 2)} м³/мин${formula.inflow_source === "measured" ? " (измеренный)" : ` (${formatNumber(formula.concentration ?? 0, 2)} % × x1 / 100)`}, ` +
    `запас ${formatNumber(formula.margin, 2)} м³/мин по ${level}-процентному интервалу, C_вх ${formatNumber(intake, 2)} %`;
  const recommendation =
    formula.needed === null || recommended.value === null
      ? `недостижимо: в поступающем воздухе ${formatNumber(intake, 2)} % CH4, не ниже предела ${formatNumber(limit, 2)} %`
      : (recommended.source === "model"
          ? `Нужно не меньше ${flow(recommended.value)} ${column.unit} по модели: верхняя граница ${level}-процентного интервала ниже предела только с этого расхода; ${flow(formula.needed)} ${column.unit} ${formulaText}`
          : `Нужно не меньше ${flow(recommended.value)} ${column.unit} ${formulaText}`) +
        (recommended.value > range[1] ? `; больше верхней границы диапазона ${flow(range[1])} ${column.unit}` : "");
  const detail = !answer
    ? `модель не применима: диапазон ${flow(range[0])}–${flow(range[1])} ${column.unit} целиком ${OUTSIDE_TRAINING} (${flow(observed[0])}–${flow(observed[1])} ${column.unit})`
    : answer.reachable
      ? recommended.model_below_formula
        ? `По модели верхняя граница ${level}-процентного интервала ниже ${formatNumber(limit, 2)} % уже при ${flow(answer.value)} ${column.unit}, меньше, чем по формуле: это не нижняя граница, нужен расход по формуле`
        : `Верхняя граница ${level}-процентного интервала ниже ${formatNumber(limit, 2)} % при расходе воздуха не меньше ${flow(answer.value)} ${column.unit}`
      : `недостижимо в диапазоне ${flow(within[0])}–${flow(within[1])} ${column.unit}: даже при ${flow(within[1])} ${column.unit} верхняя граница ${formatNumber(answer.at.hi ?? Number.NaN, 2)} %`;
  return {
    model: modelOf(version),
    calibration: calibrationSummary(calibration),
    level,
    limit,
    feature: AIR_FEATURE,
    recommended: recommended.value,
    recommended_by: recommended.source,
    model_below_formula: recommended.model_below_formula,
    recommendation,
    formula,
    what_if: points,
    outside_label: OUTSIDE_TRAINING,
    reachable: answer?.reachable ?? false,
    x1: answer?.value ?? null,
    range: within,
    at: answer?.at ?? null,
    below: answer?.below ?? null,
    detail,
  };
}
