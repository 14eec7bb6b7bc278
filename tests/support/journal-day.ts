// a company day of three methane meters (02.03.2026 at UTC+7, Kemerovo) for the АГК operator's
// journal's tests (unit, integration, browser): М-7 and М-8 of «Лава 12-1» (W 0,8, A 2 %) reach their
// place's norm of 1 % at once (D87: the A of 2 % hides nothing), a general gassing 03:10–03:30
// (peak 1,301 at 03:17); М-9 of «Штрек 5» has no alarm level and is read against its place's 1 % too, a local gassing 10:00–10:05 (a minute below inside it does not close it; peak
// 1,301) and a spike to 3,5 % at 14:00 set aside by D58's step for the means (it and the minute after) —
// D88: the book reads it, a local gassing 14:00–14:01 marked «резкий рост»; М-8 sends nothing
// 12:00–12:30. Two readings a minute, 0,001 % above the minute's value on average. With this file's own
// reading of the rules (validMinutes, meanOver) the tests check the journal's means independently.
import { MINUTE_MS } from "@core/dates";

/** 00:00 of 02.03.2026 at UTC+7. */
export const DAY = Date.UTC(2026, 2, 1, 17, 0);
export const local = (h: number, m = 0) => DAY + (h * 60 + m) * MINUTE_MS;
export const iso = (t: number) => new Date(t).toISOString();
/** Minutes read: an hour before the day to half an hour after it. */
const MINUTES = Array.from({ length: 24 * 60 + 90 }, (_, i) => i - 60);

/** Each meter's minute value at minute `m` of the day (NaN: no reading). */
const base = (m: number, phase: number) => 0.3 + 0.15 * Math.sin((m + phase) / 37) + 0.05 * Math.cos((m * 7 + phase) / 11);
const RAMPS: Record<string, Record<number, number>> = {
  // 03:07–03:21: at or above the 1 % norm from 03:10 to 03:19 (peak 1,3 at 03:17), never at its A of 2 %.
  "М-7": Object.fromEntries(
    [0.35, 0.6, 0.95, 1.05, 1.1, 1.15, 1.175, 1.2, 1.225, 1.25, 1.3, 1.15, 1.025, 0.85, 0.5].map((v, i) => [3 * 60 + 7 + i, v]),
  ),
  // 03:12–03:31: at or above 1 % from 03:15 to 03:29 (peak 1,225).
  "М-8": Object.fromEntries(
    [0.35, 0.6, 0.95, 1.1, 1.15, 1.15, 1.2, 1.225, 1.2, 1.15, 1.1, 1.05, 1.05, 1.025, 1.0, 1.05, 1.1, 1.0, 0.75, 0.4].map((v, i) => [
      3 * 60 + 12 + i,
      v,
    ]),
  ),
  // 09:59–10:06: at or above 1 % from 10:00, one minute below at 10:02, closed at 10:05; a spike at 14:00.
  "М-9": { ...Object.fromEntries([0.8, 1.1, 1.3, 0.9, 1.2, 1.05, 0.8, 0.6].map((v, i) => [9 * 60 + 59 + i, v])), [14 * 60]: 3.5 },
};
const PHASE: Record<string, number> = { "М-7": 0, "М-8": 40, "М-9": 90 };
const valueAt = (code: string, m: number) => {
  if (code === "М-8" && m >= 12 * 60 && m < 12 * 60 + 30) return Number.NaN;
  return RAMPS[code][m] ?? base(m, PHASE[code]);
};
/** Two readings a minute (at :10 and :40 s) around the minute's value. */
export const readingsOf = (code: string) =>
  MINUTES.flatMap((m) => {
    const v = valueAt(code, m);
    if (Number.isNaN(v)) return [];
    return [
      { sensor: code, t: iso(local(0, m) + 10_000), value: v - 0.004 },
      { sensor: code, t: iso(local(0, m) + 40_000), value: v + 0.006 },
    ];
  });

/** This file's own reading of the rules: a minute's mean of its readings; a minute whose mean is more
 *  than 1 % from the minute before's is set aside (D58's step for a 0–4 % meter). */
export function validMinutes(code: string): Map<number, number> {
  const sums = new Map<number, { sum: number; n: number }>();
  for (const r of readingsOf(code)) {
    const minute = Math.floor(Date.parse(r.t) / MINUTE_MS) * MINUTE_MS;
    const s = sums.get(minute) ?? { sum: 0, n: 0 };
    s.sum += r.value;
    s.n++;
    sums.set(minute, s);
  }
  const means = new Map([...sums].map(([t, s]) => [t, s.sum / s.n]));
  const valid = new Map<number, number>();
  for (const [t, v] of means) {
    const before = means.get(t - MINUTE_MS);
    if (before === undefined || Math.abs(v - before) <= 1) valid.set(t, v);
  }
  return valid;
}
export function meanOver(valid: Map<number, number>, from: number, to: number): number | null {
  const values = [...valid].filter(([t]) => t >= from && t < to).map(([, v]) => v);
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** The day's sensors as POST v1/facilities/{facility}/sensors/ takes them: a longwall's two meters of
 *  one extraction section, a heading's face meter; none measures an emission point. */
const SECTION = "Выемочный участок 12-1";
export const JOURNAL_SENSORS = () => [
  { code: "М-7", kind: "methane", working: "Лава 12-1", section: SECTION, place: "face_10_20m", warning: 0.8, alarm: 2 },
  { code: "М-8", kind: "methane", working: "Лава 12-1", section: SECTION, place: "longwall_return", warning: 0.8, alarm: 2 },
  { code: "М-9", kind: "methane", working: "Штрек 5", section: "Штрек 5", place: "face" },
  { code: "Q-1", kind: "flow", working: "Лава 12-1", section: SECTION, place: "other" },
];
export const JOURNAL_CODES = ["М-7", "М-8", "М-9"] as const;
export const JOURNAL_DATE = "2026-03-02";
