// D102–D105: readings questioned. A `suspect` event says a meter's readings may not be true — stuck
// (D102), less gas downstream than its air brings (D103), a hand measurement apart from it (D105) — and
// its minutes are «под сомнением» (D94's flag: kept and counted, never substituted, each reader says how
// many). A person answers it with what was done (who, when). The reasons, their words and the rules'
// defaults are here, pure and browser-safe: the server's detector and the web's screens share them.

export type SuspectReason = "stuck" | "airway" | "hand";
export const SUSPECT_REASONS: readonly SuspectReason[] = ["stuck", "airway", "hand"];

/** A reason's words on «События», the journal and the handover. */
export const SUSPECT_REASON_LABELS: Readonly<Record<SuspectReason, string>> = {
  stuck: "показания не меняются",
  airway: "меньше метана, чем приносит воздух",
  hand: "ручной замер расходится с датчиком",
};

/** A suspect event's own part: the reason, its sentence, the other meter of the pair (D103: the upstream
 *  one; null otherwise) and whether it asks for a hand measurement (D103, D105). */
export interface SuspectDetail {
  readonly reason: SuspectReason;
  readonly text: string;
  readonly other_sensor: string | null;
  readonly asks_hand_measurement: boolean;
}

/** What is asked of the person who answers a suspect event: what was done, never only «квитировано». */
export const SUSPECT_ANSWER_REQUIRED = "укажите, что сделано: например, «проверен ШИ-11: 0,62 %, датчик исправен»";

/** D102's defaults [A]: minutes unchanged within one resolution step beside a moving neighbour, and alone. */
export const STUCK_WITH_NEIGHBOUR_MIN = 60;
export const STUCK_ALONE_MIN = 240;
/** D102: a neighbour «moves» by more than this many resolution steps over the same minutes [A]. */
export const STUCK_NEIGHBOUR_STEPS = 5;
/** D102: a gas meter's resolution step by kind, in its unit (methane 0,01 % vol) [A]. */
export const RESOLUTION_STEPS: Readonly<Record<string, number>> = {
  methane: 0.01,
  methane_high: 0.1,
  carbon_monoxide: 1,
  oxygen: 0.1,
  carbon_dioxide: 0.01,
};
/** D103's defaults [A]: the mean's window, the air's transport time, the gap (absolute and share of the
 *  upstream mean) and how long it holds. */
export const AIRWAY_MEAN_MIN = 30;
export const AIRWAY_TRANSPORT_MIN = 10;
export const AIRWAY_GAP_ABS = 0.2;
export const AIRWAY_GAP_SHARE = 0.25;
export const AIRWAY_HOLD_MIN = 60;

/** «показания не меняются 360 мин» */
export const stuckText = (minutes: number) => `${SUSPECT_REASON_LABELS.stuck} ${minutes.toLocaleString("ru-RU")} мин`;
/** «на исходящей меньше метана, чем приносит воздух с ДМ-2: проверьте ручным замером оба датчика» */
export const airwayText = (upstreamCode: string) =>
  `на исходящей меньше метана, чем приносит воздух с ${upstreamCode}: проверьте ручным замером оба датчика`;

/** D102: the kinds whose meters are checked for being stuck [A]: methane's. CO, O2 and CO2 read one value
 *  for hours in clean air by nature; they serve as a stuck meter's moving neighbours. */
export const STUCK_CHECKED_KINDS: readonly string[] = ["methane", "methane_high"];

/** A run of minutes [from, to) (indices into a series); `open` when it reaches the series' end. */
export interface MinuteRun {
  readonly from: number;
  readonly to: number;
  readonly open: boolean;
}

const EPS = 1e-9;

/** D102: minutes without a reading that end a steady run [A]: a silence is D65's stale channel, not a
 *  stuck meter, and a meter read once an hour is not judged by minutes it never sent. */
export const STUCK_GAP_MIN = 10;

/** D102: the maximal runs of minute means that stay within one `step` (the largest less the smallest),
 *  with `least` minutes read or more; a gap of more than STUCK_GAP_MIN minutes unread ends a run. */
export function steadyRuns(values: ArrayLike<number>, step: number, least: number): MinuteRun[] {
  const runs: MinuteRun[] = [];
  const n = values.length;
  let i = 0;
  while (i < n && Number.isNaN(values[i])) i++;
  while (i < n) {
    let lo = values[i];
    let hi = values[i];
    let last = i;
    let read = 1;
    let j = i + 1;
    for (; j < n; j++) {
      const v = values[j];
      if (Number.isNaN(v)) {
        if (j - last > STUCK_GAP_MIN) break;
        continue;
      }
      const nlo = Math.min(lo, v);
      const nhi = Math.max(hi, v);
      if (nhi - nlo > step + EPS) break;
      lo = nlo;
      hi = nhi;
      last = j;
      read++;
    }
    const open = j >= n && n - last <= STUCK_GAP_MIN;
    if (read >= least) runs.push({ from: i, to: open ? n : last + 1, open });
    i = j;
    while (i < n && Number.isNaN(values[i])) i++;
  }
  return runs;
}

/** Whether minute means move by more than `amount` (the largest less the smallest) over [from, to). */
export function movesBy(values: ArrayLike<number>, from: number, to: number, amount: number): boolean {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let k = Math.max(0, from); k < Math.min(values.length, to); k++) {
    const v = values[k];
    if (Number.isNaN(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return hi - lo > amount + EPS;
}

/** D102 over one meter's minute means and its neighbours' over the same minutes (each with its step):
 *  the runs unchanged within one step for STUCK_ALONE_MIN or more, or for STUCK_WITH_NEIGHBOUR_MIN or more
 *  while a neighbour moves by more than STUCK_NEIGHBOUR_STEPS of its steps over the run. */
export function stuckRuns(
  values: ArrayLike<number>,
  step: number,
  neighbours: readonly { values: ArrayLike<number>; step: number }[],
  rules: { withNeighbour?: number; alone?: number; neighbourSteps?: number } = {},
): MinuteRun[] {
  const withNeighbour = rules.withNeighbour ?? STUCK_WITH_NEIGHBOUR_MIN;
  const alone = rules.alone ?? STUCK_ALONE_MIN;
  const steps = rules.neighbourSteps ?? STUCK_NEIGHBOUR_STEPS;
  return steadyRuns(values, step, Math.min(withNeighbour, alone)).filter(
    (run) =>
      run.to - run.from >= alone ||
      (run.to - run.from >= withNeighbour && neighbours.some((n) => movesBy(n.values, run.from, run.to, steps * n.step))),
  );
}

/** Trailing means over `window` minutes ending at each minute (NaN where fewer than half are read). */
export function trailingMeans(values: ArrayLike<number>, window: number): Float64Array {
  const out = new Float64Array(values.length).fill(Number.NaN);
  let sum = 0;
  let count = 0;
  for (let k = 0; k < values.length; k++) {
    if (!Number.isNaN(values[k])) {
      sum += values[k];
      count++;
    }
    const gone = k - window;
    if (gone >= 0 && !Number.isNaN(values[gone])) {
      sum -= values[gone];
      count--;
    }
    if (count * 2 >= Math.min(window, k + 1) && count > 0) out[k] = sum / count;
  }
  return out;
}

/** D103 over an upstream and a downstream meter's minute means on one grid: the runs of minutes whose
 *  downstream 30-minute mean lies below the upstream's of `transport` minutes before by more than
 *  max(AIRWAY_GAP_ABS, AIRWAY_GAP_SHARE × upstream) for AIRWAY_HOLD_MIN minutes or more. */
export function airwayRuns(
  upstream: ArrayLike<number>,
  downstream: ArrayLike<number>,
  rules: { window?: number; transport?: number; gapAbs?: number; gapShare?: number; hold?: number } = {},
): MinuteRun[] {
  const window = rules.window ?? AIRWAY_MEAN_MIN;
  const transport = rules.transport ?? AIRWAY_TRANSPORT_MIN;
  const gapAbs = rules.gapAbs ?? AIRWAY_GAP_ABS;
  const gapShare = rules.gapShare ?? AIRWAY_GAP_SHARE;
  const hold = rules.hold ?? AIRWAY_HOLD_MIN;
  const up = trailingMeans(upstream, window);
  const down = trailingMeans(downstream, window);
  const n = down.length;
  const runs: MinuteRun[] = [];
  let start = -1;
  for (let k = 0; k <= n; k++) {
    const u = k - transport >= 0 && k < n ? up[k - transport] : Number.NaN;
    const d = k < n ? down[k] : Number.NaN;
    const below = !Number.isNaN(u) && !Number.isNaN(d) && u - d > Math.max(gapAbs, gapShare * u) + EPS;
    if (below && start < 0) start = k;
    if (!below && start >= 0) {
      if (k - start >= hold) runs.push({ from: start, to: k, open: k >= n });
      start = -1;
    }
  }
  return runs;
}
