// «Проверить расчет»: a day's stored readings of the project's meters folded into
// hours (D70) and evaluated by the core in the browser — the code a stored period and
// POST …/evaluate/ run on the server (@core/climate-hours, @core/climate-project), so the hours shown
// are the server's. Loaded with the check, not with the project's screen.
import { type MeterReadings, periodSum, planDeviceInputs } from "@core/climate-hours";
import { HOUR_MS } from "@core/dates";
import { type ClimateEvaluation, type ClimateInputs, evaluateClimatePeriod } from "@core/climate-project";
import type { ClimateDayMinutes } from "@server/contract";

const instant = (iso: string | null, open: number) => (iso === null ? open : Date.parse(iso));

/** The day's inputs as the server's evaluation takes them: the plan's devices' hours, the own-use
 *  meter's total; nothing carried in, nothing bought, no leakage. */
export function dayInputs(day: ClimateDayMinutes): ClimateInputs {
  const meters = new Map<string, MeterReadings>(
    day.meters.map((m) => [
      m.code,
      {
        kind: m.kind,
        times: m.times,
        values: m.values,
        validFrom: instant(m.valid_from_utc, Number.NEGATIVE_INFINITY),
        validTo: instant(m.valid_to_utc, Number.POSITIVE_INFINITY),
      },
    ]),
  );
  const meterOf = (code: string) => meters.get(code) as MeterReadings;
  const start = Date.parse(day.start_utc);
  const end = start + day.hours * HOUR_MS;
  return {
    period: {
      e_own_mwh: day.e_own_sensor ? periodSum(meterOf(day.e_own_sensor), start, end) : 0,
      e_grid_aux_mwh: 0,
      fuels: [],
      leakage_t_co2e: 0,
      deficit_prev_t_co2e: 0,
    },
    devices: planDeviceInputs(day.devices, meterOf, start, day.hours, day.zone),
  };
}

/** The day's hours, deviations and totals as the server computes them. */
export function checkDay(day: ClimateDayMinutes): ClimateEvaluation {
  return evaluateClimatePeriod(dayInputs(day));
}
