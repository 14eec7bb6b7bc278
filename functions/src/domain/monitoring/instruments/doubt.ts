// Issue 118, item 4 (D94), the operator's journal's part: a sensor's minutes from a failed check to its next
// passed one, and from the day after its verification's end to its next verification, are «показания под
// сомнением». They stay as they are and count as before — never substituted (D60 substitutes missing or
// invalid minutes only) — and the journal says, beside the sensor's means, how many of the day's minutes
// carry the doubt and why. The book, the shift report, a month's evidence and its acceptance are not yet
// told (docs/methodology.md).
import type { SensorCheck, SensorVerification } from "../../../ports";

const MINUTE_MS = 60_000;
const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;

export interface DoubtSpan {
  from: number;
  /** null: still open. */
  to: number | null;
  why: string;
}

/** The spans of doubt of one sensor: each failed check to the next passed one, and each stretch out of
 *  verification (`dayStart(ГГГГ-ММ-ДД)`: the instant a company day begins). */
export function doubtSpans(
  checks: readonly Pick<SensorCheck, "at" | "result" | "id">[],
  verifications: readonly Pick<SensorVerification, "verified_on" | "valid_to">[],
  dayStart: (day: string) => number,
  dayOf: (instant: number) => string,
): DoubtSpan[] {
  const spans: DoubtSpan[] = [];
  const done = [...checks].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  for (let i = 0; i < done.length; i++) {
    if (done[i].result !== "failed" || (i > 0 && done[i - 1].result === "failed")) continue;
    const passed = done.slice(i + 1).find((c) => c.result === "passed");
    spans.push({
      from: Date.parse(done[i].at),
      to: passed ? Date.parse(passed.at) : null,
      why: `датчик не прошел проверку ${ddmmyyyy(dayOf(Date.parse(done[i].at)))}`,
    });
  }
  const byDay = [...verifications].sort((a, b) => a.verified_on.localeCompare(b.verified_on));
  for (let i = 0; i < byDay.length; i++) {
    const end = dayStart(byDay[i].valid_to) + 86_400_000;
    const next = byDay[i + 1];
    const until = next ? dayStart(next.verified_on) : null;
    if (until !== null && until <= end) continue;
    spans.push({ from: end, to: until, why: `вне поверки с ${ddmmyyyy(dayOf(end))}` });
  }
  return spans;
}

/** The minutes of [from, to) under any span (their union), and the reasons of those that touch it. */
export function doubtIn(spans: readonly DoubtSpan[], from: number, to: number): { minutes: number; why: string[] } {
  const cut = spans
    .map((s) => ({ from: Math.max(from, s.from), to: Math.min(to, s.to ?? to), why: s.why }))
    .filter((s) => s.from < s.to)
    .sort((a, b) => a.from - b.from);
  let minutes = 0;
  let reach = from;
  for (const s of cut) {
    const start = Math.max(s.from, reach);
    if (s.to > start) minutes += Math.round((s.to - start) / MINUTE_MS);
    reach = Math.max(reach, s.to);
  }
  return { minutes, why: [...new Set(cut.map((s) => s.why))] };
}
