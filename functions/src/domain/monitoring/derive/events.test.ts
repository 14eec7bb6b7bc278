// D65 on the in-memory repositories: the detector as the consumer of each batch's days (events at
// 0,9·W, W and A and a stale channel found once the readings are applied), the same events with the same
// ids when run again or when the readings come in another order, a correction that moves an event
// (removed and found anew, an acknowledgement kept on the one that stays), the list by period, level,
// working and shift on the company's clock (UTC+7), the acknowledgement (who, when, once), and another
// company's user who sees none of it. Over HTTP with a gateway key: tests/integration/sensor-events.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { Forbidden, Invalid, NotFound } from "../../errors";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { acknowledgeEvent, detectEvents, listEvents, readEventId, sweepStaleChannels, type EventView } from "./events";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";

/** The test's clock. */
const NOW = Date.parse("2026-11-16T03:00:00Z");
let d: MemoryDomain;

const AT = Date.UTC(2026, 2, 1, 16, 50); // 01.03.2026 23:50 in Kemerovo: the third shift's last minutes
const iso = (t: number) => new Date(t).toISOString();
const minute = (m: number) => AT + m * MINUTE_MS;

/** 16:50–17:39 UTC: 0,95 % from 16:55 (0,9·W), 1,5 % from 17:00 (W), 2,2 % at 17:05–17:06 (A), back to
 *  0,5 % at 17:10; no readings 17:20–17:29 (stale); W = 1, A = 2. */
function hour(): { sensor: string; t: string; value: number }[] {
  const out: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < 50; m++) {
    if (m >= 30 && m < 40) continue;
    const value = m < 5 ? 0.5 : m < 10 ? 0.95 : m < 15 ? 1.5 : m < 17 ? 2.2 : m < 20 ? 1.5 : 0.5;
    out.push({ sensor: "М-7", t: iso(minute(m) + 15_000), value });
  }
  return out;
}

interface Mine {
  staff: Actor;
  facility: string;
  sensor: string;
}

async function mine(name: string): Promise<Mine> {
  const staff = await d.actor(name);
  const facility = (await d.facility(staff, { name: "Шахта «Лавная»", kind: "underground_mine" })).id;
  const point = await d.write(() =>
    createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
  );
  const sensor = await d.write(() =>
    createSensor(
      d.deps,
      staff,
      facility,
      parseWith(sensorCreateSchema, { code: "М-7", kind: "methane", point: point.id, working: "Лава 12-1", warning: 1, alarm: 2 }),
    ),
  );
  return { staff, facility, sensor: sensor.id };
}

/** `count` more methane meters of the mine's working, М-10 on: their codes. */
async function moreMeters(m: Mine, count: number): Promise<string[]> {
  const point = (await d.deps.repos.emissionPoints.listOfFacility(m.staff.company, m.facility))[0].id;
  const codes = Array.from({ length: count }, (_, i) => `М-${i + 10}`);
  for (const code of codes)
    await d.write(() =>
      createSensor(
        d.deps,
        m.staff,
        m.facility,
        parseWith(sensorCreateSchema, { code, kind: "methane", point, working: "Лава 12-1", warning: 1, alarm: 2 }),
      ),
    );
  return codes;
}

async function push(m: Mine, readings: { sensor: string; t: string; value: number }[]) {
  await storeBatch(d.deps, m.staff.company, m.facility, { json: { readings } });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
}

const list = (m: Mine, query: Record<string, string> = {}) =>
  listEvents(d.deps, m.staff, { facility: m.facility, from: "2026-03-01", to: "2026-03-03", ...query });
const shape = (e: EventView) => [e.kind, e.level, e.start.slice(11, 16), e.end?.slice(11, 16) ?? null, e.minutes_above, e.peak];

let first: Mine;

beforeAll(async () => {
  d = await memoryDomain(clockAt(NOW));
  first = await mine("ООО «События»");
  await push(first, hour());
});

describe("the detector, run as the consumer of each batch's days", () => {
  it("finds the events at each level and the stale channel", async () => {
    const { results, count } = await list(first);
    expect(count).toBe(5);
    expect(results.map(shape)).toEqual([
      ["threshold", "pre_warning", "16:55", "17:10", 15, 2.2],
      ["threshold", "warning", "17:00", "17:10", 10, 2.2],
      ["threshold", "alarm", "17:05", "17:07", 2, 2.2],
      ["stale", null, "17:20", "17:30", 10, null],
      // The readings stopped at 17:40 and have not come back: open, its minutes counted to now.
      ["stale", null, "17:40", null, expect.any(Number), null],
    ]);
    expect(Math.abs(results[4].minutes_above - (NOW - minute(50)) / MINUTE_MS)).toBeLessThan(2);
    expect(results[0]).toMatchObject({ sensor_code: "М-7", working: "Лава 12-1", threshold: 0.9, acknowledged_by: null, comment: "" });
    expect(results[2].peak_at).toBe(iso(minute(15)));
    expect(readEventId(results[0].id)).toEqual({ facility: first.facility, sensor: first.sensor, start: iso(minute(5)) });
  });

  it("cuts the shifts on the company's clock (UTC+7): 16:55 UTC is the 1st's third, 17:00 the 2nd's first", async () => {
    const { results } = await list(first);
    expect(results.map((e) => `${e.shift.date}#${e.shift.number}`)).toEqual([
      "2026-03-01#3",
      "2026-03-02#1",
      "2026-03-02#1",
      "2026-03-02#1",
      "2026-03-02#1",
    ]);
    expect((await list(first, { shift: "3" })).results.map((e) => e.level)).toEqual(["pre_warning"]);
    expect((await list(first, { shift: "1", kind: "threshold" })).results.map((e) => e.level)).toEqual(["warning", "alarm"]);
  });

  it("filters by level and working, and by the period the events overlap", async () => {
    expect((await list(first, { level: "alarm" })).results.map((e) => e.start)).toEqual([iso(minute(15))]);
    expect((await list(first, { working: "Лава 12-1" })).count).toBe(5);
    expect((await list(first, { working: "Лава 13-2" })).count).toBe(0);
    // 17:08–17:09 UTC: the pre-warning and warning events still open then, the alarm closed at 17:07.
    const within = await list(first, { from: iso(minute(18)), to: iso(minute(19)) });
    expect(within.results.map((e) => e.level)).toEqual(["pre_warning", "warning"]);
    await expect(list(first, { from: "2026-03-03", to: "2026-03-01" })).rejects.toThrow(Invalid);
    await expect(list(first, { from: "2026-01-01", to: "2026-06-01" })).rejects.toThrow("не длиннее 93 дней");
  });

  it("finds the same events with the same ids when run again, writing nothing", async () => {
    const before = (await list(first)).results;
    const written = await detectEvents(d.deps, {
      company: first.staff.company,
      facility: first.facility,
      days: [{ sensor: first.sensor, day: "2026-03-01" }],
    });
    expect(written).toEqual([]);
    expect((await list(first)).results).toEqual(before);
  });

  it("finds the same events when the readings come in other batches, in another order", async () => {
    const other = await mine("ООО «Обратный порядок»");
    const readings = hour().reverse();
    await push(other, readings.slice(0, 20));
    await push(other, readings.slice(20));
    const strip = ({ id: _i, facility: _f, sensor: _s, ...rest }: EventView) => rest;
    expect((await list(other)).results.map(strip)).toEqual((await list(first)).results.map(strip));
  });
});

describe("the detector fed minute by minute", () => {
  /** Three hours from 16:50 UTC: crossings at each level, a meter flapping about W (1,05 / 0,95 each
   *  minute, 2 minutes below in each 5 closing it), a 10-minute silence and a 5-minute one, then a climb to A. */
  function day(): { sensor: string; t: string; value: number }[] {
    const out: { sensor: string; t: string; value: number }[] = [];
    for (let m = 0; m < 180; m++) {
      if ((m >= 40 && m < 50) || (m >= 120 && m < 125)) continue;
      const value =
        m < 10
          ? 0.5
          : m < 20
            ? 0.95
            : m < 30
              ? 1.2
              : m < 35
                ? 2.1
                : m < 40
                  ? 0.4
                  : m < 90
                    ? m % 5 < 2
                      ? 0.85
                      : 1.05
                    : m < 150
                      ? 0.6
                      : 2.3;
      out.push({ sensor: "М-7", t: iso(minute(m) + 20_000), value });
    }
    return out;
  }
  const strip = ({ id: _i, facility: _f, sensor: _s, ...rest }: EventView) => rest;

  it("finds what one batch of the whole day gives, a late batch filling a silence too", async () => {
    const whole = await mine("ООО «Весь день»");
    await push(whole, day());
    const expected = (await list(whole)).results.map(strip);
    expect(expected.map((e) => e.kind)).toContain("stale");
    expect(new Set(expected.map((e) => e.level))).toEqual(new Set(["pre_warning", "warning", "alarm", null]));
    const flapping = expected.filter((e) => e.level === "warning" && e.start >= iso(minute(50)) && e.start < iso(minute(90)));
    expect(flapping.length).toBeGreaterThan(1);

    const byMinute = await mine("ООО «Поминутно»");
    const readings = day();
    // Minute by minute, but the first silence's minutes held back and sent last, after the climb.
    const late = readings.filter((r) => r.t >= iso(minute(36)) && r.t < iso(minute(40)));
    for (const r of readings) if (!late.includes(r)) await push(byMinute, [r]);
    await push(byMinute, late);
    // An open event counts its minutes to the wall clock's now, and the two lists are read seconds
    // apart: those minutes may differ by the minute turned between the reads, the rest not at all.
    const byMinuteEvents = (await list(byMinute)).results.map(strip);
    const untilNow = (events: ReturnType<typeof strip>[]) => events.map((e) => (e.end === null ? { ...e, minutes_above: 0 } : e));
    expect(untilNow(byMinuteEvents)).toEqual(untilNow(expected));
    byMinuteEvents.forEach((e, i) => expect(Math.abs(e.minutes_above - expected[i].minutes_above)).toBeLessThanOrEqual(1));
  }, 60_000);
});

describe("acknowledgement", () => {
  it("keeps who and when with the comment, once", async () => {
    const warning = (await list(first, { level: "warning" })).results[0];
    // Named by surname and initials, never by the e-mail kept.
    const dispatcher = await d.colleague(first.staff, {
      email: "dispatcher@sobytiya.ru",
      first_name: "Ольга Ивановна",
      last_name: "Кузнецова",
    });
    const acknowledged = await acknowledgeEvent(d.deps, dispatcher, warning.id, { comment: "Проветривание усилено" });
    expect(acknowledged).toMatchObject({ acknowledged_by: "Кузнецова О. И.", comment: "Проветривание усилено" });
    expect(Date.parse(acknowledged.acknowledged_at as string)).not.toBeNaN();
    expect((await list(first, { level: "warning" })).results[0]).toEqual(acknowledged);
    await expect(acknowledgeEvent(d.deps, first.staff, warning.id, { comment: "ещё раз" })).rejects.toThrow(
      "Событие уже квитировано: Кузнецова О. И.",
    );
  });

  it("stays on its event when a correction moves it; an event the minutes no longer give is removed", async () => {
    // 17:05–17:06 corrected to 0,5 %: the alarm is gone, the warning closes at 17:05 and opens again at 17:07.
    await push(first, [
      { sensor: "М-7", t: iso(minute(15) + 15_000), value: 0.5 },
      { sensor: "М-7", t: iso(minute(16) + 15_000), value: 0.5 },
    ]);
    const { results } = await list(first, { kind: "threshold" });
    expect(results.map(shape)).toEqual([
      ["threshold", "pre_warning", "16:55", "17:05", 10, 1.5],
      ["threshold", "warning", "17:00", "17:05", 5, 1.5],
      ["threshold", "pre_warning", "17:07", "17:10", 3, 1.5],
      ["threshold", "warning", "17:07", "17:10", 3, 1.5],
    ]);
    expect(results[1]).toMatchObject({ acknowledged_by: "Кузнецова О. И.", comment: "Проветривание усилено" });
    expect(results[3].acknowledged_by).toBeNull();
  });

  it("is refused to a reviewer, and an id that is none is not found", async () => {
    const reviewer = await d.actor("ООО «Проверка»", "reviewer");
    const stale = (await list(first, { kind: "stale" })).results[0];
    await expect(acknowledgeEvent(d.deps, reviewer, stale.id, {})).rejects.toThrow(Forbidden);
    await expect(acknowledgeEvent(d.deps, first.staff, "nothing", {})).rejects.toThrow(NotFound);
    await expect(acknowledgeEvent(d.deps, first.staff, `${first.facility}.${first.sensor}.s.none.zzz`, {})).rejects.toThrow(NotFound);
  });
});

describe("another company", () => {
  it("sees none of it: the facility is not found and its events cannot be acknowledged", async () => {
    const stranger = await d.actor("ООО «Чужая»");
    const stale = (await list(first, { kind: "stale" })).results[0];
    await expect(listEvents(d.deps, stranger, { facility: first.facility })).rejects.toThrow(NotFound);
    await expect(acknowledgeEvent(d.deps, stranger, stale.id, { comment: "чужое" })).rejects.toThrow(NotFound);
    expect((await list(first, { kind: "stale" })).results[0].acknowledged_by).toBeNull();
  });
});

describe("a push that fills many sensors' silences", () => {
  it("removes their «no reading» events together, a write per 25, and leaves the rest as they were", async () => {
    const many = await mine("ООО «Тридцать датчиков»");
    const codes = await moreMeters(many, 30);
    // Each sensor's hour of hour(): its events at 0,9·W, W and A and its silences.
    await push(
      many,
      codes.flatMap((code) => hour().map((r) => ({ ...r, sensor: code }))),
    );
    const before = await list(many);
    // Each sensor's silence at 17:20–17:29 (and another from 17:40, the hour's end).
    const silence = (e: EventView) => e.kind === "stale" && e.start.slice(11, 16) === "17:20";
    expect(before.results.filter(silence)).toHaveLength(30);
    const port = d.deps.repos.sensorEvents;
    const calls = { remove: 0, removeAll: 0, removed: 0 };
    const counting = Object.create(port) as typeof port;
    counting.remove = (event, version) => (calls.remove++, port.remove(event, version));
    counting.removeAll = (events) => (calls.removeAll++, (calls.removed += events.length), port.removeAll(events));
    d.deps.repos.sensorEvents = counting;
    try {
      // The silences at 17:20 filled for 29 of them at once: their 29 stale events are no more; the first's stays.
      await push(
        many,
        codes
          .slice(1)
          .flatMap((code) =>
            Array.from({ length: 10 }, (_, i) => ({ sensor: code, t: iso(minute(30 + i) + 15_000), value: 0.5 + (i % 3) / 100 })),
          ),
      );
    } finally {
      d.deps.repos.sensorEvents = port;
    }
    expect(calls).toEqual({ remove: 0, removeAll: 1, removed: 29 });
    const after = await list(many);
    expect(after.results.filter(silence)).toEqual(before.results.filter((e) => silence(e) && e.sensor_code === codes[0]));
    expect(after.results.filter((e) => !silence(e))).toEqual(before.results.filter((e) => !silence(e)));
  });
});

describe("a channel whose readings stop", () => {
  it("is found, with every other sensor of its facility silent at once, in one sweep reading the facility's events once", async () => {
    // 5 000 silent sensors took about 10 minutes, a detector's run (and a Query of the
    // facility's events) per sensor; the facility's silent sensors are one run of the detector now.
    let now = NOW;
    const domain = await memoryDomain({ now: () => new Date(now) });
    const previous = d;
    d = domain;
    try {
      const gateway = await mine("ООО «Молчащий шлюз»");
      const codes = ["М-7", ...(await moreMeters(gateway, 39))];
      await push(
        gateway,
        codes.flatMap((code) =>
          Array.from({ length: 10 }, (_, i) => ({ sensor: code, t: iso(now - (9 - i) * MINUTE_MS + 5_000), value: 0.5 })),
        ),
      );
      now += 3 * MINUTE_MS;
      const port = d.deps.repos.sensorEvents;
      let queries = 0;
      const counting = Object.create(port) as typeof port;
      counting.listOfFacility = (...args) => (queries++, port.listOfFacility(...args));
      expect(await sweepStaleChannels({ ...d.deps, repos: { ...d.deps.repos, sensorEvents: counting } })).toBe(codes.length);
      // The sweep's Query of what is open, and the detector's of what it may change.
      expect(queries).toBe(2);
      const stale = await listEvents(d.deps, gateway.staff, {
        facility: gateway.facility,
        kind: "stale",
        from: iso(now - 86_400_000),
        to: iso(now + MINUTE_MS),
      });
      expect(stale.results.map((e) => [e.sensor_code, e.end])).toEqual(expect.arrayContaining(codes.map((code) => [code, null])));
      expect(await sweepStaleChannels(d.deps)).toBe(0);
    } finally {
      d = previous;
    }
  });

  it("is found stale by the sweep once 2 minutes passed without a reading, once, and not before", async () => {
    let now = NOW;
    const domain = await memoryDomain({ now: () => new Date(now) });
    const previous = d;
    d = domain;
    try {
      const quiet = await mine("ООО «Тихий канал»");
      const readings = Array.from({ length: 10 }, (_, i) => ({ sensor: "М-7", t: iso(now - (9 - i) * MINUTE_MS + 5_000), value: 0.5 }));
      await push(quiet, readings);
      const stale = async () =>
        (
          await listEvents(d.deps, quiet.staff, {
            facility: quiet.facility,
            kind: "stale",
            from: iso(now - 86_400_000),
            to: iso(now + MINUTE_MS),
          })
        ).results;
      expect(await stale()).toEqual([]);
      now += 2 * MINUTE_MS;
      // who is silent is read from the facility's kept heads, no minute read.
      const read: string[] = [];
      const monitoring = new Proxy(d.deps.repos.monitoring, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver);
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            if (["minutesOf", "getMinute", "getDay", "getDays", "getMinutesHead"].includes(String(name))) read.push(String(name));
            return value.apply(target, args);
          };
        },
      });
      expect(await sweepStaleChannels({ ...d.deps, repos: { ...d.deps.repos, monitoring } })).toBe(0);
      expect(read).toEqual([]);
      now += MINUTE_MS;
      expect(await sweepStaleChannels(d.deps)).toBe(1);
      const [open] = await stale();
      expect(open).toMatchObject({ kind: "stale", end: null, start: iso(now - 3 * MINUTE_MS + MINUTE_MS) });
      expect(open.minutes_above).toBe(2);
      // Once per silence.
      now += 5 * MINUTE_MS;
      expect(await sweepStaleChannels(d.deps)).toBe(0);
      // The readings come back: the event closes, and a new silence is swept again.
      await push(quiet, [{ sensor: "М-7", t: iso(now + 5_000), value: 0.5 }]);
      expect((await stale())[0].end).toBe(iso(now));
    } finally {
      d = previous;
    }
  });
});

// 4,5 % on a 0–4 % meter and a 2,3 % spike were set aside for the volumes, yet «События»
// showed nothing.
describe("a sensor's fault", () => {
  it("opens an event of its own for a reading out of range and for a jump set aside, with its minutes, no level crossed", async () => {
    const faulty = await mine("ООО «Неисправный датчик»");
    const readings: { sensor: string; t: string; value: number }[] = [];
    for (let m = 0; m < 30; m++) {
      // 4,5 % at 16:55–16:57 (above the meter's 0–4 %), a 2,3 % spike at 17:10, else 0,4 %.
      const value = m >= 5 && m < 8 ? 4.5 : m === 20 ? 2.3 : 0.4;
      readings.push({ sensor: "М-7", t: iso(minute(m) + 15_000), value });
    }
    await push(faulty, readings);
    const all = (await list(faulty)).results;
    const faults = all.filter((e) => e.kind === "fault");
    expect(faults.map(shape)).toEqual([
      ["fault", null, "16:55", "16:58", 3, null],
      // The jump up at 17:10 and the jump back down at 17:11.
      ["fault", null, "17:10", "17:12", 2, null],
    ]);
    expect(faults.map((e) => e.fault)).toEqual([
      { range_minutes: 3, jump_minutes: 0 },
      { range_minutes: 0, jump_minutes: 2 },
    ]);
    expect(faults[0]).toMatchObject({ sensor_code: "М-7", working: "Лава 12-1", threshold: null });
    // Not a level's crossing (W = 1, A = 2): no threshold event.
    expect(all.filter((e) => e.kind === "threshold")).toEqual([]);
    expect((await list(faulty, { kind: "fault" })).count).toBe(2);
    // Acknowledged as any event.
    const acked = await acknowledgeEvent(d.deps, faulty.staff, faults[0].id, { comment: "Датчик заменен" });
    expect(acked).toMatchObject({ kind: "fault", comment: "Датчик заменен" });
  });
});
