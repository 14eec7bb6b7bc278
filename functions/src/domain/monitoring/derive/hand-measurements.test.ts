// D105 on the in-memory repositories: a hand measurement of 1,3 % beside a meter reading 0,6 % opens one
// `suspect` event on the meter (reason `hand`) whose minutes are «под сомнением» until the meter's next
// passed check, which closes it; one within ±0,2 % opens none; a correction is a new record naming the
// one it corrects (once), which takes back the event nobody answered; bad input is refused at its field
// (out of the instrument's range, a time to come, a meter of another facility); another company's user
// finds none of it.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { handMeasurementCreateSchema } from "../../../contract/schemas/readings-audit";
import { sensorCheckCreateSchema } from "../../../contract/schemas/sensor-checks";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { Conflict, Forbidden, Invalid, NotFound } from "../../errors";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { facilityDoubt } from "../minutes/doubt";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { listEvents } from "./events";
import { listHandMeasurements, recordHandMeasurement } from "./hand-measurements";
import { recordCheck } from "../instruments/sensor-checks";

const AT = Date.UTC(2026, 2, 2, 3, 0); // 02.03.2026 10:00 in Kemerovo
const NOW = AT + 3 * 3_600_000;
const iso = (t: number) => new Date(t).toISOString();
let d: MemoryDomain;

interface Mine {
  staff: Actor;
  facility: string;
  meter: string;
}

async function mine(name: string): Promise<Mine> {
  const staff = await d.actor(name);
  const facility = (await d.facility(staff, { name: "Шахта «Замерная»", kind: "underground_mine" })).id;
  const meter = await d.write(() =>
    createSensor(
      d.deps,
      staff,
      facility,
      parseWith(sensorCreateSchema, {
        code: "М-1",
        kind: "methane",
        working: "Лава 12-1",
        place: "section_return",
        warning: 1,
        alarm: 1.3,
      }),
    ),
  );
  // The meter reads 0,6 % for an hour from 10:00.
  const readings = Array.from({ length: 60 }, (_, m) => ({ sensor: "М-1", t: iso(AT + m * MINUTE_MS + 30_000), value: 0.6 }));
  await storeBatch(d.deps, staff.company, facility, { json: { readings } });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  return { staff, facility, meter: meter.id };
}

const body = (m: Mine, over: Record<string, unknown> = {}) =>
  parseWith(handMeasurementCreateSchema, {
    instrument: "ШИ-11",
    instrument_number: "1234",
    place: "Вентиляционный штрек 12-1, у датчика М-1",
    sensor: m.meter,
    value_pct: 1.3,
    measured_at: "2026-03-02T10:15",
    ...over,
  });

const suspects = async (m: Mine) =>
  (await listEvents(d.deps, m.staff, { facility: m.facility, from: "2026-03-01", to: "2026-03-03", kind: "suspect" })).results;

let first: Mine;

beforeAll(async () => {
  d = await memoryDomain(clockAt(NOW));
  first = await mine("ООО «Замеры»");
});

describe("a hand measurement against its fixed meter (D105)", () => {
  it("of 1,3 % beside a meter reading 0,6 % opens one suspect event on the meter, its minutes in doubt", async () => {
    const written = await recordHandMeasurement(d.deps, first.staff, first.facility, body(first));
    expect(written).toMatchObject({
      sensor_code: "М-1",
      working: "Лава 12-1",
      value_pct: 1.3,
      measured_at: iso(AT + 15 * MINUTE_MS),
      compared: { meter_pct: 0.6, difference_pct: 0.7, permitted_pct: 0.2, differs: true, at: iso(AT + 15 * MINUTE_MS) },
      text: "расходится с датчиком М-1 (0,60 %) на 0,70 % при допуске ±0,20 %",
    });
    expect(written.recorded_by).not.toContain("@");
    const events = await suspects(first);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      sensor: first.meter,
      kind: "suspect",
      start: iso(AT + 15 * MINUTE_MS),
      end: null,
      suspect: { reason: "hand", text: "ручной замер ШИ-11 № 1234: 1,30 %, датчик 0,60 % (допуск ±0,20 %)" },
    });
    // «под сомнением» from 10:15 to the end of the hour asked: 45 minutes.
    const doubt = await facilityDoubt(d.deps, first.staff.company, first.facility, AT - 86_400_000, "Asia/Novokuznetsk");
    expect(doubt(first.meter, AT, AT + 60 * MINUTE_MS).minutes).toBe(45);
  });

  it("stays in doubt until the meter's next passed check, which closes the event", async () => {
    const electrician = await d.colleague(first.staff, {
      email: "electrician-hand@example.com",
      first_name: "Андрей",
      last_name: "Сидоров",
      duty: "agk_electrician",
    });
    await recordCheck(
      d.deps,
      electrician,
      first.facility,
      first.meter,
      parseWith(sensorCheckCreateSchema, { at: "2026-03-02T11:00", kind: "planned", result: "passed" }),
    );
    const [event] = await suspects(first);
    expect(event).toMatchObject({ end: iso(AT + 60 * MINUTE_MS), minutes_above: 45 });
    const doubt = await facilityDoubt(d.deps, first.staff.company, first.facility, AT - 86_400_000, "Asia/Novokuznetsk");
    expect(doubt(first.meter, AT, AT + 120 * MINUTE_MS).minutes).toBe(45);
  });

  it("within ±0,2 % of the meter opens none", async () => {
    const other = await mine("ООО «Совпало»");
    const written = await recordHandMeasurement(d.deps, other.staff, other.facility, body(other, { value_pct: 0.75 }));
    expect(written.compared).toMatchObject({ differs: false });
    expect(written.text).toBe("совпадает с датчиком М-1 (0,60 %) в пределах ±0,20 %");
    expect(await suspects(other)).toEqual([]);
  });

  it("is corrected by a new record naming it, once; the correction takes back the event nobody answered", async () => {
    const other = await mine("ООО «Исправлено»");
    const wrong = await recordHandMeasurement(d.deps, other.staff, other.facility, body(other));
    expect(await suspects(other)).toHaveLength(1);
    const right = await recordHandMeasurement(d.deps, other.staff, other.facility, body(other, { value_pct: 0.65, corrects: wrong.id }));
    expect(right).toMatchObject({ corrects: wrong.id, compared: { differs: false } });
    expect(await suspects(other)).toEqual([]);
    await expect(
      recordHandMeasurement(d.deps, other.staff, other.facility, body(other, { value_pct: 0.6, corrects: wrong.id })),
    ).rejects.toThrow(Conflict);
    const { results } = await listHandMeasurements(d.deps, other.staff, other.facility, { from: "2026-03-02", to: "2026-03-02" });
    // Both kept, never edited: the first names the one that corrects it.
    expect(results.map((r) => [r.value_pct, r.corrects, r.corrected_by])).toEqual([
      [0.65, wrong.id, null],
      [1.3, null, right.id],
    ]);
  });

  it("refuses bad input at its field", async () => {
    const record = (over: Record<string, unknown>) => recordHandMeasurement(d.deps, first.staff, first.facility, body(first, over));
    await expect(record({ value_pct: 7 })).rejects.toThrow("Метан, % об.: вне диапазона прибора ШИ-11: 0–6 %");
    await expect(record({ measured_at: "2026-03-02T14:00" })).rejects.toThrow("Время замера: время замера еще не наступило");
    const stranger = await mine("ООО «Соседи»");
    const refusal = await record({ sensor: stranger.meter }).catch((error: Invalid) => error);
    expect(refusal).toBeInstanceOf(Invalid);
    expect((refusal as Invalid).problems?.map((p) => p.field)).toEqual(["sensor"]);
    expect(() => body(first, { instrument: "ШИ-99" })).toThrow(/прибор: ШИ-10, ШИ-11, ШИ-12/);
  });

  it("is not another company's, and a reviewer records none", async () => {
    const stranger = await d.actor("ООО «Чужие замеры»");
    await expect(listHandMeasurements(d.deps, stranger, first.facility, {})).rejects.toThrow(NotFound);
    await expect(recordHandMeasurement(d.deps, stranger, first.facility, body(first))).rejects.toThrow(NotFound);
    const reviewer = { ...first.staff, role: "reviewer" as const };
    await expect(recordHandMeasurement(d.deps, reviewer, first.facility, body(first))).rejects.toThrow(Forbidden);
  });
});
