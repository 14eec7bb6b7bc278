// D87: a methane meter's gassing limit is the norm of where it hangs — never its kind
// (0–4 % or high-range) nor the register's W/A, which are alarms. A new user's mine on the in-memory
// repositories, each meter in a working of its own, readings 10:00–10:10 of 02.03.2026 (UTC+7) at a
// level of its own and 0,20 % around: a wing-return meter at 0,80 % is a gassing at 0,75 %; a high-range
// meter at a face at 2,5 % is one at 1 %; a face meter with A 1,5 % at 1,2 % is one at 1 %; one with
// A 0,9 % at 0,95 % is an alarm, not a gassing; an intake meter at 0,6 % is one at 0,5 %; the drainage
// line at 40 % and the suction line at 3,0 % are none. Item 2 (D88): a face meter 0,50 → 4,50 % for 6
// minutes (each minute past the 0–4 % span, the first a jump: D58 sets them all aside) is one gassing,
// its maximum «более 4 % (за пределом шкалы)», marked; closing it asks what it was.
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { gassingBookXlsx } from "../../../export/gassing-book";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema, sensorPatchSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { storeBatch } from "../ingest/readings";
import { createSensor, patchSensor } from "../ingest/register";
import { gassingMaxText } from "@core/gassing-book";
import { formatNumber } from "../../../export/txt-writer";
import { Invalid } from "../../errors";
import { registerGassing } from "./gassing-book";
import { listGassings, operatorJournal, type Journal } from "./journal";

const ALL_NOTIFIED = { chief_engineer: true, head_ab: true, head_section: true, rostekhnadzor: true };

/** 00:00 of 02.03.2026 at UTC+7. */
const DAY = Date.UTC(2026, 2, 1, 17, 0);
const local = (h: number, m = 0) => DAY + (h * 60 + m) * MINUTE_MS;
const iso = (t: number) => new Date(t).toISOString();

/** Each meter: its register and its level 10:00–10:09 (0,20 % before and after; the lines their own). */
const MINE = [
  { body: { code: "Ш-1", kind: "methane", working: "Вентиляционный штрек крыла", place: "wing_return" }, level: 0.8, base: 0.2 },
  { body: { code: "ВК-1", kind: "methane_high", working: "Забой 7", place: "face" }, level: 2.5, base: 0.2 },
  { body: { code: "З-1", kind: "methane", working: "Забой 8", place: "face", warning: 1, alarm: 1.5 }, level: 1.2, base: 0.2 },
  { body: { code: "З-2", kind: "methane", working: "Забой 9", place: "face", warning: 0.8, alarm: 0.9 }, level: 0.95, base: 0.2 },
  { body: { code: "П-1", kind: "methane", working: "Конвейерный штрек", place: "intake" }, level: 0.6, base: 0.2 },
  { body: { code: "Д-1", kind: "methane_high", working: "", place: "drainage_pipeline" }, level: 40, base: 35 },
  { body: { code: "Г-1", kind: "methane_high", working: "Газоотсос 3", place: "suction_pipeline" }, level: 3, base: 2 },
  { body: { code: "З-3", kind: "methane", working: "Забой 10", place: "face" }, level: 4.5, base: 0.5, minutes: 6 },
  // «другое место» reads the working's 1 % unless the register names a row.
  { body: { code: "Р-1", kind: "methane", working: "Камера 1", place: "other", norm_place: "wing_outgoing" }, level: 0.8, base: 0.2 },
  { body: { code: "Р-2", kind: "methane", working: "Камера 2", place: "other" }, level: 0.8, base: 0.2 },
] as const;

let d: MemoryDomain;
let staff: Actor;
let facility: string;
let journal: Journal;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-03-03T03:00:00Z"));
  staff = await d.actor("ООО «Новая шахта»");
  facility = (await d.facility(staff, { name: "Шахта «Газовая»", kind: "underground_mine" })).id;
  for (const meter of MINE) {
    const { body, level, base } = meter;
    const minutes = "minutes" in meter ? meter.minutes : 10;
    await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)));
    const readings = Array.from({ length: 60 }, (_, i) => 9 * 60 + 40 + i).flatMap((m) => {
      const value = m >= 10 * 60 && m < 10 * 60 + minutes ? level : base;
      return [0, 30].map((s) => ({ sensor: body.code, t: iso(local(0, m) + s * 1000), value }));
    });
    await storeBatch(d.deps, staff.company, facility, { json: { readings } });
  }
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  journal = await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" });
});

describe("the norm by the meter's place (D87)", () => {
  it("reads each methane meter against its place's row, never its kind or its W/A", () => {
    const limits = Object.fromEntries(journal.sensors.map((s) => [s.code, [s.limit, s.limit_source?.by, s.limit_source?.place]]));
    expect(limits).toEqual({
      "Ш-1": [0.75, "place", "wing_outgoing"],
      "ВК-1": [1, "place", "working"],
      "З-1": [1, "place", "working"],
      "З-2": [1, "place", "working"],
      "П-1": [0.5, "place", "intake"],
      "Г-1": [3.5, "place", "suction_pipeline"],
      "З-3": [1, "place", "working"],
      "Р-1": [0.75, "place", "wing_outgoing"],
      "Р-2": [1, "place", "working"],
    });
    // A degassing line's meter is no gassing's and not the journal's.
    expect(journal.sensors.map((s) => s.code)).not.toContain("Д-1");
  });

  it("opens a gassing at the norm: the wing's return at 0,80 %, the face's high-range meter at 2,5 %, the face at 1,2 % past its A of 1,5 %, the intake at 0,6 %", async () => {
    const found = (await listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" })).results;
    expect(Object.fromEntries(found.map((g) => [g.sensors.join(", "), [g.limits, g.start, g.end, g.kind]]))).toEqual({
      "ВК-1": [[1], iso(local(10)), iso(local(10, 10)), "местное"],
      "З-1": [[1], iso(local(10)), iso(local(10, 10)), "местное"],
      "П-1": [[0.5], iso(local(10)), iso(local(10, 10)), "местное"],
      "Ш-1": [[0.75], iso(local(10)), iso(local(10, 10)), "местное"],
      "З-3": [[1], iso(local(10)), iso(local(10, 6)), "местное"],
      "Р-1": [[0.75], iso(local(10)), iso(local(10, 10)), "местное"],
    });
    // Р-2 at «другое место» with no row named reads the working's 1 %: 0,80 % is none.
    expect(found.flatMap((g) => g.sensors)).not.toContain("Р-2");
    // З-2 at 0,95 % is past its A of 0,9 % (an alarm, D65) and below the face's 1 %: no gassing.
    expect(found.flatMap((g) => g.sensors)).not.toContain("З-2");
    // The suction line at 3,0 % is under its 3,5 %; the drainage line at 40 % is no gassing at all.
    expect(found.flatMap((g) => g.sensors)).not.toContain("Г-1");
    expect(found.flatMap((g) => g.sensors)).not.toContain("Д-1");
  });
});

describe("a meter at «другое место»", () => {
  it("names a row only there: elsewhere the place has its own, refused naming the field", async () => {
    expect(() => parseWith(sensorCreateSchema, { code: "Х-1", kind: "methane", place: "face", norm_place: "intake" })).toThrow(
      "Норма загазирования: норма указывается только для места «Другое место»",
    );
    expect(() => parseWith(sensorCreateSchema, { code: "Х-1", kind: "methane", place: "other", norm_place: "local_accumulation" })).toThrow(
      "Норма загазирования: выберите норму загазирования",
    );
    // A patch that moves the meter off «другое место» keeping the row is refused by the register.
    const sensor = (await d.deps.repos.sensors.listOfFacility(staff.company, facility)).find((s) => s.code === "Р-1")!;
    await expect(
      d.write(() =>
        patchSensor(d.deps, staff, facility, sensor.id, parseWith(sensorPatchSchema, { place: "face", version: sensor.version })),
      ),
    ).rejects.toThrow("Норма загазирования: норма указывается только для места «Другое место»");
  });
});

describe("every reading counts in the book (D88)", () => {
  it("gives a meter's 6 minutes past its span one gassing, its maximum past the span, marked; the means keep D58", () => {
    const g = journal.gassings.find((x) => x.sensors.includes("З-3"))!;
    expect(g).toMatchObject({ start: iso(local(10)), end: iso(local(10, 6)), max: 4.5, over_span: 4, sudden: true, onset: null });
    expect(gassingMaxText(g.max, g.over_span, formatNumber)).toBe("более 4 % (за пределом шкалы)");
    // The journal's means keep D58: the six minutes past the span count in no hour's mean.
    const hour = journal.sensors.find((s) => s.code === "З-3")!.hourly[10];
    expect(hour).toBeCloseTo(0.5, 12);
    // The other meters' gassings are no sudden ones.
    expect(journal.gassings.filter((x) => x.sudden).map((x) => x.sensors.join())).toEqual(["З-3"]);
  });

  it("refuses to close the marked entry until it says what it was, then keeps it", async () => {
    const id = journal.gassings.find((x) => x.sensors.includes("З-3"))!.id;
    const filled = { notified: ALL_NOTIFIED, cause: "Датчик залит водой", type: "technological", measures: "Датчик заменен" } as const;
    const attempt = registerGassing(d.deps, staff, id, { ...filled, close: true });
    await expect(attempt).rejects.toThrow(Invalid);
    await expect(attempt).rejects.toThrow("внезапный выброс это, отказ датчика или другое");
    const closed = await registerGassing(d.deps, staff, id, { ...filled, onset: "sensor_fault", close: true });
    expect(closed).toMatchObject({ closed: true, onset: "sensor_fault", sudden: true, over_span: 4 });
    const again = await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" });
    expect(again.gassings.find((x) => x.id === id)).toMatchObject({ onset: "sensor_fault", closed: true });
  });
});

// Item 3 (D89): a gassing once found is a record. Another mine's face meter at 1,2 % 08:00–08:09, pushed;
// then a user pushes corrected minutes (0,4 %) over them: the book keeps the entry as found, marked
// «показания исправлены после обнаружения» with the readings before and after, the batch, its sender and
// when, and closing it asks the reason.
describe("a found gassing is a record (D89)", () => {
  let mine: string;
  const at = (m: number) => iso(local(8, m));
  const minutes = (value: number) =>
    Array.from({ length: 30 }, (_, i) => i - 10).map((m) => ({ sensor: "К-1", t: at(m), value: m >= 0 && m < 10 ? value : 0.3 }));

  beforeAll(async () => {
    mine = (await d.facility(staff, { name: "Шахта «Исправленная»", kind: "underground_mine" })).id;
    await d.write(() =>
      createSensor(d.deps, staff, mine, parseWith(sensorCreateSchema, { code: "К-1", kind: "methane", working: "Забой 2", place: "face" })),
    );
    await storeBatch(d.deps, staff.company, mine, { json: { readings: minutes(1.2) } }, undefined, { sentBy: "ключ шлюза «Шлюз»" });
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
  });

  it("keeps the entry from the minute it is found, then keeps it through a correction, marked, with the sender", async () => {
    const list = () => listGassings(d.deps, staff, { facility: mine, from: "2026-03-02", to: "2026-03-02" });
    const first = (await list()).results;
    expect(first.map((g) => [g.sensors.join(), g.start, g.end, g.max, g.registered_by, g.corrections.length])).toEqual([
      ["К-1", at(0), at(10), 1.2, null, 0],
    ]);
    expect(first[0].found_at).not.toBeNull();
    const correction = await storeBatch(d.deps, staff.company, mine, { json: { readings: minutes(0.4) } }, undefined, {
      sentBy: "Кузнецова О. И.",
    });
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
    const kept = (await list()).results;
    // The minutes give no gassing now; the book keeps the one found, as found.
    expect(kept.map((g) => [g.id, g.start, g.end, g.max])).toEqual([[first[0].id, at(0), at(10), 1.2]]);
    expect(kept[0].corrections).toEqual([
      {
        at: expect.any(String),
        batch: correction.batch,
        batches: [correction.batch],
        sent_by: "Кузнецова О. И.",
        before: { start: at(0), end: at(10), max: 1.2 },
        after: null,
        after_closing: false,
      },
    ]);
    // The journal of the day lists it too.
    const day = await operatorJournal(d.deps, staff, { facility: mine, date: "2026-03-02" });
    expect(day.gassings.map((g) => [g.id, g.corrections.length])).toEqual([[first[0].id, 1]]);
    // Closing asks the reason.
    const filled = { notified: ALL_NOTIFIED, cause: "Ошибка передачи", type: "technological", measures: "Шлюз проверен" } as const;
    const attempt = registerGassing(d.deps, staff, first[0].id, { ...filled, close: true });
    await expect(attempt).rejects.toThrow("показания исправлены после обнаружения: не указана причина");
    const closed = await registerGassing(d.deps, staff, first[0].id, {
      ...filled,
      correction_reason: "ложное срабатывание: помеха в линии связи",
      close: true,
    });
    expect(closed).toMatchObject({ closed: true, max: 1.2, end: at(10), correction_reason: "ложное срабатывание: помеха в линии связи" });
    expect(closed.corrections).toHaveLength(1);
    // The book's file prints the mark, before and after, who sent the correction and the reason.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await gassingBookXlsx(await list())) as never);
    const cause = String((book.getWorksheet("Книга загазирований")!.getRow(3).values as unknown[])[13]);
    expect(cause).toContain("показания исправлены после обнаружения: ");
    expect(cause).toContain("Кузнецова О. И.; было с 02.03.2026 08:00 до 02.03.2026 08:10, макс. 1,20 %, стало: загазирования нет");
    expect(cause).toContain("Причина исправления: ложное срабатывание: помеха в линии связи");
  });
});
