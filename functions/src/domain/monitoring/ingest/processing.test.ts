// About 10–20 s after «Обработано без ошибок» the book still said «Загазирований нет»: while a facility's
// batches are taken and not yet read into its events and the book, the book, the journal and «Мониторинг» say
// «данные обрабатываются: N мин» beside what they answer, and nothing once every batch is read.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { createSensor } from "./register";
import { storeBatch } from "./readings";
import { listGassings, operatorJournal } from "../derive/journal";
import { liveView } from "../live/live";
import { processingText } from "./processing";

const TAKEN = Date.parse("2026-11-16T08:00:00Z");

describe("a facility's batches not yet read (processing)", () => {
  let now = TAKEN;
  let d: MemoryDomain;
  let staff: Actor;
  let facility = "";
  const day = "2026-11-16";

  beforeAll(async () => {
    d = await memoryDomain({ now: () => new Date(now) });
    staff = await d.actor("ООО «Обработка»");
    facility = (await d.facility(staff, { name: "Шахта «Очередь»", kind: "underground_mine" })).id;
    const body = { code: "М-1", kind: "methane", working: "Лава 1", place: "face", warning: 1, alarm: 1.5 };
    await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)));
    const readings = Array.from({ length: 30 }, (_, m) => ({
      sensor: "М-1",
      t: new Date(TAKEN - (30 - m) * MINUTE_MS).toISOString(),
      value: m >= 20 ? 1.2 : 0.5,
    }));
    // Taken and listed as the push route lists it (kickReadings), the consumer not yet run.
    const batch = await storeBatch(d.deps, staff.company, facility, { json: { readings } });
    await d.deps.repos.monitoring.listBatch(batch);
    now = TAKEN + 3 * MINUTE_MS - 10_000;
  });

  it("says «данные обрабатываются: N мин» on the book, the journal and «Мониторинг» while its batch is queued", async () => {
    const processing = { batches: 1, since: new Date(TAKEN).toISOString(), minutes: 3, text: "данные обрабатываются: 3 мин" };
    const book = await listGassings(d.deps, staff, { facility, from: day, to: day });
    expect(book).toMatchObject({ results: [], processing });
    expect((await operatorJournal(d.deps, staff, { facility, date: day })).processing).toEqual(processing);
    expect((await liveView(d.deps, staff, facility)).processing).toEqual(processing);
    expect(processingText(95)).toBe("данные обрабатываются: 1 ч 35 мин");
  });

  it("says nothing once the batch is read, and the book has its gassing", async () => {
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
    const book = await listGassings(d.deps, staff, { facility, from: day, to: day });
    expect(book.processing).toBeNull();
    expect(book.results).toHaveLength(1);
    expect((await operatorJournal(d.deps, staff, { facility, date: day })).processing).toBeNull();
    expect((await liveView(d.deps, staff, facility)).processing).toBeNull();
  });
});
