// `npm run bench -- agk-pages`: the АГК's pages over a facility's minutes on the local
// engine (dynalite, in this process), its day still open, so its readings are in the facility's minute
// items: today's journal of AGK_METERS methane meters (60) with a reading a minute since the company's
// midnight, and the same facility's completeness of the year. Prints p50 and p95 of AGK_READS reads (5) of
// each. Goals on a quiet machine: the journal's p50 ≤ 300 ms, the completeness ≤ 2 s. Not measured here
// yet: gassings of 92 days and a year's completeness of 150 sensors (their seeding takes the machine for
// long); docs/performance.md keeps a run.
import { createHarness } from "../support/harness";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { percentile } from "../support/live-stream";

const METERS = Number(process.env.AGK_METERS ?? 60);
const READS = Number(process.env.AGK_READS ?? 5);
const MINUTE = 60_000;
/** 00:00 of 02.03.2026 at UTC+7, and the clock at 20:00 that day: the day is open. */
const DAY = Date.UTC(2026, 2, 1, 17, 0);
const NOW = DAY + 20 * 60 * MINUTE;

async function timed(read: () => Promise<Response>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < READS; i++) {
    const started = performance.now();
    const res = await read();
    if (res.status !== 200) throw new Error(`agk-pages: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

const ms = (times: number[]) => `p50 ${Math.round(percentile(times, 0.5))} ms, p95 ${Math.round(percentile(times, 0.95))} ms`;

export async function run(): Promise<void> {
  const h = await createHarness({}, { now: () => new Date(NOW) });
  const user = await h.signedInUser("ООО «Страницы АГК»");
  const post = async (path: string, body: unknown) => {
    const res = await h.request(`/api/v1/${path}`, { method: "POST", token: user.token, json: body });
    if (res.status >= 300) throw new Error(`agk-pages: ${path} ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const facility = await post("facilities/", { name: "Шахта «Страницы»", kind: "underground_mine" });
  const point = await post(`facilities/${facility.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" });
  const codes = Array.from({ length: METERS }, (_, i) => `М-${i + 1}`);
  for (const code of codes) {
    await post(`facilities/${facility.id}/sensors/`, { code, kind: "methane", point: point.id, working: `Лава ${code}`, alarm: 2 });
  }
  const minutes = (NOW - DAY) / MINUTE;
  const seeding = performance.now();
  for (let i = 0; i < codes.length; i += 8) {
    const readings = codes.slice(i, i + 8).flatMap((code, k) =>
      Array.from({ length: minutes }, (_, m) => ({
        sensor: code,
        t: new Date(DAY + m * MINUTE + 20_000).toISOString(),
        value: Math.round((0.3 + 0.2 * Math.sin((m + 13 * (i + k)) / 41)) * 1000) / 1000,
      })),
    );
    await post("telemetry/readings/", { facility: facility.id, readings });
  }
  await monitoringIdle(h.deps);
  console.log(`${METERS} meters × ${minutes} minutes of an open day stored in ${Math.round((performance.now() - seeding) / 1000)} s`);
  const get = (path: string) => () => h.request(`/api/v1/${path}`, { token: user.token });
  console.log(`today's journal (JSON): ${ms(await timed(get(`telemetry/journal/?facility=${facility.id}&date=2026-03-02`)))}`);
  console.log(`the year's completeness: ${ms(await timed(get(`facilities/${facility.id}/sensors/completeness/?year=2026`)))}`);
  await h.close();
}
