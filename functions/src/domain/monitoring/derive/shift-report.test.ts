// A shift's report (D62, D64, D65) on the in-memory repositories, at UTC+7: the first shift of
// 02.03.2026 (17:00–01:00 UTC) holds a crossing of 0,9·W, W and A, a stale gap and the readings
// stopping; its figures (completeness after D60's substitution, the highest CH4, the minutes at or
// above each level), its events with an acknowledgement, the forecast part empty and said so, the
// advisory note first; written as xlsx (read back cell by cell) and as PDF.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { ADVISORY_NOTE } from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { readingsStored } from "../../../../../tests/support/reading-layout";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { shiftReportPdf, shiftReportSheets, shiftReportXlsx } from "../../../export/shift-report";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import type { Clock } from "../../../ports";
import { Invalid, NotFound } from "../../errors";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { acknowledgeEvent, listEvents } from "./events";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { shiftReport, type ShiftReport } from "./shift-report";
import { sensorCheckCreateSchema } from "../../../contract/schemas/sensor-checks";
import { recordCheck } from "../instruments/sensor-checks";

let d: MemoryDomain;
let staff: Actor;
let report: ShiftReport;

const AT = Date.UTC(2026, 2, 1, 16, 50);
const iso = (t: number) => new Date(t).toISOString();

// the shift read back from either layout. At 09:00 of 02.03 in Kemerovo the shift is
// over and its UTC days still take minutes (the facility's minute items); months later its readings are in
// the sensor's day items.
const LAYOUTS = [
  { day: "an open day (the facility's minute items)", clock: clockAt("2026-03-02T02:00:00Z"), open: true },
  { day: "a closed day (the sensors' day items)", clock: clockAt("2026-11-16T03:00:00Z"), open: false },
];
interface Read {
  d: MemoryDomain;
  staff: Actor;
  facility: string;
  report: ShiftReport;
}
const reads = new Map<boolean, Read>();

async function shiftOn(clock: Clock, company: string): Promise<Read> {
  const d = await memoryDomain(clock);
  const staff = await d.actor(company);
  const facility = (await d.facility(staff, { name: "Шахта «Сменная»", kind: "underground_mine" })).id;
  const point = await d.write(() =>
    createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
  );
  for (const body of [
    { code: "М-7", kind: "methane", point: point.id, working: "Лава 12-1", warning: 1, alarm: 2 },
    { code: "М-8", kind: "methane", point: point.id, working: "Лава 12-1", warning: 1, alarm: 2 },
    { code: "Q-1", kind: "flow", point: point.id, working: "Лава 12-1" },
  ])
    await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)));
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < 50; m++) {
    if (m >= 30 && m < 40) continue;
    const value = m < 5 ? 0.5 : m < 10 ? 0.95 : m < 15 ? 1.5 : m < 17 ? 2.2 : m < 20 ? 1.5 : 0.5;
    readings.push({ sensor: "М-7", t: iso(AT + m * MINUTE_MS + 15_000), value });
  }
  await storeBatch(d.deps, staff.company, facility, { json: { readings } });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  const alarm = (await listEvents(d.deps, staff, { facility, level: "alarm", from: "2026-03-01", to: "2026-03-03" })).results[0];
  await acknowledgeEvent(d.deps, staff, alarm.id, { comment: "Проветривание усилено" });
  return { d, staff, facility, report: await shiftReport(d.deps, staff, { facility, date: "2026-03-02", shift: "1" }) };
}

beforeAll(async () => {
  for (const { clock, open } of LAYOUTS) reads.set(open, await shiftOn(clock, open ? "ООО «Смена сегодня»" : "ООО «Смена»"));
  // The files and the sensor's fault are read on the closed day alone.
  ({ d, staff, report } = reads.get(false)!);
});

describe.each(LAYOUTS)("the shift's figures on $day", ({ open }) => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility: string;
  let report: ShiftReport;
  beforeAll(() => {
    ({ d, staff, facility, report } = reads.get(open)!);
  });

  it(`keeps the shift's readings in the ${open ? "minute" : "day"} items`, async () => {
    // М-7's 40 minutes of the shift's first day: 16:50–17:40 UTC of 01.03, 10 minutes stale.
    const stored = await readingsStored(d.deps.repos, staff.company, facility, "2026-03-01");
    expect(stored).toEqual(open ? { minuteItems: 40, dayItems: 0 } : { minuteItems: 0, dayItems: 40 });
  });

  it("cuts the shift on the company's clock: 00:00–08:00 at UTC+7", () => {
    expect(report).toMatchObject({ facility: "Шахта «Сменная»", date: "2026-03-02", shift: 1, running: false });
    expect([report.from, report.to]).toEqual(["2026-03-01T17:00:00.000Z", "2026-03-02T01:00:00.000Z"]);
  });

  it("gives per methane sensor the completeness, the highest CH4 and the minutes above each level", () => {
    expect(report.rows).toEqual([
      // 30 valid minutes; the gaps (10 and 440 minutes) substituted by D60, so the shift is complete.
      {
        working: "Лава 12-1",
        sensor_code: "М-7",
        warning: 1,
        alarm: 2,
        completeness: 1,
        max: 2.2,
        above: { pre_warning: 10, warning: 10, alarm: 2 },
        doubt_minutes: 0,
        doubt: null,
      },
      {
        working: "Лава 12-1",
        sensor_code: "М-8",
        warning: 1,
        alarm: 2,
        completeness: 0,
        max: null,
        above: { pre_warning: 0, warning: 0, alarm: 0 },
        doubt_minutes: 0,
        doubt: null,
      },
    ]);
  });

  it("lists the events overlapping the shift with their acknowledgements, and no forecast events", () => {
    expect(report.events.map((e) => [e.kind, e.level, e.start.slice(11, 16)])).toEqual([
      ["threshold", "pre_warning", "16:55"],
      ["threshold", "warning", "17:00"],
      ["threshold", "alarm", "17:05"],
      ["stale", null, "17:20"],
      ["stale", null, "17:40"],
    ]);
    expect(report.events[2]).toMatchObject({ acknowledged_by: "ФИО не указано в профиле", comment: "Проветривание усилено" });
    expect(report.forecasts).toEqual([]);
  });

  it("refuses a shift that is none, one not begun, and another company's facility", async () => {
    await expect(shiftReport(d.deps, staff, { facility, date: "2026-03-02", shift: "4" })).rejects.toThrow(Invalid);
    await expect(shiftReport(d.deps, staff, { facility, date: "2026-02-30", shift: "1" })).rejects.toThrow("нет такой даты");
    await expect(shiftReport(d.deps, staff, { facility, date: "2099-01-01", shift: "1" })).rejects.toThrow("еще не началась");
    const stranger = await d.actor("ООО «Чужая смена»");
    await expect(shiftReport(d.deps, stranger, { facility, date: "2026-03-02", shift: "1" })).rejects.toThrow(NotFound);
  });
});

describe("the files", () => {
  it("writes the xlsx: the advisory note first, the figures and the events on the company's clock", async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await shiftReportXlsx(report)) as never);
    expect(book.worksheets.map((w) => w.name)).toEqual(["Выработки", "Загазирования", "События", "Прогнозные события"]);
    const workings = book.getWorksheet("Выработки")!;
    expect(String(workings.getCell("A1").value)).toContain("Смена 1 (00:00–08:00) 02.03.2026");
    expect(String(workings.getCell("A1").value)).toContain(ADVISORY_NOTE);
    expect(workings.getRow(3).values).toEqual([undefined, "Лава 12-1", "М-7", 1, 2, 100, 2.2, 10, 10, 2, 0]);
    const events = book.getWorksheet("События")!;
    const alarm = events.getRow(5).values as unknown[];
    expect(alarm.slice(1, 9)).toEqual(["Лава 12-1", "М-7", "Превышение", "Аварийный (A)", "02.03.2026 00:05", "02.03.2026 00:07", 2.2, 2]);
    expect(alarm.slice(9, 12)).toEqual([
      "ФИО не указано в профиле",
      expect.stringMatching(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/),
      "Проветривание усилено",
    ]);
    expect((events.getRow(7).values as unknown[]).slice(3, 7)).toEqual(["Нет данных", "—", "02.03.2026 00:40", "продолжается"]);
    expect(book.getWorksheet("Прогнозные события")!.rowCount).toBe(2);
  });

  // the demo mine's shift report did not say its readings are simulated.
  it("says «демонстрационные данные» on every sheet's title and the PDF's where the readings are the demo's", async () => {
    expect(report.demo).toBe(false);
    const demo = { ...report, demo: true };
    expect(shiftReportSheets(demo).map((sheet) => sheet.title?.includes("(демонстрационные данные)"))).toEqual([true, true, true, true]);
    expect(shiftReportSheets(report).some((sheet) => sheet.title?.includes("демонстрационные данные"))).toBe(false);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await shiftReportXlsx(demo)) as never);
    expect(String(book.getWorksheet("Выработки")!.getCell("A1").value)).toContain("(демонстрационные данные)");
    expect((await shiftReportPdf(demo)).byteLength).toBeGreaterThan((await shiftReportPdf(report)).byteLength);
  });

  it("writes a PDF", async () => {
    const pdf = await shiftReportPdf(report);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe("%PDF-");
    expect(pdf.byteLength).toBeGreaterThan(5_000);
    expect(shiftReportSheets(report)[3].title).toContain("P(C(t+h) ≥ уровня) ≥ 0,5");
  });
});

// a reading out of the meter's range is a sensor fault in the shift's report.
describe("a sensor's fault in the report", () => {
  it("lists «Неисправность датчика» with its minutes among the shift's events and in the xlsx", async () => {
    const owner = await d.actor("ООО «Неисправная смена»");
    const mine = (await d.facility(owner, { name: "Шахта «Неисправная»", kind: "underground_mine" })).id;
    const point = await d.write(() =>
      createPoint(d.deps, owner, mine, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
    );
    const body = { code: "М-9", kind: "methane", point: point.id, working: "Лава 3", warning: 1, alarm: 2 };
    await d.write(() => createSensor(d.deps, owner, mine, parseWith(sensorCreateSchema, body)));
    const readings = Array.from({ length: 20 }, (_, m) => ({
      sensor: "М-9",
      t: iso(AT + 10 * MINUTE_MS + m * MINUTE_MS + 15_000),
      value: m >= 5 && m < 9 ? 4.5 : 0.4,
    }));
    await storeBatch(d.deps, owner.company, mine, { json: { readings } });
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
    const faulty = await shiftReport(d.deps, owner, { facility: mine, date: "2026-03-02", shift: "1" });
    expect(faulty.events.filter((e) => e.kind !== "stale").map((e) => [e.kind, e.start.slice(11, 16), e.minutes_above, e.fault])).toEqual([
      ["fault", "17:05", 4, { range_minutes: 4, jump_minutes: 0 }],
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await shiftReportXlsx(faulty)) as never);
    const row = (book.getWorksheet("События")!.getRow(3).values as unknown[]).slice(1, 9);
    expect(row).toEqual([
      "Лава 3",
      "М-9",
      "Неисправность датчика",
      "вне диапазона датчика 4 мин",
      "02.03.2026 00:05",
      "02.03.2026 00:09",
      undefined,
      4,
    ]);
  });
});

// D94: the shift counts each sensor's minutes «под сомнением».
describe("minutes «под сомнением» in the report", () => {
  it("counts a sensor's minutes after its failed check, in the rows, the xlsx and the PDF, its figures unchanged", async () => {
    const { facility } = reads.get(false)!;
    const electrician = await d.colleague(staff, {
      email: "electrician-shift@example.com",
      first_name: "Андрей",
      last_name: "Сидоров",
      duty: "agk_electrician",
    });
    const m7 = (await d.deps.repos.sensors.listOfFacility(staff.company, facility)).find((s) => s.code === "М-7")!.id;
    // 05:00 of 02.03 in Kemerovo: 180 minutes of the shift (to 08:00) follow the failed check.
    await recordCheck(
      d.deps,
      electrician,
      facility,
      m7,
      parseWith(sensorCheckCreateSchema, {
        at: "2026-03-02T05:00:00+07:00",
        kind: "planned",
        button_test_ok: false,
        result: "failed",
        fault: "Не работает кнопка «Контроль»",
      }),
    );
    const flagged = await shiftReport(d.deps, staff, { facility: facility, date: "2026-03-02", shift: "1" });
    const text = "показания под сомнением: датчик не прошел проверку 02.03.2026 — 180 мин";
    expect(flagged.rows.map((r) => [r.sensor_code, r.doubt_minutes, r.doubt])).toEqual([
      ["М-7", 180, text],
      ["М-8", 0, null],
    ]);
    // Kept and used: the figures are those without the flag.
    expect(flagged.rows.map(({ doubt_minutes: _m, doubt: _d, ...rest }) => rest)).toEqual(
      report.rows.map(({ doubt_minutes: _m, doubt: _d, ...rest }) => rest),
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await shiftReportXlsx(flagged)) as never);
    const workings = book.getWorksheet("Выработки")!;
    expect((workings.getRow(2).values as unknown[]).slice(10, 12)).toEqual(["Минут под сомнением", "Показания под сомнением"]);
    expect((workings.getRow(3).values as unknown[]).slice(10, 12)).toEqual([180, text]);
    const lines = [...(shiftReportSheets(flagged)[0].rows as Iterable<unknown[]>)];
    expect(lines[1].slice(9)).toEqual([0, null]);
    expect((await shiftReportPdf(flagged)).byteLength).toBeGreaterThan((await shiftReportPdf(report)).byteLength);
  });
});

// The shift report of the shift with a face meter's 4,5 % jump gave «макс. 0,50 %, минут ≥ A: 0» and no
// gassing, while the journal's book had it: the report reads every minute mean (D88) and lists the book's
// gassings in force during the shift, in its xlsx and its PDF too.
describe("a face meter's 4,5 % jump in the shift report (D88)", () => {
  let jumped: ShiftReport;
  const START = Date.UTC(2026, 2, 1, 17, 0); // 00:00 of 02.03 at UTC+7: the first shift's start.
  beforeAll(async () => {
    const d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
    const staff = await d.actor("ООО «Скачок»");
    const facility = (await d.facility(staff, { name: "Шахта «Скачок»", kind: "underground_mine" })).id;
    const body = { code: "М-З", kind: "methane", working: "Лава 3", place: "face", warning: 1, alarm: 1.5 };
    await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)));
    const readings = Array.from({ length: 120 }, (_, m) => ({
      sensor: "М-З",
      t: iso(START + m * MINUTE_MS + 20_000),
      value: m === 60 ? 4.5 : 0.5,
    }));
    await storeBatch(d.deps, staff.company, facility, { json: { readings } });
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
    jumped = await shiftReport(d.deps, staff, { facility, date: "2026-03-02", shift: "1" });
  });

  it("gives the meter's maximum and its minutes at A of every minute mean", () => {
    expect(jumped.rows).toMatchObject([{ sensor_code: "М-З", max: 4.5, above: { pre_warning: 1, warning: 1, alarm: 1 } }]);
  });

  it("lists the gassing in force during the shift as the book has it", async () => {
    expect(jumped.gassings.map((g) => [g.sensors, g.kind, g.start, g.end, g.max, g.over_span, g.sudden, g.limits])).toEqual([
      [["М-З"], "местное", iso(START + 60 * MINUTE_MS), iso(START + 61 * MINUTE_MS), 4.5, 4, true, [1]],
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await shiftReportXlsx(jumped)) as never);
    const sheet = book.getWorksheet("Загазирования")!;
    // In the book's columns, its start and end dates the spreadsheet reads (the company's wall time).
    expect(sheet.getRow(3).getCell(2).numFmt).toBe("dd.mm.yyyy hh:mm");
    expect((sheet.getRow(3).values as unknown[]).slice(1, 4)).toEqual([
      1,
      new Date(Date.UTC(2026, 2, 2, 1, 0)),
      new Date(Date.UTC(2026, 2, 2, 1, 1)),
    ]);
    const dir = mkdtempSync(join(tmpdir(), "shift-report-"));
    writeFileSync(join(dir, "r.pdf"), await shiftReportPdf(jumped));
    const text = execFileSync("pdftotext", ["-layout", join(dir, "r.pdf"), "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain("Загазирования смены");
    expect(text).toContain("М-З (Лава 3): местное, с 02.03.2026 01:00 до 02.03.2026 01:01, максимум более 4 %");
    expect(text).toContain("при норме 1,00 %");
    expect(text).not.toContain("макс. CH4 0,50 %");
  });
});
