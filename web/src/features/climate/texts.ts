// The Russian words of the «Климатические проекты» screen (methodology 13.1, D79): flow conditions,
// the channels of a monitoring plan and the register's sensor kinds each takes, and the deviations of
// a period; the device kinds, their channels and the efficiency's bases are the kinds' own modules'
// (@core/climate-devices).
import {
  BASIS_SCREEN_TEXTS,
  DEVICE_KIND_NAMES,
  type DeviceKind,
  deviceKindOf,
  type KindChannel,
  kindChannels,
} from "@core/climate-devices";
import { DEVIATION_NAMES } from "@server/contract/climate-deviations";

export type { DeviceKind };
export type Channel = "q" | "c" | "p" | "t" | KindChannel;

/** The kinds' names, in the order the form offers them. */
export const DEVICE_KINDS: Readonly<Record<DeviceKind, string>> = DEVICE_KIND_NAMES;

export const FLOW_BASES = {
  standard_20C: "стандартные (20 °C)",
  normal_0C: "нормальные (0 °C)",
  actual: "рабочие (по датчикам P и T)",
} as const;

export const CHANNELS: Readonly<Record<Channel, { label: string; kinds: readonly string[] }>> = {
  q: { label: "Расход смеси", kinds: ["flow"] },
  c: { label: "Содержание метана", kinds: ["methane_high", "methane"] },
  p: { label: "Давление газа", kinds: ["pressure"] },
  t: { label: "Температура газа", kinds: ["temperature"] },
  flame: { label: "Датчик пламени", kinds: ["flame"] },
  t_eg: { label: "Температура отходящих газов", kinds: ["exhaust_temperature"] },
  run: { label: "Работа агрегата", kinds: ["run_status"] },
  eta_meas: { label: "Измеренный КПД", kinds: ["destruction_efficiency"] },
  e_gen: { label: "Выработка электроэнергии", kinds: ["electricity"] },
  heat: { label: "Отпуск тепла", kinds: ["heat"] },
};

/** The channels a device of the kind uses, those it must have marked (as the server checks them). */
export function channelsOf(
  kind: DeviceKind,
  basis: keyof typeof FLOW_BASES,
  eta?: "default" | "measured",
): { channel: Channel; required: boolean }[] {
  const spec = deviceKindOf(kind);
  return spec ? kindChannels(spec, basis, eta) : [];
}

/** D79's deviations as the report names them: the server's own words (contract/climate-deviations.ts imports
 *  nothing, so this screen's chunk loads no schema with them). */
export const DEVIATIONS: Readonly<Record<string, string>> = DEVIATION_NAMES;

/** The efficiency's basis in an hour of the table. */
export const ETA_BASES: Readonly<Record<string, string>> = BASIS_SCREEN_TEXTS;

/** The mark of a report's field the executor writes (methodology 13.4). */
export const REPORT_HAND_MARK = "заполняется исполнителем";
