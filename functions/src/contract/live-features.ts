// ML M1: the forecast's data columns a working's live forecast is fed, and the sensors each may
// be read from — plain constants, schema-free, shared by the contract, the domain (monitoring/live/live.ts) and
// the web's «Модель прогноза» dialog.
import type { SensorKind } from "@core/monitoring";

/** The seven columns of the forecast route and the barometric pressure (a model ahead may read p_atm). */
export const LIVE_FEATURE_COLUMNS = ["x1", "x2", "x7", "x8", "x12", "x13", "x15", "p_atm"] as const;
export type LiveFeatureColumn = (typeof LIVE_FEATURE_COLUMNS)[number];

/** The kinds of sensor a column may be read from: air flow from an anemometer (× its cross-section × 60)
 *  or a flow meter; a concentration from a methane meter; the pressure from a pressure sensor (kPa). */
export const LIVE_FEATURE_KINDS: Readonly<Record<LiveFeatureColumn, readonly SensorKind[]>> = {
  x1: ["air_velocity", "flow"],
  x2: ["air_velocity", "flow"],
  x7: ["methane_high", "methane"],
  x8: ["flow"],
  x12: ["methane", "methane_high"],
  x13: ["air_velocity", "flow"],
  x15: ["methane_flow"],
  p_atm: ["pressure"],
};

/** The columns read by kind from the working's own sensors when the binding names none (its first of the
 *  kind by code): the longwall's air (x1) and its drainage line's CH4 (x7), mixture flow (x8) and methane
 *  flow (x15). The others — the air measured daily (x2), the mine's return (x12, x13) and the barometric
 *  pressure (not a drainage line's) — share their kind with a working's other sensors: only as the binding
 *  sets them. */
export const LIVE_FEATURE_BY_KIND: Readonly<Partial<Record<LiveFeatureColumn, SensorKind>>> = {
  x1: "air_velocity",
  x7: "methane_high",
  x8: "flow",
  x15: "methane_flow",
};
