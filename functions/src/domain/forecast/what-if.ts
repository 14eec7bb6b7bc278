// What-if and the air needed (docs/api.md, «What-if and the air needed»): one row of a longwall's
// readings forecast again along one feature, with the calibrated interval and the chance of
// reaching the limit, and the least air flow x1 in the calibration's observed range whose upper
// bound stays below the limit. The core does both (wasm-core/src/gbdt/what-if.ts), the same code
// the browser runs as the user types; this is the API's door to it.
import { AIR_FEATURE, airNeeded, horizonLabel, whatIf, type IntervalLevel } from "@core/gbdt";
import { FORECAST_FEATURES, REGISTRY, type NumberField } from "@core/registry";
import { formatNumber } from "./russian-numbers";
import type { ForecastModelVersion } from "../../ports";
import type { Actor, Deps } from "../context";
import { DomainError, Invalid } from "../errors";
import { featureRow, forecastSettings } from "./forecast";
import { calibrationFor, calibrationSummary, modelById } from "./calibration";
import { runnableModel } from "./models";

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
  if (typeof value !== "string" || value === "") throw new Invalid("model: укажите версию модели (id)");
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
    throw new Invalid(
      `model: расчет «что если» и потребного воздуха делается по модели текущего момента (без горизонта), а эта прогнозирует на ${horizonLabel(version.horizon ?? 0)} вперед`,
    );
  }
}

export async function forecastWhatIf(deps: Deps, actor: Actor, body: Record<string, unknown>) {
  const version = await modelById(deps, modelId(body.model), actor.company);
  nowcastOnly(version);
  const row = featureRow(body.row, "row");
  const vary = body.vary as Record<string, unknown> | undefined;
  if (typeof vary !== "object" || vary === null) throw new Invalid("vary: укажите признак (feature), from, to и steps");
  const feature = vary.feature;
  if (typeof feature !== "string" || !(FORECAST_FEATURES as readonly string[]).includes(feature)) {
    throw new Invalid(`vary.feature: один из признаков ${FORECAST_FEATURES.join(", ")}`);
  }
  const column = COLUMNS.get(feature)!;
  const bound = (name: "from" | "to") => {
    const value = vary[name];
    if (typeof value !== "number" || !Number.isFinite(value)) throw new Invalid(`vary.${name}: ожидается число`);
    if (value < column.min || (column.max !== undefined && value > column.max)) {
      throw new Invalid(`vary.${name}: ${column.label} от ${column.min} до ${column.max} ${column.unit}`);
    }
    return value;
  };
  const steps = vary.steps ?? 20;
  const { level, limit } = settingsOf(body);
  const calibration = (await calibrationFor(deps, actor.company, version)) ?? null;
  const model = await runnableModel(deps, version);
  let points;
  try {
    points = whatIf(model, row, { feature, from: bound("from"), to: bound("to"), steps: steps as number }, calibration, level, limit);
  } catch (error) {
    if (error instanceof RangeError) throw new Invalid(`vary.${error.message}`);
    throw error;
  }
  return { model: modelOf(version), calibration: calibrationSummary(calibration ?? undefined), level, limit, feature, points };
}

export async function forecastAirNeeded(deps: Deps, actor: Actor, body: Record<string, unknown>) {
  const version = await modelById(deps, modelId(body.model), actor.company);
  nowcastOnly(version);
  const row = featureRow(body.row, "row");
  const { level, limit } = settingsOf(body);
  const calibration = await calibrationFor(deps, actor.company, version);
  if (!calibration) {
    throw new DomainError(
      409,
      "Модель не откалибрована: без интервала расход воздуха не подобрать. Загрузите историю с фактической концентрацией",
    );
  }
  const column = COLUMNS.get(AIR_FEATURE)!;
  const range = calibration.ranges[AIR_FEATURE];
  if (!range) throw new DomainError(409, `В калибровке нет значений признака «${column.label}»: откалибруйте модель заново`);
  const answer = airNeeded(await runnableModel(deps, version), row, calibration, level as IntervalLevel, limit);
  const flow = (v: number) => formatNumber(v, 0);
  const detail = answer.reachable
    ? `Верхняя граница ${level}-процентного интервала ниже ${formatNumber(limit, 2)} % при расходе воздуха не меньше ${flow(answer.value)} ${column.unit}`
    : `недостижимо в диапазоне ${flow(range[0])}–${flow(range[1])} ${column.unit}: даже при ${flow(range[1])} ${column.unit} верхняя граница ${formatNumber(answer.at.hi ?? Number.NaN, 2)} %`;
  return {
    model: modelOf(version),
    calibration: calibrationSummary(calibration),
    level,
    limit,
    feature: AIR_FEATURE,
    reachable: answer.reachable,
    x1: answer.value,
    range: answer.range,
    at: answer.at,
    below: answer.below,
    detail,
  };
}
