// The calibration of a forecast model version on a longwall's own history (docs/api.md, «Forecast
// history and calibration»): rows with the features and the measured y, forecast by the version,
// and the split-conformal quantiles of the residuals, overall and per bin of the forecast's level, (wasm-core/src/gbdt/conformal.ts) stored with
// the version, the company, the rows' count and period. A company's staff calibrate for their
// company; an admin for every company (used where a company has none of its own).
import {
  calibrate,
  calibrationProbability,
  changeWeight,
  eventCalibration,
  persistenceForecast,
  timeOfDayForecast,
  timeOfDayMeans,
  windowMaxTargets,
  fitScales,
  historyStep,
  rowTimes,
  timesInMs,
  withWeight,
} from "@core/gbdt";
import { MINUTE_MS } from "@core/dates";
import { METHANE_LIMIT_PERCENT } from "@core/registry";
import type { ForecastCalibration, ForecastModelVersion } from "../../ports";
import type { Actor, Deps } from "../context";
import { Forbidden, Invalid, invalidAt } from "../errors";
import { forecastRowsFromFile, forecastTargets, historyTimes, predictRows } from "./forecast";
import { modelById } from "./calibration";
import type { ForecastKeptRow } from "./rows";
import type { UploadedFile } from "../../files/tabular";
import { LIMITS } from "../../contract/schemas/limits";

/** Rows with a measured y a calibration needs: enough for the 95 % quantile and a stable 90 %. */
export const MIN_CALIBRATION_ROWS = LIMITS.forecast.calibrationRowsMin;

export type CalibrationScope = "company" | "all";

/** The scope a caller asks for, checked against its role: staff calibrate only for their company. */
export function calibrationScope(actor: Actor, asked: unknown): CalibrationScope {
  if (asked === undefined || asked === "") return actor.role === "admin" ? "all" : "company";
  if (asked !== "company" && asked !== "all") throw invalidAt("for", "ожидается company (для своей компании) или all (для всех)");
  if (asked === "all" && actor.role !== "admin") throw new Forbidden("Калибровать модель для всех компаний может только администратор");
  return asked;
}

/** Calibrates `version` on `rows` (already read; those without y are left out) for `scope`. */
export async function calibrateOnRows(
  deps: Pick<Deps, "repos" | "blobs" | "clock" | "modelScoring">,
  actor: Actor,
  version: ForecastModelVersion,
  rows: ForecastKeptRow[],
  scope: CalibrationScope,
  fileName: string,
): Promise<ForecastCalibration> {
  const measured = rows.filter((r) => typeof r.y === "number");
  if (measured.length < MIN_CALIBRATION_ROWS) {
    throw new Invalid(
      `Для калибровки нужно не меньше ${MIN_CALIBRATION_ROWS} строк с фактической концентрацией (столбец «y», ` +
        `«Концентрация CH4 в исходящей струе лавы, факт»), в файле ${measured.length}`,
    );
  }
  const times = measured.map((r) => r.t ?? null);
  if (times.some((t) => t !== null) && !rowTimes(times)) {
    throw invalidAt("t", "в одном файле время должно быть везде датой и временем или везде номером шага");
  }
  // A model that looks ahead is scored against y(t + h), the value it forecast.
  const horizon = version.horizon ?? 0;
  // D96 (a): ahead, the change weight is fitted once here, on the model's changes over these rows, and kept.
  const predicted = await predictRows(deps, version, measured, horizon > 0 ? "changes" : "online");
  const rowTimesRead = historyTimes(predicted);
  const yNow = Float64Array.from(predicted, (r) => r.y ?? Number.NaN);
  let changeWeightFitted: number | undefined;
  if (horizon > 0 && rowTimesRead) {
    const ms = timesInMs(rowTimesRead.time, rowTimesRead.timeKind);
    const changes = Float64Array.from(predicted, (r) => r.result ?? Number.NaN);
    changeWeightFitted = changeWeight(changes, yNow, ms, horizon * MINUTE_MS, historyStep(ms) ?? MINUTE_MS, version.company ? 1 : 0);
    const forecast = withWeight(changes, yNow, changeWeightFitted);
    predicted.forEach((r, i) => {
      r.result = forecast[i];
    });
  }
  const features = Object.fromEntries(
    version.feature_names.map((f) => [
      f,
      predicted.map((r) => (r[f as keyof ForecastKeptRow] ?? r.features?.[f] ?? null) as number | null),
    ]),
  );
  const targets = forecastTargets(horizon, yNow, rowTimesRead);
  const results = predicted.map((r) => r.result ?? Number.NaN);
  const core = calibrate(results, targets, features);
  // D108 (a): the chance is of the window's maximum ahead (the row's own value at 0), fitted on its own facts;
  // how far it can be trusted: its earlier half calibrating the later one (D108 b).
  const ms = rowTimesRead && timesInMs(rowTimesRead.time, rowTimesRead.timeKind);
  const events = ms ? windowMaxTargets(yNow, ms, horizon * 60_000) : targets;
  const event = eventCalibration(results, events);
  const probability = calibrationProbability(results, events, METHANE_LIMIT_PERCENT, ms, horizon * 60_000);
  // D108 (d): a baseline shown in the model's place has a band of its own, calibrated on the same rows as the model's:
  // the model's band around the last reading held 96–99,8 % of unseen rows.
  const timeOfDay = rowTimesRead?.timeKind === "datetime" ? timeOfDayMeans(yNow, rowTimesRead.time) : undefined;
  const baselineBand = (forecast: Float64Array) => {
    const own = calibrate(forecast, targets);
    if (own.rows === 0) return undefined;
    return {
      rows: own.rows,
      quantiles: own.quantiles,
      residuals: own.residuals,
      bins: own.bins ?? [],
      level_floor: own.level_floor ?? 0.1,
      scales: fitScales(forecast, targets, own, METHANE_LIMIT_PERCENT),
    };
  };
  const trainingMean = version.training?.y_mean;
  const baselines = {
    persistence: baselineBand(persistenceForecast(yNow, rowTimesRead?.time, horizon)),
    ...(typeof trainingMean === "number" ? { mean: baselineBand(new Float64Array(yNow.length).fill(trainingMean)) } : {}),
    ...(timeOfDay && ms ? { time_of_day: baselineBand(timeOfDayForecast(timeOfDay, ms, horizon * 60_000)) } : {}),
  };
  const given = times.filter((t): t is string | number => t !== null);
  const sorted = [...given].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const calibration: ForecastCalibration = {
    method: version.method,
    model_id: version.id,
    model_version: version.version,
    scope: scope === "all" ? "all" : actor.company,
    rows: core.rows,
    period: sorted.length ? { from: sorted[0], to: sorted[sorted.length - 1] } : null,
    quantiles: core.quantiles,
    residuals: core.residuals,
    ranges: core.ranges,
    bins: core.bins,
    level_floor: core.level_floor,
    ...(changeWeightFitted === undefined ? {} : { change_weight: changeWeightFitted }),
    // D96 (a): the band's scales fitted on the same rows, kept with the calibration and applied to every request.
    scales: fitScales(results, targets, core, METHANE_LIMIT_PERCENT),
    ...(event.rows > 0
      ? {
          event: {
            rows: event.rows,
            quantiles: event.quantiles,
            residuals: event.residuals,
            bins: event.bins ?? [],
            level_floor: event.level_floor ?? 0.1,
          },
        }
      : {}),
    ...(probability ? { probability } : {}),
    // D108 (e): the time-of-day mean of the version's own period, a baseline fixed with it as the training mean is.
    ...(timeOfDay ? { time_of_day: timeOfDay } : {}),
    baselines: Object.fromEntries(Object.entries(baselines).filter(([, band]) => band !== undefined)) as ForecastCalibration["baselines"],
    file_name: fileName.slice(0, LIMITS.name.file),
    calibrated_at: deps.clock.now().toISOString(),
    calibrated_by: actor.email,
  };
  await deps.repos.forecastCalibrations.put(calibration);
  return calibration;
}

/** POST v1/forecast_models/{id}/calibration/: a file of history rows. */
export async function calibrateForecastModel(
  deps: Deps,
  actor: Actor,
  modelId: string,
  file: UploadedFile | undefined,
  asked: unknown,
): Promise<ForecastCalibration> {
  const scope = calibrationScope(actor, asked);
  const version = await modelById(deps, modelId, actor.company);
  if (!file) throw invalidAt("file", "прикрепите файл .xlsx или .csv с признаками и фактической концентрацией (y)");
  return calibrateOnRows(deps, actor, version, await forecastRowsFromFile(file, version.features, version), scope, file.name);
}
