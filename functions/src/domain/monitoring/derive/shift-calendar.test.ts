// Issue 114, item 5 (D90): the facility's shift calendar drives every roll-up by shift. The journal day of
// tests/support/journal-day.ts at a mine that works four 6-hour shifts from 06:00 (from 01.03.2026): the
// journal gives four shift means (equal to this file's own reading of the valid minutes over each
// shift's hours) and four shift sheets; the day's gassings fall in the shifts they are in force in; the
// shift report reads the calendar's shift; an event is put in the calendar's shift. The calendar is kept
// on the facility (PATCH), refused with a reason where it cannot be read.
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { local, meanOver, validMinutes } from "../../../../../tests/support/journal-day";
import { JOURNAL_DAY_CLOSED, journalDayOnMemory } from "../../../../../tests/support/journal-day-memory";
import type { MemoryDomain } from "../../../../../tests/support/memory-domain";
import { facilityPatchSchema } from "../../../contract/schemas/facility";
import { parseWith } from "../../../http/validate";
import { journalXlsx, shiftGassings } from "../../../export/journal";
import { patchFacility } from "../../company/facilities";
import type { Actor } from "../../context";
import { Invalid } from "../../errors";
import { listEvents } from "./events";
import { operatorJournal, type Journal } from "./journal";
import { shiftReport } from "./shift-report";

let d: MemoryDomain;
let staff: Actor;
let facility: string;
let journal: Journal;

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
        shift_calendar: [{ valid_from: "2026-03-01", shifts: 4, first_start: "06:00" }],
      }),
    ),
  );
  journal = await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" });
});

describe("the facility's shift calendar (D90)", () => {
  it("gives the journal four shifts of 6 hours from 06:00, each sensor's four shift means as computed independently", () => {
    expect(journal.shift_list.map((s) => [s.name, s.hours.length])).toEqual([
      ["Смена 1 (06:00–12:00)", 6],
      ["Смена 2 (12:00–18:00)", 6],
      ["Смена 3 (18:00–24:00)", 6],
      // The fourth runs 00:00–06:00 of the next day: none of this day's hours.
      ["Смена 4 (00:00–06:00)", 0],
    ]);
    for (const s of journal.sensors) {
      const valid = validMinutes(s.code);
      expect(s.shifts).toHaveLength(4);
      s.shifts.forEach((mean, i) => expect(mean).toBeCloseTo(meanOver(valid, local(6 + 6 * i), local(12 + 6 * i))!, 9));
    }
  });

  it("prints a sheet a shift, and lists each gassing in the shift it is in force in", async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await journalXlsx(journal)) as never);
    expect(book.worksheets.map((w) => w.name)).toEqual(["Смена 1", "Смена 2", "Смена 3", "Смена 4", "Загазирования"]);
    expect(String(book.getWorksheet("Смена 2")!.getCell("A1").value)).toContain("Смена 2 (12:00–18:00)");
    // 03:10 and the spike at 14:00 are in the day before's fourth shift and this day's second; 10:00 in its first.
    expect(journal.shift_list.map((_, i) => shiftGassings(journal, i).map((g) => g.start))).toEqual([
      [journal.gassings[1].start],
      [journal.gassings[2].start],
      [],
      [],
    ]);
  });

  it("reads the shift report's shift and the events' shift from the calendar", async () => {
    const report = await shiftReport(d.deps, staff, { facility, date: "2026-03-02", shift: "2" });
    expect([report.shift_name, report.from, report.to]).toEqual([
      "Смена 2 (12:00–18:00)",
      new Date(local(12)).toISOString(),
      new Date(local(18)).toISOString(),
    ]);
    await expect(shiftReport(d.deps, staff, { facility, date: "2026-03-02", shift: "5" })).rejects.toThrow("смен в сутках 4");
    const events = await listEvents(d.deps, staff, {
      facility,
      from: new Date(local(0)).toISOString(),
      to: new Date(local(24)).toISOString(),
    });
    const early = events.results.find((e) => Date.parse(e.start) >= local(3) && Date.parse(e.start) < local(4))!;
    // 03:xx of 02.03 is before the day's first shift at 06:00: the day before's fourth.
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
