// A forecast model version's calibration as it is read (docs/api.md, «Forecast history and
// calibration»): the one serving a company (its own, else an admin's for all) and what users see of
// it. Calibrating is forecast-calibrating.ts. Forecasts, what-if and the air needed read
// calibrationFor.
import { timeMs } from "@core/gbdt";
import { FORECAST_METHODS } from "@core/registry";
import { forecastCalibrationSchema } from "../../contract/schemas/answers";
import type { ForecastCalibration, ForecastModelVersion } from "../../ports";
import type { Deps } from "../context";
import { NotFound } from "../errors";
import { defaultLaggedModels } from "./models";

/** A version by its id alone (ids are unique across methods). */
/** A version by its id alone; another company's own trained version is 404, like a missing one. */
export async function modelById(deps: Pick<Deps, "repos" | "runtime">, id: string, company: string): Promise<ForecastModelVersion> {
  const builtIn = (await defaultLaggedModels(deps)).find((v) => v.id === id);
  if (builtIn) return builtIn;
  for (const method of FORECAST_METHODS) {
    const version = await deps.repos.forecastModels.get(method, id);
    if (version && (version.company === undefined || version.company === company)) return version;
  }
  throw new NotFound("Модель не найдена");
}

/** The calibration that serves `companyId` for `version`: its own, else an admin's for all. */
export async function calibrationFor(
  deps: Pick<Deps, "repos">,
  companyId: string,
  version: Pick<ForecastModelVersion, "id">,
): Promise<ForecastCalibration | undefined> {
  return (
    (await deps.repos.forecastCalibrations.get(version.id, companyId)) ?? (await deps.repos.forecastCalibrations.get(version.id, "all"))
  );
}

/** What a user sees of a calibration: everything the browser needs for intervals (residuals,
 *  ranges), and whether it is the company's own or an admin's for all; never another company's id. */
export function calibrationView(calibration: ForecastCalibration) {
  const { scope, ...rest } = calibration;
  return { ...rest, scope: scope === "all" ? ("all" as const) : ("company" as const) };
}

/** The fields a calibration's summary keeps: all but its residuals, ranges, bins and D108's event and baselines. */
const SUMMARY_FIELDS = Object.keys(forecastCalibrationSchema.shape).filter(
  (field) => !["residuals", "ranges", "bins", "event", "baselines"].includes(field),
);

/** The summary of the calibration serving `companyId`, read without its residuals: what a list of versions
 *  shows of each (the whole item is thousands of numbers, unmarshalled on the request thread). */
export async function calibrationSummaryFor(
  deps: Pick<Deps, "repos">,
  companyId: string,
  version: Pick<ForecastModelVersion, "id">,
): Promise<ReturnType<typeof calibrationSummary>> {
  const read = (scope: string) => deps.repos.forecastCalibrations.getFields(version.id, scope, SUMMARY_FIELDS);
  const found = (await read(companyId)) ?? (await read("all"));
  return calibrationSummary(found as ForecastCalibration | undefined);
}

/** The short form the models screen and a forecast's summary show. */
export function calibrationSummary(calibration: ForecastCalibration | undefined) {
  if (!calibration) return null;
  const {
    residuals: _residuals,
    ranges: _ranges,
    bins: _bins,
    event: _event,
    baselines: _baselines,
    ...rest
  } = calibrationView(calibration);
  return rest;
}

/**
 * D96 (b), the last time of the model's own period — the rows it was trained on and those its
 * calibration came from — in the units of rows timed `kind` (ms of a date-time, or a step number); null where
 * neither keeps a period of that kind. A forecast's back-test and the tile judge only the rows after it.
 */
export function modelPeriodEnd(
  run: { version: Pick<ForecastModelVersion, "training">; calibration: Pick<ForecastCalibration, "period"> | null | undefined },
  kind: "datetime" | "step" = "datetime",
): number | null {
  const ends = [run.version.training?.period?.to, run.calibration?.period?.to].flatMap((t) =>
    kind === "datetime" ? (typeof t === "string" ? [timeMs(t)] : []) : typeof t === "number" ? [t] : [],
  );
  return ends.length > 0 ? Math.max(...ends) : null;
}
