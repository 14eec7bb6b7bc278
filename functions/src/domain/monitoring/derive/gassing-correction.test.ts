// D97: one gassing, one row, whatever the corrections. A new user's mine on the in-memory repositories,
// wing-return meters (norm 0,75 %) each in a working of its own, readings of 02.03.2026 (UTC+7), then the
// mine's gateway pushing corrected readings and the original file loaded again:
// - Ш-1 at 0,80 % 10:00–10:14: a push puts its first minute at 0,60 % (the gassing now 10:01–10:15), then
//   the original readings again restore it: one row as found, two corrections, the second «как обнаружено»;
// - Ш-2 at 1,20 % from 11:00, open: a push raises 11:05 to 1,50 %: a correction (the found 1,20 % kept),
//   whose `after` then follows the gassing to its end at a minute not read before;
// - Ш-3 at 2,50 % 13:00–13:49, closed by the dispatcher: a push gives 3,10 % to 14:11 — the entry keeps
//   2,50 % to 13:50, closed, and lists the correction «после закрытия» with what the readings now say;
// - Ш-4: two entries a correction split before D97 (stored so), shown as one row, both kept.
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { gassingBookPdf, gassingBookXlsx } from "../../../export/gassing-book";
import type { Actor } from "../../context";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { registerGassing } from "./gassing-book";
import { listGassings } from "./journal";

const ALL_NOTIFIED = { chief_engineer: true, head_ab: true, head_section: true, rostekhnadzor: true };

/** 00:00 of 02.03.2026 at UTC+7. */
const DAY = Date.UTC(2026, 2, 1, 17, 0);
const local = (h: number, m = 0) => DAY + (h * 60 + m) * MINUTE_MS;
const iso = (t: number) => new Date(t).toISOString();
const at = (h: number, m: number) => iso(local(h, m));

/** Two readings a minute (:00 and :30) of `code` over local minutes [from, to) of the day, `value(m)`. */
const readings = (code: string, from: number, to: number, value: (m: number) => number) =>
  Array.from({ length: to - from }, (_, i) => from + i).flatMap((m) =>
    [0, 30].map((s) => ({ sensor: code, t: iso(local(0, m) + s * 1000), value: value(m) })),
  );

const H = 60;
const ORIGINAL = {
  "Ш-1": readings("Ш-1", 9 * H + 40, 10 * H + 40, (m) => (m >= 10 * H && m < 10 * H + 15 ? 0.8 : 0.2)),
  "Ш-2": readings("Ш-2", 10 * H + 40, 11 * H + 11, (m) => (m >= 11 * H ? 1.2 : 0.2)),
  "Ш-3": readings("Ш-3", 12 * H + 40, 14 * H + 30, (m) => (m >= 13 * H && m < 13 * H + 50 ? 2.5 : 0.2)),
};

let d: MemoryDomain;
let staff: Actor;
let closer: Actor;
let facility: string;
const book = () => listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" });
const list = async () => (await book()).results;
const rowsOf = async (code: string) => (await list()).filter((g) => g.sensors.includes(code));

async function push(json: { readings: unknown[] }, sentBy: string) {
  const stored = await storeBatch(d.deps, staff.company, facility, { json }, undefined, { sentBy });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  return stored.batch;
}

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-03-03T03:00:00Z"));
  staff = await d.actor("ООО «Исправления»");
  closer = staff;
  facility = (await d.facility(staff, { name: "Шахта «Крыло»", kind: "underground_mine" })).id;
  for (const [i, code] of ["Ш-1", "Ш-2", "Ш-3", "Ш-4"].entries())
    await d.write(() =>
      createSensor(
        d.deps,
        staff,
        facility,
        parseWith(sensorCreateSchema, { code, kind: "methane", working: `Вентиляционный штрек крыла ${i + 1}`, place: "wing_return" }),
      ),
    );
  await push({ readings: [...ORIGINAL["Ш-1"], ...ORIGINAL["Ш-2"], ...ORIGINAL["Ш-3"]] }, "Иванова А. П.");
});

describe("a correction adds to the entry it touches (D97)", () => {
  it("keeps one row when a push corrects the first minute, and a re-upload restoring it adds a correction «как обнаружено»", async () => {
    const [found] = await rowsOf("Ш-1");
    expect([found.start, found.end, found.max, found.limits]).toEqual([at(10, 0), at(10, 15), 0.8, [0.75]]);
    const batch = await push({ readings: readings("Ш-1", 10 * H, 10 * H + 1, () => 0.6) }, "ключ шлюза «Шлюз АГК»");
    const corrected = await rowsOf("Ш-1");
    // Not a second entry 10:01–10:15 beside one saying «загазирования нет»: one row, as found.
    expect(corrected.map((g) => [g.id, g.start, g.end, g.max])).toEqual([[found.id, at(10, 0), at(10, 15), 0.8]]);
    expect(corrected[0].corrections).toEqual([
      {
        at: expect.any(String),
        batch,
        batches: [batch],
        sent_by: "ключ шлюза «Шлюз АГК»",
        before: { start: at(10, 0), end: at(10, 15), max: 0.8 },
        after: { start: at(10, 1), end: at(10, 15), max: 0.8 },
        after_closing: false,
      },
    ]);
    const again = await push({ readings: ORIGINAL["Ш-1"] }, "Иванова А. П.");
    const restored = await rowsOf("Ш-1");
    expect(restored.map((g) => [g.id, g.start, g.end, g.max])).toEqual([[found.id, at(10, 0), at(10, 15), 0.8]]);
    expect(restored[0].corrections.map((c) => [c.batch, c.sent_by, c.after])).toEqual([
      [batch, "ключ шлюза «Шлюз АГК»", { start: at(10, 1), end: at(10, 15), max: 0.8 }],
      [again, "Иванова А. П.", { start: at(10, 0), end: at(10, 15), max: 0.8 }],
    ]);
    // The same batch published again adds nothing.
    await push({ readings: ORIGINAL["Ш-1"] }, "Иванова А. П.");
    expect((await rowsOf("Ш-1"))[0].corrections).toHaveLength(2);
  });

  it("adds a correction when a push raises an open entry's maximum, keeps 1,20 % as found, and follows the gassing to its end", async () => {
    const [found] = await rowsOf("Ш-2");
    expect([found.start, found.end, found.max]).toEqual([at(11, 0), null, 1.2]);
    const batch = await push({ readings: readings("Ш-2", 11 * H + 5, 11 * H + 6, () => 1.5) }, "ключ шлюза «Шлюз АГК»");
    const raised = await rowsOf("Ш-2");
    expect(raised.map((g) => [g.id, g.start, g.end, g.max])).toEqual([[found.id, at(11, 0), null, 1.2]]);
    expect(raised[0].corrections.map((c) => [c.batch, c.before, c.after])).toEqual([
      [batch, { start: at(11, 0), end: null, max: 1.2 }, { start: at(11, 0), end: null, max: 1.5 }],
    ]);
    // The gassing goes on, then ends at minutes not read before: it lasted — the correction's `after`
    // follows it, no second correction.
    await push({ readings: readings("Ш-2", 11 * H + 11, 11 * H + 30, (m) => (m < 11 * H + 20 ? 1.2 : 0.2)) }, "ключ шлюза «Шлюз АГК»");
    const ended = await rowsOf("Ш-2");
    expect(ended.map((g) => [g.id, g.start, g.end, g.max])).toEqual([[found.id, at(11, 0), null, 1.2]]);
    expect(ended[0].corrections.map((c) => c.after)).toEqual([{ start: at(11, 0), end: at(11, 20), max: 1.5 }]);
  });

  it("never reopens a closed entry: the correction to 3,10 % until 14:11 is listed «после закрытия», printed in the book's files", async () => {
    const [found] = await rowsOf("Ш-3");
    expect([found.start, found.end, found.max]).toEqual([at(13, 0), at(13, 50), 2.5]);
    await registerGassing(d.deps, closer, found.id, {
      notified: ALL_NOTIFIED,
      cause: "Суфляр",
      type: "technological",
      measures: "Увеличена подача воздуха",
      onset: "other",
      close: true,
    });
    const batch = await push({ readings: readings("Ш-3", 13 * H, 14 * H + 11, () => 3.1) }, "ключ шлюза «Шлюз АГК»");
    const rows = await rowsOf("Ш-3");
    expect(rows.map((g) => [g.id, g.start, g.end, g.max, g.closed])).toEqual([[found.id, at(13, 0), at(13, 50), 2.5, true]]);
    expect(rows[0].corrections.map((c) => [c.batch, c.before, c.after, c.after_closing])).toEqual([
      [batch, { start: at(13, 0), end: at(13, 50), max: 2.5 }, { start: at(13, 0), end: at(14, 11), max: 3.1 }, true],
    ]);
    // The book's xlsx prints the found figures and the correction after closing.
    const file = new ExcelJS.Workbook();
    await file.xlsx.load(Buffer.from(await gassingBookXlsx(await book())) as never);
    const sheet = file.getWorksheet("Книга загазирований")!;
    const lines: string[] = [];
    sheet.eachRow((row) => lines.push((row.values as unknown[]).map(String).join(" | ")));
    const row = lines.find((l) => l.includes("Ш-3"))!;
    expect(row).toContain("показания исправлены после обнаружения: после закрытия, ");
    expect(row).toContain(
      "было с 02.03.2026 13:00 до 02.03.2026 13:50, макс. 2,50 %, стало: с 02.03.2026 13:00 до 02.03.2026 14:11, макс. 3,10 %",
    );
    const first = lines.find((l) => l.includes("Ш-1"))!;
    expect(first).toContain("стало: с 02.03.2026 10:01 до 02.03.2026 10:15, макс. 0,80 %");
    expect(first).toContain("стало: с 02.03.2026 10:00 до 02.03.2026 10:15, макс. 0,80 % (как обнаружено)");
    // The PDF is made from the same rows.
    expect((await gassingBookPdf(await book())).byteLength).toBeGreaterThan(1000);
  });

  it("shows two entries a correction split before D97 as one gassing, the later as made by the correction, both kept", async () => {
    const sensors = ["Ш-4"];
    const common = {
      company: staff.company,
      facility,
      notified: {},
      comment: "",
      closed: false,
      closed_by: null,
      closed_at: null,
      version: 1,
    };
    const found = (end: string, max: number) => ({
      end,
      max,
      max_at: at(10, 5),
      sensors,
      places: ["Исходящая струя крыла"],
      limits: [0.75],
      working: "Вентиляционный штрек крыла 4",
      section: "Вентиляционный штрек крыла 4",
      kind: "местное" as const,
    });
    await d.deps.repos.gassings.create({
      ...common,
      id: `${facility}.s4.g.a`,
      start: at(10, 0),
      registered_by: "",
      registered_at: "",
      found_at: at(10, 16),
      found: found(at(10, 15), 0.8),
      corrections: [{ at: "2026-03-02T03:20:00.000Z", batches: ["b1"], sent_by: null, before: { end: at(10, 15), max: 0.8 }, after: null }],
    });
    await d.deps.repos.gassings.create({
      ...common,
      id: `${facility}.s4.g.b`,
      start: at(10, 1),
      registered_by: staff.email,
      registered_at: "2026-03-02T03:30:00.000Z",
      found_at: "2026-03-02T03:20:00.000Z",
      found: found(at(10, 15), 0.8),
    });
    const rows = await rowsOf("Ш-4");
    expect(rows.map((g) => [g.id, g.start, g.end])).toEqual([[`${facility}.s4.g.a`, at(10, 0), at(10, 15)]]);
    expect(rows[0].split_entries.map((e) => [e.id, e.start, e.end, e.max, e.registered_by !== null])).toEqual([
      [`${facility}.s4.g.b`, at(10, 1), at(10, 15), 0.8, true],
    ]);
    // Both registrations are kept as they were.
    expect(await d.deps.repos.gassings.get(staff.company, `${facility}.s4.g.b`)).toMatchObject({ registered_by: staff.email });
    const file = new ExcelJS.Workbook();
    await file.xlsx.load(Buffer.from(await gassingBookXlsx(await book())) as never);
    const lines: string[] = [];
    file.getWorksheet("Книга загазирований")!.eachRow((row) => lines.push((row.values as unknown[]).map(String).join(" | ")));
    expect(lines.filter((l) => l.includes("Ш-4"))).toHaveLength(1);
    expect(lines.find((l) => l.includes("Ш-4"))).toContain("запись от 02.03.2026 10:01 создана исправлением показаний");
  });
});
