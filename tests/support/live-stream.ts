// A page's live stream (GET v1/telemetry/live/stream/) read by a bench as the browser reads it: each
// tiles event with its arrival time, and from each push's 202 the time to the first tiles in which a
// working shows the push's minute (its latest reading) and to the first in which its forecast is issued
// at it (the monitoring and holding benches).

export interface Tiles {
  tiles: { working: string; updated_at: string | null; meters: { at: string | null }[]; forecasts: { issued_at: string | null }[] }[];
}

export interface LiveStream {
  /** Each tiles event received, with its arrival (performance.now). */
  seen: { at: number; tiles: Tiles["tiles"] }[];
  /** Resolves with the next event, or after `ms`. */
  next(ms: number): Promise<void>;
  /** Ends once the stream is closed (the signal aborted). */
  closed: Promise<void>;
}

/** Opens the facility's stream and keeps reading it until `signal` aborts; `log` hears each event. */
export async function openLiveStream(
  url: string,
  token: string,
  facility: string,
  signal: AbortSignal,
  log?: (seen: LiveStream["seen"][number], count: number) => void,
): Promise<LiveStream> {
  const seen: LiveStream["seen"] = [];
  const waiters = new Set<() => void>();
  const stream = await fetch(`${url}/api/v1/telemetry/live/stream/?facility=${facility}`, {
    headers: { Authorization: `Bearer ${token}` },
    signal,
  });
  if (stream.status !== 200) throw new Error(`stream: ${stream.status}`);
  const closed = (async () => {
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = /^data: (.*)$/m.exec(event)?.[1];
        if (/^event: live$/m.test(event) && data) {
          seen.push({ at: performance.now(), tiles: (JSON.parse(data) as Tiles).tiles });
          log?.(seen[seen.length - 1], seen.length);
          for (const wake of waiters) wake();
        }
      }
    }
  })();
  const next = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        waiters.delete(wake);
        resolve();
      };
      waiters.add(wake);
      setTimeout(wake, ms);
    });
  return { seen, next, closed };
}

/** From each push's 202 (`answered`, performance.now) to the first tiles showing its minute `t`, per
 *  working of the first `workings`: the tile's and its forecast's latencies, ms. Waits for them up to
 *  `waitMs` in all (a consumer behind loses nothing: the tiles come later). */
export async function tileLatencies(
  stream: LiveStream,
  pushes: readonly { t: number; answered: number }[],
  workings: number,
  waitMs = 1_800_000,
): Promise<{ tile: number[]; forecast: number[] }> {
  const tile: number[] = [];
  const forecast: number[] = [];
  const deadline = performance.now() + waitMs;
  for (const p of pushes) {
    const iso = new Date(p.t).toISOString();
    for (let w = 0; w < workings; w++) {
      let tileAt = Number.NaN;
      let forecastAt = Number.NaN;
      while (Number.isNaN(tileAt) || Number.isNaN(forecastAt)) {
        for (const s of stream.seen) {
          if (s.at < p.answered - 60_000) continue;
          const t = s.tiles[w];
          if (Number.isNaN(tileAt) && t.updated_at && t.updated_at >= iso) tileAt = s.at;
          if (Number.isNaN(forecastAt) && (t.forecasts[0]?.issued_at ?? "") >= iso) forecastAt = s.at;
        }
        if (Number.isNaN(tileAt) || Number.isNaN(forecastAt)) {
          if (performance.now() > deadline) throw new Error(`no tiles showed ${iso} for working ${w + 1}`);
          await stream.next(1000);
        }
      }
      tile.push(Math.max(0, tileAt - p.answered));
      forecast.push(Math.max(0, forecastAt - p.answered));
    }
  }
  return { tile, forecast };
}

/** The value below which a share `p` of `values` lie (the nearest rank). */
export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};
