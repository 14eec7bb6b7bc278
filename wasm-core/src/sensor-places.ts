// where a sensor of the mine's АГК hangs — the place in its working as the safety rules
// name the places of methane control (docs/methodology.md, «Места датчиков») — and which places measure an
// emission point. A longwall's face meter or anemometer measures the longwall's air, never the ventilation
// shaft's: only a channel at the point's own place (the shaft, the drainage line) gives the point's month.
// Browser-safe: the server's register and the web's dialog share it.
import type { EmissionPointKind } from "./inventory";
import type { SensorKind } from "./monitoring";

export type SensorPlace =
  | "face"
  | "face_10_20m"
  | "longwall_return"
  | "section_return"
  | "wing_return"
  | "intake"
  | "shaft"
  | "drainage_pipeline"
  | "suction_pipeline"
  | "other";

export const SENSOR_PLACES: Readonly<Record<SensorPlace, string>> = {
  face: "У забоя (призабойное пространство)",
  face_10_20m: "В 10–20 м от забоя",
  longwall_return: "Исходящая струя очистной выработки",
  section_return: "Исходящая струя выемочного участка",
  wing_return: "Исходящая струя крыла, шахты",
  intake: "Поступающая струя",
  shaft: "Ствол (канал вентилятора)",
  drainage_pipeline: "Дегазационный трубопровод",
  suction_pipeline: "Газоотсасывающий трубопровод",
  other: "Другое место",
};

export const SENSOR_PLACE_NAMES = Object.keys(SENSOR_PLACES) as [SensorPlace, ...SensorPlace[]];

/** The places whose channels measure an emission point of a kind (what leaves the mine there): a
 *  ventilation shaft's air at the shaft, drained gas in its pipeline. A place in the workings measures
 *  the working's air, never a point. */
export const POINT_KIND_PLACES: Readonly<Record<EmissionPointKind, readonly SensorPlace[]>> = {
  ventilation_shaft: ["shaft"],
  drainage_station: ["drainage_pipeline", "suction_pipeline"],
  flare: ["drainage_pipeline", "other"],
  boiler_engine: ["drainage_pipeline", "other"],
  vam_oxidiser: ["shaft", "other"],
  coal_handling: ["other"],
  other: ["shaft", "drainage_pipeline", "suction_pipeline", "other"],
  whole_mine: ["shaft", "drainage_pipeline", "suction_pipeline", "other"],
};

/** Whether a channel at `place` may measure a point of `kind`. */
export const placeMeasures = (place: SensorPlace, kind: EmissionPointKind): boolean => POINT_KIND_PLACES[kind].includes(place);

/** a degassing (drainage) pipeline's meter reads 20–60 % as its normal; it opens no
 *  gassing of the workings' air. */
export const opensNoGassing = (place: SensorPlace): boolean => place === "drainage_pipeline";

/** The kinds of a gas pipeline's channels: high-range methane, the mixture's flow, its P and T. */
const PIPELINE_KINDS: readonly SensorKind[] = ["methane_high", "flow", "pressure", "temperature", "methane_flow"];

/** The place of a point's own channel of `kind` where none was given: a pipeline's kinds on the drainage
 *  line, the rest at the shaft, where the point's kind has that place (else its first). */
export function ownPlace(kind: SensorKind, pointKind: EmissionPointKind): SensorPlace {
  const own = POINT_KIND_PLACES[pointKind];
  const pipeline = PIPELINE_KINDS.includes(kind);
  if (pipeline && own.includes("drainage_pipeline")) return "drainage_pipeline";
  if (!pipeline && own.includes("shaft")) return "shaft";
  return own[0];
}

/** The place a register stored before places existed gets: a channel of no working its
 *  point's own place; a channel of a working on a pipeline for a pipeline's kinds, else «other», for the
 *  mine to set. */
export function placeOfStoredSensor(kind: SensorKind, working: string, pointKind: EmissionPointKind | undefined): SensorPlace {
  if (!working && pointKind) return ownPlace(kind, pointKind);
  return PIPELINE_KINDS.includes(kind) ? "drainage_pipeline" : "other";
}
