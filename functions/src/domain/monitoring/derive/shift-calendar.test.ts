// D90 and D99: the facility's shift calendar drives every roll-up by shift, and the
// journal's day is the mine's shift day. The journal day of tests/support/journal-day.ts at a mine that works
// four 6-hour shifts from 08:00 (from 01.03.2026): the journal of 01.03 runs 08:00 01.03 – 08:00 02.03, each
// shift with its hours in the order worked (the fourth, 02:00–08:00: 2, 3, 4, 5, 6, 7), 24 distinct hours,
// each hour's, shift's and the shift day's mean equal to this file's own reading of the valid minutes over
// them, in the xlsx's and the PDF's columns too; the 03:10 gassing of 02.03 falls in the shift day of 01.03's
// fourth shift and not in 02.03's journal; the shift report reads the calendar's shift; an event is put in the
// calendar's shift. The calendar is kept on the facility (PATCH), refused with a reason where it cannot be read.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { iso, local, meanOver, validMinutes } from "../../../../../tests/support/journal-day";
import { JOURNAL_DAY_CLOSED, journalDayOnMemory } from "../../../../../tests/support/journal-day-memory";
import type { MemoryDomain } from "../../../../../tests/support/memory-domain";
import { facilityPatchSchema } from "../../../contract/schemas/facility";
import { parseWith } from "../../../http/validate";
import { journalPdf, journalXlsx, shiftGassings } from "../../../export/journal";
import { formatNumber } from "../../../export/txt-writer";
import { patchFacility } from "../../company/facilities";
import type { Actor } from "../../context";
import { Invalid } from "../../errors";
import { listEvents } from "./events";
import { operatorJournal, type Journal } from "./journal";
import { shiftReport } from "./shift-report";

let d: MemoryDomain;
let staff: Actor;
let facility: string;
/** The shift day of 01.03 (08:00 01.03 – 08:00 02.03) and of 02.03. */
let journal: Journal;
let next: Journal;

beforeAll(async () => {
  ({ d, staff, facility } = await journalDayOnMemory("ООО «Четыре смены»", "Шахта «Сменная»", JOURNAL_DAY_CLOSED));
  const current = (await d.deps.repos.facilities.get(staff.company, facility))!;
  await d.write(() =>
    patchFacility(
      d.deps,
      staff,
      facility,
      parseWith(facilityPatchSchema, {
        version: current.version,
        shift_calendar: [{ valid_from: "2026-03-01", shifts: 4, first_start: "08:00" }],
      }),
    ),
  );
  journal = await operatorJournal(d.deps, staff, { facility, date: "2026-03-01" });
  next = await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" });
});

/** Hour `h` of the shift day of 01.03 as an instant: 8–23 of 01.03, 0–7 of 02.03 (local() counts from 02.03). */
const hourOf = (h: number) => (h >= 8 ? local(h - 24) : local(h));

describe("the facility's shift calendar (D90) and the shift day (D99)", () => {
  it("gives the journal the shift day's four shifts, each with its hours in the order worked, 24 distinct", () => {
    expect(journal.shift_list.map((s) => [s.name, s.hours])).toEqual([
      ["Смена 1 (08:00–14:00)", [8, 9, 10, 11, 12, 13]],
      ["Смена 2 (14:00–20:00)", [14, 15, 16, 17, 18, 19]],
      ["Смена 3 (20:00–02:00)", [20, 21, 22, 23, 0, 1]],
      ["Смена 4 (02:00–08:00)", [2, 3, 4, 5, 6, 7]],
    ]);
    const hours = journal.shift_list.flatMap((s) => s.hours);
    expect(new Set(hours).size).toBe(24);
    expect([journal.shift_list[0].from, journal.shift_list[3].to]).toEqual([iso(local(-16)), iso(local(8))]);
  });

  it("gives each hour's, shift's and the shift day's mean as computed independently", () => {
    for (const s of journal.sensors) {
      const valid = validMinutes(s.code);
      s.hourly.forEach((mean, h) => {
        const expected = meanOver(valid, hourOf(h), hourOf(h) + 3_600_000);
        if (expected === null) expect(mean).toBeNull();
        else expect(mean).toBeCloseTo(expected, 9);
      });
      // The readings run 23:00 01.03 – 00:30 03.03: the night shift's hours are read, not left empty.
      for (const h of [2, 3, 4, 5, 6, 7]) expect(s.hourly[h]).not.toBeNull();
      expect(s.shifts).toHaveLength(4);
      s.shifts.forEach((mean, i) => {
        const expected = meanOver(valid, local(-16 + 6 * i), local(-10 + 6 * i));
        if (expected === null) expect(mean).toBeNull();
        else expect(mean).toBeCloseTo(expected, 9);
      });
      // «За сутки»: the shift day's mean, not the calendar day's.
      expect(s.day).toBeCloseTo(meanOver(valid, local(-16), local(8))!, 9);
    }
    for (const s of next.sensors) expect(s.day).toBeCloseTo(meanOver(validMinutes(s.code), local(8), local(32))!, 9);
  });

  it("lists each gassing in the shift day and the shift it is in force in", () => {
    // 03:10 of 02.03 is in the night shift of the shift day of 01.03; 10:00 and the spike at 14:00 in 02.03's first two.
    expect(journal.gassings.map((g) => g.start)).toEqual([iso(local(3, 10))]);
    expect(journal.shift_list.map((_, i) => shiftGassings(journal, i).map((g) => g.start))).toEqual([[], [], [], [iso(local(3, 10))]]);
    expect(next.shift_list.map((_, i) => shiftGassings(next, i).map((g) => g.start))).toEqual([[iso(local(10))], [iso(local(14))], [], []]);
  });

  it("prints a sheet and a page a shift with the shift's hour columns and the shift day's mean", async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await journalXlsx(journal)) as never);
    expect(book.worksheets.map((w) => w.name)).toEqual(["Смена 1", "Смена 2", "Смена 3", "Смена 4", "Загазирования"]);
    const sheet = book.getWorksheet("Смена 4")!;
    expect(String(sheet.getCell("A1").value)).toContain("Смена 4 (02:00–08:00)");
    expect((sheet.getRow(2).values as unknown[]).slice(5, 13)).toEqual([
      "02–03",
      "03–04",
      "04–05",
      "05–06",
      "06–07",
      "07–08",
      "За смену",
      "За сутки",
    ]);
    const dir = mkdtempSync(join(tmpdir(), "journal-"));
    writeFileSync(join(dir, "j.pdf"), await journalPdf(journal));
    const night = execFileSync("pdftotext", ["-layout", join(dir, "j.pdf"), "-"], { encoding: "utf8" }).split("\f")[3];
    expect(night).toContain("Смена 4 (02:00–08:00)");
    expect(night).toMatch(/02–03\s+03–04\s+04–05\s+05–06\s+06–07\s+07–08\s+Смена\s+Сутки/);
    journal.sensors.forEach((s, i) => {
      const figures = [s.limit, ...[2, 3, 4, 5, 6, 7].map((h) => s.hourly[h]), s.shifts[3], s.day] as number[];
      const cells = (sheet.getRow(3 + i).values as unknown[]).slice(4, 4 + figures.length);
      cells.forEach((cell, k) => expect(cell as number).toBeCloseTo(figures[k], 12));
      const line = night.split("\n").find((l) => l.trimStart().startsWith(s.code))!;
      expect(line.match(/\d+,\d{2}/g)).toEqual(figures.map((f) => formatNumber(f, 2)));
    });
  });

  it("reads the shift report's shift and the events' shift from the calendar", async () => {
    const report = await shiftReport(d.deps, staff, { facility, date: "2026-03-02", shift: "2" });
    expect([report.shift_name, report.from, report.to]).toEqual([
      "Смена 2 (14:00–20:00)",
      new Date(local(14)).toISOString(),
      new Date(local(20)).toISOString(),
    ]);
    await expect(shiftReport(d.deps, staff, { facility, date: "2026-03-02", shift: "5" })).rejects.toThrow("смен в сутках 4");
    const events = await listEvents(d.deps, staff, {
      facility,
      from: new Date(local(0)).toISOString(),
      to: new Date(local(24)).toISOString(),
    });
    const early = events.results.find((e) => Date.parse(e.start) >= local(3) && Date.parse(e.start) < local(4))!;
    // 03:xx of 02.03 is before the day's first shift at 08:00: the day before's fourth.
    expect(early.shift).toEqual({ date: "2026-03-01", number: 4 });
  });

  it("is refused with the reason where it cannot be read", () => {
    expect(() =>
      parseWith(facilityPatchSchema, { version: 1, shift_calendar: [{ valid_from: "2026-03-01", shifts: 5, first_start: "06:00" }] }),
    ).toThrow(Invalid);
    expect(() =>
      parseWith(facilityPatchSchema, {
        version: 1,
        shift_calendar: [
          { valid_from: "2026-03-01", shifts: 4, first_start: "06:00" },
          { valid_from: "2026-03-01", shifts: 3, first_start: "00:00" },
        ],
      }),
    ).toThrow("два изменения календаря с одного дня");
  });
});
