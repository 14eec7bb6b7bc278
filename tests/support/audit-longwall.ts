// A generated longwall of the ML audit's kind, nobody's real data: 10-minute rows over three
// weeks of a working face — the shearer cutting two hours, standing one, the night shift's maintenance
// and Sunday off (a weekly rhythm), its run status and position along the face; the face's methane
// following the cut, the return's an hour behind it and diluted by the air; a return meter drifting
// upwards until it is recalibrated once (day 10); and rare gas episodes (EPISODES of them) pushing the
// return above 1 % for half an hour or so — under 2 % of the rows (1,75 % with the default seed). Each is seeded, so a test sees the
// same rows. The seven data columns the forecast reads (x1, x2, x7, x8, x12, x13, x15), the return's
// methane as y, and the working's own channels: face methane, the shearer's run status and position.
import { gaussian, seeded } from "@core/gbdt/longwall-history";

export const AUDIT_STEP_MS = 10 * 60 * 1000;
/** A Monday. */
export const AUDIT_START_MS = Date.UTC(2025, 2, 3);
export const AUDIT_DAYS = 21;
export const AUDIT_ROWS = (AUDIT_DAYS * 1440) / 10;
export const EPISODES = 12;
/** The x columns, then the working's channels, in the file's order. */
export const AUDIT_X = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"] as const;
export const AUDIT_CHANNELS = ["face_ch4", "shearer_run", "shearer_pos"] as const;
export type AuditChannel = (typeof AUDIT_CHANNELS)[number];
/** The working's channels under the mine's own headers: the file's columns a model names as its `features`. */
export const AUDIT_CHANNEL_HEADERS: Readonly<Record<AuditChannel, string>> = {
  face_ch4: "Метан у забоя, %",
  shearer_run: "Комбайн в работе",
  shearer_pos: "Положение комбайна, м",
};

const X_HEADERS = [
  "Расход воздуха в исходящей струе лавы (телеметрия), м³/мин",
  "Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин",
  "Концентрация метана в каптируемой смеси, %",
  "Расход смеси, извлекаемой установкой, м³/мин",
  "Средняя концентрация CH4 в исходящей струе шахты, %",
  "Расход воздуха в исходящей струе шахты, м³/мин",
  "Расход метана, извлекаемого установкой, м³/мин",
];

export interface AuditLongwall {
  time: Float64Array;
  x: Record<(typeof AUDIT_X)[number], Float64Array>;
  channels: Record<(typeof AUDIT_CHANNELS)[number], Float64Array>;
  /** The return's methane as its meter reads it, %. */
  y: Float64Array;
}

export function auditLongwall(seed = 108): AuditLongwall {
  const normal = gaussian(seeded(seed));
  const random = seeded(seed * 7919);
  const ar = (mean: number, sd: number, keep: number) => {
    let deviation = sd * normal();
    const shock = sd * Math.sqrt(1 - keep * keep);
    return () => {
      deviation = keep * deviation + shock * normal();
      return mean + deviation;
    };
  };
  const n = AUDIT_ROWS;
  const time = Float64Array.from({ length: n }, (_, r) => AUDIT_START_MS + r * AUDIT_STEP_MS);
  const air = ar(1350, 90, 0.97);
  const drainageCh4 = ar(35, 3, 0.98);
  const drainageFlow = ar(105, 8, 0.97);
  const mineCh4 = ar(0.45, 0.04, 0.99);
  const mineAir = ar(17000, 500, 0.995);
  const faceNoise = ar(0, 0.05, 0.9);
  const returnNoise = ar(0, 0.025, 0.8);
  // The episodes: starts spread over the three weeks, away from the first day.
  const starts = Array.from({ length: EPISODES }, (_, e) => Math.floor(((e + 0.6 + 0.4 * random()) * (n - 144)) / EPISODES) + 100);
  const x = Object.fromEntries(AUDIT_X.map((c) => [c, new Float64Array(n)])) as AuditLongwall["x"];
  const channels = Object.fromEntries(AUDIT_CHANNELS.map((c) => [c, new Float64Array(n)])) as AuditLongwall["channels"];
  const y = new Float64Array(n);
  let position = 0;
  let direction = 1;
  let daily = 1350;
  for (let r = 0; r < n; r++) {
    const minute = (r * 10) % 1440;
    const day = Math.floor(r / 144);
    const sunday = day % 7 === 6;
    // Cutting two hours, standing one, from 06:00; the night shift maintains; Sunday off.
    const run = !sunday && minute >= 360 && (minute - 360) % 180 < 120 ? 1 : 0;
    if (run) {
      position += direction * 12;
      if (position >= 250 || position <= 0) direction = -direction;
      position = Math.min(250, Math.max(0, position));
    }
    const a = air();
    if (r % 144 === 0) daily = Math.round(a + 15 * normal());
    const face = 0.35 + (run ? 0.3 + (0.15 * position) / 250 : 0) + (sunday ? -0.08 : 0) + faceNoise();
    x.x1[r] = a;
    x.x2[r] = daily;
    x.x7[r] = drainageCh4();
    x.x8[r] = drainageFlow();
    x.x12[r] = mineCh4();
    x.x13[r] = mineAir();
    x.x15[r] = (x.x7[r] * x.x8[r]) / 100;
    channels.face_ch4[r] = Math.max(0, face);
    channels.shearer_run[r] = run;
    channels.shearer_pos[r] = position;
  }
  for (let r = 0; r < n; r++) {
    // The return an hour behind the face, diluted by the air; the drifting meter recalibrated on day 10.
    const behind = channels.face_ch4[Math.max(0, r - 6)];
    let value = 0.22 + (0.62 * behind * 1350) / x.x1[r] + returnNoise();
    value += r < 10 * 144 ? 0.00004 * r : 0;
    for (const start of starts) {
      const k = r - start;
      // 40 minutes rising, 20 at the top, then back over 100 minutes.
      if (k >= 0 && k < 4) value += 0.14 * (k + 1);
      else if (k >= 4 && k < 6) value += 0.56;
      else if (k >= 6 && k < 16) value += 0.56 * (1 - (k - 6) / 10);
    }
    y[r] = Math.round(Math.max(0, value) * 10_000) / 10_000;
  }
  return { time, x, channels, y };
}

const two = (v: number) => String(v).padStart(2, "0");
const typed = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
};
const comma = (v: number) => String(Math.round(v * 10_000) / 10_000).replace(".", ",");

/** Rows [from, to) as the CSV a monitoring system exports; `channels` adds the working's own columns under
 *  their headers (AUDIT_CHANNEL_HEADERS). */
export function auditCsv(history: AuditLongwall, from = 0, to = history.time.length, channels: readonly AuditChannel[] = []): string {
  const lines = [
    ["Время", ...X_HEADERS, ...channels.map((c) => AUDIT_CHANNEL_HEADERS[c]), "Концентрация CH4 в исходящей струе лавы, факт, %"].join(";"),
  ];
  for (let r = from; r < to; r++) {
    const own = channels.map((c) => comma(history.channels[c][r]));
    lines.push([typed(history.time[r]), ...AUDIT_X.map((c) => comma(history.x[c][r])), ...own, comma(history.y[r])].join(";"));
  }
  return `${lines.join("\n")}\n`;
}
