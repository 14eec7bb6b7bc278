// A monitoring period's hours as the core takes them (methodology D70): from a device's
// meters' readings, each minute's value per channel — gas channels (Q, C, P, T) the D59 mean of the
// minute's D58-valid readings, a proof channel (flame, run) 1 only if the minute has a valid reading
// and every one proves it, the exhaust temperature the minute's minimum — and per hour the segments of
// equal minutes, the analyser's efficiency (the hour's mean) and the meters' energy (the hour's sum).
// A reading outside its meter's поверка dates (the register's dates in service) is invalid. Hours
// alike in a row are one block repeated. Pure: the readings come in, the blocks go out. The same code
// folds a stored period's minutes on the server and a day's in the browser's preview.
import type { ClimateDeviceInput, ClimateHourBlock, ClimateSegment } from "./climate-project";
import { wallTimeIn } from "./company-clock";
import { Flag, flagQuality, inRange, minuteMeans, type SensorKind } from "./monitoring";
import { HOUR_MS, MINUTE_MS } from "./dates";

/** A meter's readings in the period, its kind and the instants its readings are valid in. */
export interface MeterReadings {
  readonly kind: SensorKind;
  readonly times: ArrayLike<number>;
  readonly values: ArrayLike<number>;
  /** [from, to) in ms: the meter's поверка dates on the company's clock; readings outside are invalid. */
  readonly validFrom: number;
  readonly validTo: number;
}

type MinuteChannel = "q" | "c" | "p" | "t" | "t_eg" | "flame" | "run";
type HourChannel = "eta_meas" | "e_gen" | "heat";
export type DeviceMeters = Partial<Record<MinuteChannel | HourChannel, MeterReadings>>;

const GAS: readonly MinuteChannel[] = ["q", "c", "p", "t"];
const MINUTE_CHANNELS: readonly MinuteChannel[] = ["q", "c", "p", "t", "t_eg", "flame", "run"];

/** The readings inside the meter's dates and the window, with a physical value (D58's range). */
function validReadings(meter: MeterReadings, start: number, end: number): { times: number[]; values: number[] } {
  const times: number[] = [];
  const values: number[] = [];
  const from = Math.max(start, meter.validFrom);
  const to = Math.min(end, meter.validTo);
  for (let i = 0; i < meter.times.length; i++) {
    const t = meter.times[i];
    if (t < from || t >= to) continue;
    times.push(t);
    values.push(meter.values[i]);
  }
  return { times, values };
}

/** The channel's value each minute (NaN: none valid). */
function minuteValues(channel: MinuteChannel, meter: MeterReadings, start: number, minutes: number): Float64Array {
  const end = start + minutes * MINUTE_MS;
  const { times, values } = validReadings(meter, start, end);
  if (GAS.includes(channel)) {
    const series = flagQuality(meter.kind, minuteMeans(meter.kind, times, values, start, minutes));
    return series.values.map((v, m) => (series.flags[m] === Flag.OK ? v : Number.NaN));
  }
  // Proof channels and the exhaust temperature: the minute's lowest valid reading (a proof is 1 only
  // when every reading of the minute is 1).
  const out = new Float64Array(minutes).fill(Number.NaN);
  for (let i = 0; i < times.length; i++) {
    if (!inRange(meter.kind, values[i])) continue;
    const m = Math.floor((times[i] - start) / MINUTE_MS);
    out[m] = Number.isNaN(out[m]) ? values[i] : Math.min(out[m], values[i]);
  }
  if (channel === "flame" || channel === "run") for (let m = 0; m < minutes; m++) if (!Number.isNaN(out[m])) out[m] = out[m] >= 1 ? 1 : 0;
  return out;
}

/** The hour's figure of an hourly meter: the analyser's mean, the energy meters' sum; null without a valid reading. */
function hourValues(channel: HourChannel, meter: MeterReadings, start: number, hours: number): (number | null)[] {
  const { times, values } = validReadings(meter, start, start + hours * HOUR_MS);
  const sums = new Float64Array(hours);
  const counts = new Uint32Array(hours);
  for (let i = 0; i < times.length; i++) {
    if (!inRange(meter.kind, values[i])) continue;
    const h = Math.floor((times[i] - start) / HOUR_MS);
    sums[h] += values[i];
    counts[h]++;
  }
  return Array.from(sums, (sum, h) => (counts[h] === 0 ? null : channel === "eta_meas" ? sum / counts[h] : sum));
}

const orNull = (v: number) => (Number.isNaN(v) ? null : v);

/** The device's hours from `start` (a whole hour, ms) as the core's blocks, labelled on the zone's clock. */
export function deviceHourBlocks(meters: DeviceMeters, start: number, hours: number, zone: string): ClimateHourBlock[] {
  const minutes = hours * 60;
  const channels = MINUTE_CHANNELS.filter((c) => meters[c]).map((c) => [c, minuteValues(c, meters[c]!, start, minutes)] as const);
  const hourly = (["eta_meas", "e_gen", "heat"] as const).map(
    (c) => [c, meters[c] ? hourValues(c, meters[c]!, start, hours) : null] as const,
  );
  const blocks: (ClimateHourBlock & { key: string; first: number; last: number })[] = [];
  for (let h = 0; h < hours; h++) {
    const segments: ClimateSegment[] = [];
    let from = 0;
    const same = (a: number, b: number) => channels.every(([, v]) => Object.is(v[a], v[b]));
    for (let m = 1; m <= 60; m++) {
      if (m < 60 && same(h * 60 + m, h * 60 + from)) continue;
      const segment: Record<string, number | null> = { from, to: m };
      for (const [channel, v] of channels) segment[channel] = orNull(v[h * 60 + from]);
      segments.push(segment as unknown as ClimateSegment);
      from = m;
    }
    const figures: Record<string, number | null> = {};
    for (const [channel, v] of hourly)
      if (v) figures[channel === "e_gen" ? "e_gen_mwh" : channel === "heat" ? "heat_gj" : "eta_meas"] = v[h];
    const key = JSON.stringify([segments, figures]);
    const previous = blocks[blocks.length - 1];
    if (previous && previous.key === key) {
      previous.last = h;
      (previous as { repeat: number }).repeat += 1;
      continue;
    }
    blocks.push({ key, first: h, last: h, label: "", repeat: 1, segments, ...figures });
  }
  const label = (h: number) => wallTimeIn(new Date(start + h * HOUR_MS), zone).slice(0, 13);
  return blocks.map(({ key: _key, first, last, ...block }) => ({
    ...block,
    label: first === last ? label(first) : `${label(first)}..${label(last)}`,
  }));
}

/** A device of a project's plan: its kind, flow basis and efficiency option, and its meters' codes by channel. */
export interface PlanDevice {
  readonly name: string;
  readonly kind: ClimateDeviceInput["kind"];
  readonly flow_basis: ClimateDeviceInput["flow_basis"];
  readonly eta_option?: ClimateDeviceInput["eta_option"];
  readonly sensors: Readonly<Record<string, string | null | undefined>>;
}

/** The plan's devices as the core evaluates them: each one's hours from `start` built from the
 *  readings of the meters it names (`meterOf` a code). */
export function planDeviceInputs(
  devices: readonly PlanDevice[],
  meterOf: (code: string) => MeterReadings,
  start: number,
  hours: number,
  zone: string,
): ClimateDeviceInput[] {
  return devices.map((device) => {
    const bound: DeviceMeters = {};
    for (const [channel, code] of Object.entries(device.sensors)) if (code) bound[channel as keyof DeviceMeters] = meterOf(code);
    return {
      id: device.name,
      kind: device.kind,
      flow_basis: device.flow_basis,
      eta_option: device.eta_option,
      hours: deviceHourBlocks(bound, start, hours, zone),
    };
  });
}

/** The sum of an electricity meter's valid readings over the period (the own auxiliaries, MWh). */
export function periodSum(meter: MeterReadings, start: number, end: number): number {
  const { values } = validReadings(meter, start, end);
  return values.reduce((sum, v) => (inRange(meter.kind, v) ? sum + v : sum), 0);
}
