// D104 on the in-memory repositories: a face meter at 1,4 % (A 1,3) for 10 minutes while the shearer's run
// channel reads 1 is one record «отключение не подтверждено», found by the detector over the minutes it
// reads (the same record when read again); a run channel that stops within a minute gives none; the
// record is answered with a cause and confirmed by another person holding a book's duty (four eyes),
// once each; another company's user finds none of it.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { Conflict, Forbidden, Invalid, NotFound } from "../../errors";
import { createUser } from "../../company/users";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { answerCutoff, confirmCutoff, cutoffEpisodes, listCutoffs } from "./cutoff-audit";
import { detectEvents } from "./events";

const NOW = Date.parse("2026-11-16T03:00:00Z");
const AT = Date.UTC(2026, 2, 2, 3, 0); // 02.03.2026 10:00 in Kemerovo
const iso = (t: number) => new Date(t).toISOString();
let d: MemoryDomain;

interface Mine {
  staff: Actor;
  facility: string;
}

async function mine(name: string): Promise<Mine> {
  const staff = await d.actor(name);
  const facility = (await d.facility(staff, { name: "Шахта «Лавная»", kind: "underground_mine" })).id;
  const add = (body: Record<string, unknown>) => d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)));
  await add({ code: "М-1", kind: "methane", working: "Лава 12-1", place: "face", warning: 1, alarm: 1.3 });
  await add({ code: "РК-1", kind: "run_status", working: "Лава 12-1" });
  // A run channel of another working is not the face's equipment.
  await add({ code: "РК-9", kind: "run_status", working: "Лава 14-2" });
  return { staff, facility };
}

/** 30 minutes: 0,6 %, then 1,4 % for `high` minutes from minute 10, then 0,6 %; the shearer's run channel
 *  reads 1 until `runUntil` (a minute index), 0 after; the other working's channel reads 1 throughout. */
function readings(high: number, runUntil: number, from = AT) {
  const out: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < 30; m++) {
    const t = iso(from + m * MINUTE_MS + 20_000);
    out.push({ sensor: "М-1", t, value: m >= 10 && m < 10 + high ? 1.4 : 0.6 });
    out.push({ sensor: "РК-1", t, value: m < runUntil ? 1 : 0 });
    out.push({ sensor: "РК-9", t, value: 1 });
  }
  return out;
}

async function push(m: Mine, batch: { sensor: string; t: string; value: number }[]) {
  await storeBatch(d.deps, m.staff.company, m.facility, { json: { readings: batch } });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
}

const list = (m: Mine) => listCutoffs(d.deps, m.staff, m.facility, { from: "2026-03-01", to: "2026-03-03" });

let first: Mine;

beforeAll(async () => {
  d = await memoryDomain(clockAt(NOW));
  first = await mine("ООО «Отключения»");
  await push(first, readings(10, 30));
});

describe("D104 over minute series", () => {
  const series = (values: number[]) => ({ start: 0, values });
  it("keeps a span at or above the setpoint the run channel outlived by two minutes, not one", () => {
    const high = [0.6, 1.4, 1.4, 1.4, 0.6];
    expect(cutoffEpisodes(series(high), 1.3, [1, 1, 1, 1, 1])).toEqual([
      { start: MINUTE_MS, end: 4 * MINUTE_MS, peak: 1.4, minutes: 3, run_minutes: 3 },
    ]);
    // Cut within the first minute after: none; one minute of run after it: none (the [A] is two).
    expect(cutoffEpisodes(series(high), 1.3, [1, 1, 0, 0, 0])).toEqual([]);
    expect(cutoffEpisodes(series(high), 1.3, [1, 1, 1, 0, 0])).toEqual([]);
    expect(cutoffEpisodes(series(high), 1.3, [1, 1, 1, 1, 0])).toHaveLength(1);
    expect(cutoffEpisodes(series(high), 1.3, [1, 1, 0.5 - 0.1, 1, 0])).toEqual([]);
    // At the setpoint counts; a span running to the series' end is open.
    expect(cutoffEpisodes(series([1.3, 1.3, 1.3]), 1.3, [1, 1, 1])).toEqual([
      { start: 0, end: null, peak: 1.3, minutes: 3, run_minutes: 2 },
    ]);
    // A missing minute ends a span: neither part had the run channel two minutes after its first.
    expect(cutoffEpisodes(series([1.4, Number.NaN, 1.4, 1.4]), 1.3, [1, 1, 1, 1])).toEqual([]);
  });
});

describe("the cut-off audit, run where the detector runs", () => {
  it("finds one «отключение не подтверждено» for 10 minutes at 1,4 % with the shearer running", async () => {
    const { results } = await list(first);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      sensor_code: "М-1",
      run_code: "РК-1",
      setpoint: 1.3,
      peak: 1.4,
      minutes: 10,
      run_minutes: 10,
      start: iso(AT + 10 * MINUTE_MS),
      end: iso(AT + 20 * MINUTE_MS),
      state: "open",
      answer: null,
      place: "У забоя (призабойное пространство)",
    });
    expect(results[0].text).toBe("отключение не подтверждено: М-1 1,40 % при уставке отключения 1,30 %, РК-1 в работе 10 мин");
  });

  it("is the same record when the detector reads the minutes again", async () => {
    const before = (await list(first)).results;
    const sensors = await d.deps.repos.sensors.listOfFacility(first.staff.company, first.facility);
    await detectEvents(d.deps, {
      company: first.staff.company,
      facility: first.facility,
      days: sensors.map((s) => ({ sensor: s.id, day: "2026-03-02" })),
    });
    expect((await list(first)).results).toEqual(before);
  });

  it("finds none where the shearer stopped within a minute of the setpoint", async () => {
    const other = await mine("ООО «Отключила»");
    await push(other, readings(10, 11));
    expect((await list(other)).results).toEqual([]);
  });

  it("is answered with a cause and confirmed by another with a book's duty, once each", async () => {
    const [record] = (await list(first)).results;
    await expect(answerCutoff(d.deps, first.staff, first.facility, record.id, { cause: "false_reading" })).rejects.toThrow(Invalid);
    const answered = await answerCutoff(d.deps, first.staff, first.facility, record.id, {
      cause: "protection_failed",
      comment: "АГК в ручном режиме, восстановлено",
    });
    expect(answered).toMatchObject({ state: "answered", answer: { cause: "protection_failed", cause_text: "защита не сработала" } });
    await expect(answerCutoff(d.deps, first.staff, first.facility, record.id, { cause: "false_reading", comment: "x" })).rejects.toThrow(
      Conflict,
    );
    // The one who answered confirms nothing, even holding the duty; a user without it neither.
    await expect(confirmCutoff(d.deps, first.staff, first.facility, record.id, { duty: "chief_engineer" })).rejects.toThrow(Forbidden);
    const user = await createUser(d.deps, {
      companyId: first.staff.company,
      email: "chief@otkl.ru",
      password: "correct-horse",
      first_name: "Игорь",
      last_name: "Семенов",
      duty: "chief_engineer",
    });
    const chief: Actor = { id: user.id, company: first.staff.company, email: user.email, role: "staff" };
    const confirmed = await confirmCutoff(d.deps, chief, first.facility, record.id, { duty: "chief_engineer" });
    expect(confirmed).toMatchObject({ state: "confirmed", confirmation: { duty: "chief_engineer", by: "Семенов И." } });
    expect(JSON.stringify(confirmed)).not.toContain("@");
    await expect(confirmCutoff(d.deps, chief, first.facility, record.id, { duty: "chief_engineer" })).rejects.toThrow(Conflict);
    // An answered record stays as answered when the minutes are read again.
    const sensors = await d.deps.repos.sensors.listOfFacility(first.staff.company, first.facility);
    await detectEvents(d.deps, {
      company: first.staff.company,
      facility: first.facility,
      days: sensors.map((s) => ({ sensor: s.id, day: "2026-03-02" })),
    });
    expect((await list(first)).results[0]).toEqual(confirmed);
  });

  it("is not another company's", async () => {
    const stranger = await d.actor("ООО «Чужая»");
    await expect(listCutoffs(d.deps, stranger, first.facility, {})).rejects.toThrow(NotFound);
    const [record] = (await list(first)).results;
    await expect(answerCutoff(d.deps, stranger, first.facility, record.id, { cause: "protection_failed" })).rejects.toThrow(NotFound);
  });
});
