// The Russian words of the «Климатические проекты» screen (methodology 13.1, D79): device kinds, flow
// conditions, the channels of a monitoring plan and the register's sensor kinds each takes, the
// efficiency's basis and the deviations of a period.
import { DEVIATION_NAMES } from "@server/contract/climate-deviations";

export type DeviceKind = "flare_open" | "flare_enclosed" | "engine" | "boiler";
export type Channel = "q" | "c" | "p" | "t" | "flame" | "t_eg" | "run" | "eta_meas" | "e_gen" | "heat";

export const DEVICE_KINDS: Readonly<Record<DeviceKind, string>> = {
  flare_open: "Открытый факел",
  flare_enclosed: "Закрытый факел",
  engine: "Газопоршневая установка",
  boiler: "Котел",
};

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

/** The channels a device of the kind uses, those it must have first (as the server checks them). */
export function channelsOf(
  kind: DeviceKind,
  basis: keyof typeof FLOW_BASES,
  eta?: "default" | "measured",
): { channel: Channel; required: boolean }[] {
  const out: { channel: Channel; required: boolean }[] = [
    { channel: "q", required: true },
    { channel: "c", required: true },
  ];
  if (basis === "actual") out.push({ channel: "p", required: true }, { channel: "t", required: true });
  if (kind === "flare_open") out.push({ channel: "flame", required: true });
  if (kind === "flare_enclosed") {
    out.push(
      { channel: "t_eg", required: true },
      { channel: "flame", required: false },
      { channel: "eta_meas", required: eta === "measured" },
    );
  }
  if (kind === "engine")
    out.push({ channel: "run", required: true }, { channel: "e_gen", required: false }, { channel: "heat", required: false });
  if (kind === "boiler") out.push({ channel: "run", required: true }, { channel: "heat", required: false });
  return out;
}

/** D79's deviations as the report names them: the server's own words (contract/climate-deviations.ts imports
 *  nothing, so this screen's chunk loads no schema with them). */
export const DEVIATIONS: Readonly<Record<string, string>> = DEVIATION_NAMES;

/** The efficiency's basis in an hour of the table. */
export const ETA_BASES: Readonly<Record<string, string>> = {
  default_open_flame_60: "по умолчанию, пламя 60 мин",
  not_proven_flame: "не подтверждено: нет пламени",
  default_enclosed_t_eg_60: "по умолчанию, T отх. газов > 500 °C",
  not_proven_t_eg: "не подтверждено: T отх. газов",
  measured: "измерен",
  measured_fallback: "КПД не измерен: наименьший за период",
  engine_run: "агрегат работал",
  boiler_run: "агрегат работал",
  not_proven_run: "не подтверждено: агрегат стоял",
  not_proven_run_no_data: "не подтверждено: нет данных о работе агрегата",
  no_data: "нет данных",
};

/** The mark of a report's field the executor writes (methodology 13.4). */
export const REPORT_HAND_MARK = "заполняется исполнителем";
