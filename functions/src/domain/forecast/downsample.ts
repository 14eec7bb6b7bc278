// A long series thinned for a chart (docs/api.md): the infographics' forecast by day and a forecast's
// history (measured vs forecast with its band) are sent as at most MAX_GRAPH_POINTS points, each
// bucket of consecutive rows as its lowest and highest value of every line drawn. A peak or a dip,
// however short, is always drawn at its height (an average would smooth it away).

/** docs/security.md: a series is sent as at most this many points (a forecast's 100 000 rows were
 *  megabytes of JSON, and a chart a thousand pixels wide shows a few thousand points at most). */
export const MAX_GRAPH_POINTS: number = LIMITS.forecast.graphPoints;
import { LIMITS } from "../../contract/schemas/limits";

/**
 * The positions (ascending) of `length` consecutive rows a chart draws: all of them within `max`;
 * else every position `keep` names, while they are at most half of `max` (the readings at or above
 * a warning level: each one drawn, not just its bucket's highest), and the rest cut into buckets
 * of consecutive rows, each giving the positions of its lowest and highest value of every line in
 * `values` (a value that is not a finite number is skipped). At most `max` positions in all.
 */
export function thinnedPositions(
  length: number,
  values: ReadonlyArray<(position: number) => number | null | undefined>,
  max = MAX_GRAPH_POINTS,
  keep?: (position: number) => boolean,
): number[] {
  if (length <= max) return Array.from({ length }, (_, i) => i);
  const kept = new Set<number>();
  if (keep) {
    const always: number[] = [];
    for (let i = 0; i < length && always.length <= max / 2; i++) if (keep(i)) always.push(i);
    if (always.length <= max / 2) for (const i of always) kept.add(i);
  }
  const buckets = Math.max(1, Math.floor((max - kept.size) / (2 * Math.max(1, values.length))));
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * length) / buckets);
    const to = Math.floor(((b + 1) * length) / buckets);
    for (const value of values) {
      let low = -1;
      let high = -1;
      let lowValue = Number.POSITIVE_INFINITY;
      let highValue = Number.NEGATIVE_INFINITY;
      for (let i = from; i < to; i++) {
        const v = value(i);
        if (typeof v !== "number" || !Number.isFinite(v)) continue;
        if (v < lowValue) {
          lowValue = v;
          low = i;
        }
        if (v > highValue) {
          highValue = v;
          high = i;
        }
      }
      if (low >= 0) kept.add(low);
      if (high >= 0) kept.add(high);
    }
  }
  return [...kept].sort((a, b) => a - b);
}
