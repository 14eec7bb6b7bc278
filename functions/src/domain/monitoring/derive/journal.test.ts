// the АГК operator's journal of a company day on the in-memory repositories, over
// tests/support/journal-day.ts (a general and a local gassing, a spike set aside, a gap). The hourly, shift and day means equal this file's own computation from the
// readings to 1e-9, read from the day's minute items while it is open and from its day items once closed;
// the gassings have their start, end, maximum and kind; the xlsx (read back) and the PDF (pdftotext) print
// the same figures; a gassing cannot be closed with a notification unticked.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { iso, local, meanOver, validMinutes } from "../../../../../tests/support/journal-day";
import { JOURNAL_DAY_CLOSED, JOURNAL_DAY_OPEN, journalDayOnMemory } from "../../../../../tests/support/journal-day-memory";
import type { MemoryDomain } from "../../../../../tests/support/memory-domain";
import { readingsStored } from "../../../../../tests/support/reading-layout";
import { journalPdf, journalXlsx } from "../../../export/journal";
import { formatNumber } from "../../../export/txt-writer";
import type { Actor } from "../../context";
import type { Clock } from "../../../ports";
import { Forbidden, Invalid } from "../../errors";
import { listGassings, operatorJournal, type Journal } from "./journal";
import { registerGassing } from "./gassing-book";

// the day's figures read from either layout — the facility's minute items while its
// UTC days are open, the sensors' day items once they are closed — are the same.
const LAYOUTS = [
  { day: "an open day (the facility's minute items)", clock: JOURNAL_DAY_OPEN, open: true },
  { day: "a closed day (the sensors' day items)", clock: JOURNAL_DAY_CLOSED, open: false },
];
interface Read {
  d: MemoryDomain;
  staff: Actor;
  facility: string;
  journal: Journal;
  /** The windows of the facility's minute items the journal asked storage for. */
  asked: string[];
}
const reads = new Map<boolean, Read>();

async function journalOn(clock: Clock, company: string): Promise<Read> {
  const { d, staff, facility } = await journalDayOnMemory(company, "Шахта «Журнальная»", clock);
  const monitoring = d.deps.repos.monitoring;
  const read = monitoring.minutesOf.bind(monitoring);
  const asked: string[] = [];
  monitoring.minutesOf = (company, facility, day, from, to) => {
    asked.push(`${day} ${from}-${to}`);
    return read(company, facility, day, from, to);
  };
  try {
    return { d, staff, facility, asked, journal: await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" }) };
  } finally {
    monitoring.minutesOf = read;
  }
}

beforeAll(async () => {
  for (const { clock, open } of LAYOUTS) reads.set(open, await journalOn(clock, open ? "ООО «Журнал АГК за сегодня»" : "ООО «Журнал АГК»"));
});
/** The closed day's domain: the registrations and the files are made once. */
const closed = () => reads.get(false)!;

describe.each(LAYOUTS)("on $day", ({ open }) => {
  const journal = () => reads.get(open)!.journal;

  // on an open day the journal read the facility's minute items once per sensor (1 530
  // × the meters: today's journal of 60 meters 2,4–2,8 s); one read of each day's window serves every sensor.
  it(open ? "asks the facility's minute items of each day's window once, however many meters" : "asks for no minute items", async () => {
    const { d, staff, facility, asked } = reads.get(open)!;
    const stored = await readingsStored(d.deps.repos, staff.company, facility, "2026-03-02");
    expect(open ? stored.dayItems : stored.minuteItems).toBe(0);
    expect(open ? stored.minuteItems : stored.dayItems).toBeGreaterThan(0);
    if (open) {
      // The day at UTC+7 spans two UTC days, read from an hour before it up to the minute now runs in:
      // each day's window once for the three meters.
      expect(asked.map((window) => window.slice(0, 10))).toEqual(["2026-03-01", "2026-03-02"]);
      expect(new Set(asked).size).toBe(asked.length);
    } else expect(asked).toEqual([]);
  });

  describe("the journal's means", () => {
    it("lists the methane meters with their place and set-point, by working and code", () => {
      expect(journal()).toMatchObject({ facility_name: "Шахта «Журнальная»", date: "2026-03-02", running: false, demo: false });
      expect(journal().sensors.map((s) => [s.code, s.working, s.place, s.alarm, s.limit])).toEqual([
        ["М-7", "Лава 12-1", "В 10–20 м от забоя", 2, 1],
        ["М-8", "Лава 12-1", "Исходящая струя очистной выработки", 2, 1],
        ["М-9", "Штрек 5", "У забоя (призабойное пространство)", null, 1],
      ]);
    });

    it("gives each hour's, shift's and the day's mean of the valid minute means as computed independently (1e-9)", () => {
      for (const s of journal().sensors) {
        const valid = validMinutes(s.code);
        expect(s.hourly).toHaveLength(24);
        s.hourly.forEach((mean, h) => expect(mean).toBeCloseTo(meanOver(valid, local(h), local(h + 1))!, 9));
        s.shifts.forEach((mean, i) => expect(mean).toBeCloseTo(meanOver(valid, local(8 * i), local(8 * i + 8))!, 9));
        expect(s.day).toBeCloseTo(meanOver(valid, local(0), local(24))!, 9);
        const minutes = [...valid.keys()].filter((t) => t >= local(0) && t < local(24)).length;
        expect(s.completeness).toBeCloseTo(minutes / 1440, 12);
      }
      // The spike and the minute after it are set aside; the gap leaves 30 minutes in М-8's noon hour.
      expect(journal().sensors[2].completeness).toBeCloseTo(1438 / 1440, 12);
      expect(journal().sensors[1].completeness).toBeCloseTo(1410 / 1440, 12);
    });
  });

  describe("the day's gassings", () => {
    it("finds a general gassing of the longwall's two meters and two local ones of the heading's, the spike's marked (D88)", () => {
      expect(
        journal().gassings.map((g) => ({
          start: g.start,
          end: g.end,
          kind: g.kind,
          sensors: g.sensors,
          working: g.working,
          sudden: g.sudden,
        })),
      ).toEqual([
        { start: iso(local(3, 10)), end: iso(local(3, 30)), kind: "общее", sensors: ["М-7", "М-8"], working: "Лава 12-1", sudden: false },
        { start: iso(local(10, 0)), end: iso(local(10, 5)), kind: "местное", sensors: ["М-9"], working: "Штрек 5", sudden: false },
        // D88: the spike D58 sets aside for the means is a reading the book reads: a gassing of
        // its minute, marked «резкий рост / за пределом шкалы», within the span.
        { start: iso(local(14, 0)), end: iso(local(14, 1)), kind: "местное", sensors: ["М-9"], working: "Штрек 5", sudden: true },
      ]);
      expect(journal().gassings[2]).toMatchObject({ over_span: null, onset: null });
      expect(journal().gassings[2].max).toBeCloseTo(3.501, 12);
      // The highest minute mean: М-7's at 03:17, М-9's at 10:01 (each minute's two readings average 0,001 above its value).
      expect(journal().gassings[0].max).toBeCloseTo(1.301, 12);
      expect(journal().gassings[0].max_at).toBe(iso(local(3, 17)));
      expect(journal().gassings[1].max).toBeCloseTo(1.301, 12);
      expect(journal().gassings[0].limits).toEqual([1, 1]);
      expect(journal().gassings[1].limits).toEqual([1]);
      expect(journal().gassings.every((g) => g.registered_by === null && !g.closed)).toBe(true);
    });
  });
});

describe("registering the day's gassings", () => {
  it("refuses to close a gassing while a notification is unticked, naming it; registers who and when; then closes it", async () => {
    const { d, staff, facility, journal } = closed();
    await d.deps.repos.users.update(staff.company, staff.id, { first_name: "Ольга Ивановна", last_name: "Кузнецова" });
    const general = journal.gassings[0];
    const book = { cause: "Остановка вентилятора местного проветривания", type: "technological", measures: "Лава остановлена" } as const;
    const attempt = registerGassing(d.deps, staff, general.id, {
      notified: { chief_engineer: true, head_ab: true, head_section: true },
      comment: "Лава остановлена",
      ...book,
      close: true,
    });
    await expect(attempt).rejects.toThrow(Invalid);
    await expect(attempt).rejects.toThrow("территориальный орган Ростехнадзора");
    const registered = await registerGassing(d.deps, staff, general.id, {
      notified: { chief_engineer: true, head_ab: true, head_section: true },
      comment: "Лава остановлена",
    });
    expect(registered).toMatchObject({ registered_by: "Кузнецова О. И.", closed: false, comment: "Лава остановлена" });
    const done = await registerGassing(d.deps, staff, general.id, { notified: { rostekhnadzor: true }, ...book, close: true });
    expect(done).toMatchObject({
      registered_by: "Кузнецова О. И.",
      registered_at: registered.registered_at,
      closed: true,
      closed_by: "Кузнецова О. И.",
      comment: "Лава остановлена",
    });
    // true is «now, by the signed-in user»: the first three at the registration, the fourth at the closing.
    const now = { at: registered.registered_at, by: "Кузнецова О. И." };
    expect(done.notified).toEqual({ chief_engineer: now, head_ab: now, head_section: now, rostekhnadzor: { ...now, at: done.closed_at } });
    await expect(registerGassing(d.deps, staff, general.id, { notified: {} })).rejects.toThrow("закрыта");
    const reviewer = await d.actor("ООО «Проверка журнала»", "reviewer");
    await expect(registerGassing(d.deps, reviewer, general.id, { notified: {} })).rejects.toThrow(Forbidden);
    const again = await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" });
    expect(again.gassings[0]).toMatchObject({ closed: true, closed_by: "Кузнецова О. И." });
  });

  it("lists the register of a period with the registrations", async () => {
    const { d, staff, facility } = closed();
    const list = await listGassings(d.deps, staff, { facility, from: "2026-03-01", to: "2026-03-03" });
    expect(list.results.map((g) => [g.kind, g.closed])).toEqual([
      ["общее", true],
      ["местное", false],
      ["местное", false],
    ]);
    const day = await listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" });
    expect(day.results).toHaveLength(3);
    await expect(listGassings(d.deps, staff, { facility, from: "2026-03-01", to: "2026-07-01" })).rejects.toThrow("не длиннее 92");
  });
});

describe("the files", () => {
  it("prints the same figures in the xlsx (a shift a sheet) and the PDF (a shift a page), with the signature lines", async () => {
    const { d, staff, facility } = closed();
    const current = await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await journalXlsx(current)) as never);
    expect(book.worksheets.map((w) => w.name)).toEqual(["Смена 1", "Смена 2", "Смена 3", "Загазирования"]);
    const dir = mkdtempSync(join(tmpdir(), "journal-"));
    writeFileSync(join(dir, "j.pdf"), await journalPdf(current));
    const text = execFileSync("pdftotext", ["-layout", join(dir, "j.pdf"), "-"], { encoding: "utf8" });
    const pages = text.split("\f");
    for (let shift = 0; shift < 3; shift++) {
      const sheet = book.getWorksheet(`Смена ${shift + 1}`)!;
      expect(String(sheet.getCell("A1").value)).toContain(`Смена ${shift + 1}`);
      current.sensors.forEach((s, i) => {
        const cells = (sheet.getRow(3 + i).values as unknown[]).slice(1);
        const figures = [s.limit, ...s.hourly.slice(8 * shift, 8 * shift + 8), s.shifts[shift], s.day];
        expect(cells.slice(0, 3)).toEqual([s.code, s.place, s.working]);
        cells.slice(3, 3 + figures.length).forEach((cell, k) => expect(cell as number).toBeCloseTo(figures[k] as number, 12));
        // each limit's unit and the act, point and edition it comes from; D87: the
        // norm's row by where the meter hangs, whatever its A (М-7's and М-8's 2 %).
        expect(cells.slice(3 + figures.length)).toEqual([
          "% об.",
          "норма в выработке и ее исходящей струе — Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020), п. 122, приложение № 3",
        ]);
        const line = pages[shift].split("\n").find((l) => l.trimStart().startsWith(s.code))!;
        expect(line.match(/\d+,\d{2}/g)).toEqual(figures.map((f) => formatNumber(f as number, 2)));
      });
      const rows = sheet.getRows(1, sheet.rowCount)!.map((r) => String((r.values as unknown[])[1] ?? ""));
      expect(rows.slice(-3)).toEqual(["Оператор АГК", "Начальник участка ВТБ", "Начальник смены"]);
      for (const who of ["Оператор АГК", "Начальник участка ВТБ", "Начальник смены"]) expect(pages[shift]).toContain(who);
      expect(pages[shift].replace(/\s+/g, " ")).toContain(
        "Предел М-7, М-8, М-9: норма в выработке и ее исходящей струе — Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020), п. 122, приложение № 3 ",
      );
      // The act's text not read: said once a page, beside the act, and once a sheet.
      expect(pages[shift].replace(/\s+/g, " ").split("текст акта не прочитан")).toHaveLength(2);
      expect(pages[shift].replace(/\s+/g, " ")).toContain(
        "Предел Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020) — текст акта не прочитан",
      );
      expect(rows.filter((r) => r.includes("текст акта не прочитан"))).toEqual([
        "Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020) — текст акта не прочитан",
      ]);
    }
    // The gassings: in the first shift's sheet and page, and in the register sheet with the registration.
    expect(pages[0]).toContain("М-7, М-8 (Лава 12-1): общее, с 02.03.2026 03:10 до 02.03.2026 03:30, максимум 1,30 % об.");
    expect(pages[1]).toContain("М-9 (Штрек 5): местное, с 02.03.2026 10:00 до 02.03.2026 10:05, максимум 1,30 % об.");
    // The day's gassings sheet in the gassing book's columns (gassing-book.ts).
    const register = book.getWorksheet("Загазирования")!;
    expect((register.getRow(3).values as unknown[]).slice(1, 12)).toEqual([
      1,
      new Date(Date.UTC(2026, 2, 2, 3, 10)),
      new Date(Date.UTC(2026, 2, 2, 3, 30)),
      "20 мин",
      // the section, the working and each sensor with its place.
      "Выемочный участок 12-1",
      "Лава 12-1",
      "М-7 (В 10–20 м от забоя), М-8 (Исходящая струя очистной выработки)",
      "М-7, М-8",
      "общее",
      "технологическое",
      current.gassings[0].max,
    ]);
  });
});
