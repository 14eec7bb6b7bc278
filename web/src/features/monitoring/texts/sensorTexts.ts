// The sensor register's texts «Датчики» and its dialog share (D56).
import { SENSOR_KIND_NAMES, SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import { SENSOR_PLACE_NAMES, SENSOR_PLACES, type SensorPlace } from "@core/sensor-places";
import { METHANE_PLACE_LABELS, NORM_PLACES } from "@core/methane-limits";

export const ROLES = { signalling: "сигнализирующий", cut_off: "отключающий", recording: "регистрирующий" } as const;
/** Whether a label names the unit as a word of its own («Метан (0–4 % об.)»), not as letters of a word (the «м» of
 *  «Положение комбайна в лаве»). */
const namesUnit = (label: string, unit: string) =>
  new RegExp(`(^|[^\\p{L}])${unit.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}])`, "u").test(label);
/** «Скорость воздуха, м/с»; a label that names its unit already («Метан (0–4 % об.)») as it is. */
export const kindText = (kind: SensorKind) =>
  namesUnit(SENSOR_KINDS[kind].label, SENSOR_KINDS[kind].unit)
    ? SENSOR_KINDS[kind].label
    : `${SENSOR_KINDS[kind].label}, ${SENSOR_KINDS[kind].unit}`;
export const kindOptions = SENSOR_KIND_NAMES.map((kind) => ({ value: kind, label: kindText(kind) }));
export const placeOptions = SENSOR_PLACE_NAMES.map((place) => ({ value: place, label: SENSOR_PLACES[place] }));
/** the norm's rows a meter at «другое место» may be read against (D87), in words; their values
 *  are the reference's of the day (the register prints the one in force); "" the working's. */
export const normPlaceOptions = [
  { value: "", label: "как в выработке (не выбрана)" },
  ...NORM_PLACES.map((p) => ({ value: p, label: `норма ${METHANE_PLACE_LABELS[p]}` })),
];
/** Where a sensor hangs, as its pages head it: its kind, place, section or working and the point it
 *  measures, those it has («Метан (0–4 % об.) · У забоя · Выемочный участок 12-3»). */
export function sensorWhereText(sensor: {
  kind: SensorKind;
  place: SensorPlace;
  section: string;
  working: string;
  point_name: string;
}): string {
  return [kindText(sensor.kind), SENSOR_PLACES[sensor.place], sensor.section || sensor.working, sensor.point_name]
    .filter((part) => part !== "")
    .join(" · ");
}
export const roleOptions = Object.entries(ROLES).map(([value, label]) => ({ value, label }));
export const conditionOptions = [
  { value: "standard", label: "стандартные (20 °C, 101,325 кПа)" },
  { value: "actual", label: "рабочие (по датчикам давления и температуры)" },
];
export const number = (value: number | null) => (value === null ? "" : value.toLocaleString("ru-RU", { maximumFractionDigits: 6 }));
