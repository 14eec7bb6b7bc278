// D94 in the operator's journal: a sensor whose check failed on the day says
// «датчик не прошел проверку» beside its means — on the screen's JSON, in the xlsx's column «Проверка
// датчика» and on the PDF's page — and a later passed check clears it from the next day's journal; a
// check overdue under the mine's interval says «проверка просрочена на N дн.».
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { JOURNAL_DAY_CLOSED, journalDayOnMemory } from "../../../../../tests/support/journal-day-memory";
import type { MemoryDomain } from "../../../../../tests/support/memory-domain";
import { checkIntervalsBodySchema, sensorCheckCreateSchema, verificationCreateSchema } from "../../../contract/schemas/sensor-checks";
import { parseWith } from "../../../http/validate";
import { journalPdf, journalXlsx } from "../../../export/journal";
import type { Actor } from "../../context";
import { listGassings, operatorJournal } from "../derive/journal";
import { putCheckIntervals } from "./check-states";
import { recordCheck } from "./sensor-checks";
import { recordVerification } from "./verifications";

describe("the operator's journal prints the sensor's checks (D94)", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility = "";

  beforeAll(async () => {
    ({ d, staff, facility } = await journalDayOnMemory("Кузбасс-Журнал-Проверок", "Шахта «Проверенная»", JOURNAL_DAY_CLOSED));
    const electrician = await d.colleague(staff, {
      email: "electrician-journal@example.com",
      first_name: "Андрей",
      last_name: "Сидоров",
      duty: "agk_electrician",
    });
    const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, facility);
    const m7 = sensors.find((s) => s.code === "М-7")!.id;
    const m8 = sensors.find((s) => s.code === "М-8")!.id;
    const check = (sensor: string, at: string, result: "passed" | "failed") =>
      recordCheck(
        d.deps,
        electrician,
        facility,
        sensor,
        parseWith(sensorCheckCreateSchema, {
          at,
          kind: "planned",
          button_test_ok: result === "passed",
          result,
          ...(result === "failed" ? { fault: "Не работает кнопка «Контроль»" } : {}),
        }),
      );
    await check(m7, "2026-03-02T11:00:00+07:00", "failed");
    await check(m7, "2026-03-03T09:00:00+07:00", "passed");
    await check(m8, "2026-02-20T09:00:00+07:00", "passed");
    // Item 4: М-9 out of verification from 03.03.2026.
    await recordVerification(
      d.deps,
      staff,
      facility,
      sensors.find((s) => s.code === "М-9")!.id,
      parseWith(verificationCreateSchema, {
        instrument_type: "ДМС 03",
        register_number: "12345-06",
        serial: "0419",
        verified_on: "2025-03-01",
        valid_to: "2026-03-02",
        certificate: "С-419",
      }),
    );
    await putCheckIntervals(
      d.deps,
      staff,
      facility,
      parseWith(checkIntervalsBodySchema, { rules: [{ kind: "methane", per: "days", days: 7 }], source: "Проект АГК", version: 0 }),
    );
  });

  it("says the failed check and the overdue one beside the sensors, on the screen and in its files", async () => {
    const journal = await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" });
    const of = (code: string) => journal.sensors.find((s) => s.code === code)!;
    expect(of("М-7").checks).toEqual(["датчик не прошел проверку 02.03.2026"]);
    // 20.02 and 7 days: due by the end of 27.02; at the day's end (00:00 of 03.03) 3 days past.
    expect(of("М-8").checks).toEqual(["проверка просрочена на 3 дн."]);
    // М-9 was never checked under the rule.
    expect(of("М-9").checks).toEqual(["проверка не записана за 9 дн."]);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await journalXlsx(journal)) as never);
    const sheet = book.getWorksheet("Смена 1")!;
    const header = (sheet.getRow(2).values as unknown[]).slice(1);
    const column = header.indexOf("Проверка датчика");
    expect(column).toBeGreaterThan(0);
    const row = (sheet.getRow(3).values as unknown[]).slice(1);
    expect(row[0]).toBe("М-7");

    const dir = mkdtempSync(join(tmpdir(), "journal-checks-"));
    writeFileSync(join(dir, "j.pdf"), await journalPdf(journal));
    const text = execFileSync("pdftotext", ["-layout", join(dir, "j.pdf"), "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain(
      "М-7: датчик не прошел проверку 02.03.2026; показания под сомнением: датчик не прошел проверку 02.03.2026 — 780 мин.",
    );
    expect(text).toContain("М-8: проверка просрочена на 3 дн. М-9");

    // Item 4: the minutes from the failed check (11:00) to the day's end are «под сомнением», kept as they are.
    expect(of("М-7").doubt).toBe("показания под сомнением: датчик не прошел проверку 02.03.2026 — 780 мин");
    expect(of("М-8").doubt).toBeNull();
    expect(row[column]).toBe(
      "датчик не прошел проверку 02.03.2026; показания под сомнением: датчик не прошел проверку 02.03.2026 — 780 мин",
    );

    // The next day the passed check of 03.03 at 09:00 stands; its first 540 minutes were still in doubt, and
    // М-9 is out of verification the whole day.
    const next = await operatorJournal(d.deps, staff, { facility, date: "2026-03-03" });
    const ofNext = (code: string) => next.sensors.find((s) => s.code === code)!;
    expect(ofNext("М-7").checks).toEqual([]);
    expect(ofNext("М-7").doubt).toBe("показания под сомнением: датчик не прошел проверку 02.03.2026 — 540 мин");
    expect(ofNext("М-9").doubt).toMatch(/^показания под сомнением: вне поверки с 03\.03\.2026 — 1\s440 мин$/);
    expect(ofNext("М-9").checks).toContain("вне поверки с 03.03.2026");
  });
});

// Item 4 (D94) across the records: М-7's check failed on 01.03.2026 and passed on 03.03 — the whole of 02.03
// is in doubt in the journal, and the book says so beside the general gassing on М-7 (03:10–03:30), not
// beside М-9's local one nor its marked spike at 14:00 (D88: every reading counts in the book).
describe("a gassing on a sensor «под сомнением» (D94)", () => {
  it("is flagged in the book and the journal's list beside the journal's day", async () => {
    const { d, staff, facility } = await journalDayOnMemory("Кузбасс-Книга-Сомнений", "Шахта «Сомнительная»", JOURNAL_DAY_CLOSED);
    const electrician = await d.colleague(staff, {
      email: "electrician-book@example.com",
      first_name: "Андрей",
      last_name: "Сидоров",
      duty: "agk_electrician",
    });
    const m7 = (await d.deps.repos.sensors.listOfFacility(staff.company, facility)).find((s) => s.code === "М-7")!.id;
    for (const [at, result] of [
      ["2026-03-01T09:00:00+07:00", "failed"],
      ["2026-03-03T09:00:00+07:00", "passed"],
    ] as const) {
      await recordCheck(
        d.deps,
        electrician,
        facility,
        m7,
        parseWith(sensorCheckCreateSchema, {
          at,
          kind: "planned",
          button_test_ok: result === "passed",
          result,
          ...(result === "failed" ? { fault: "Не работает кнопка «Контроль»" } : {}),
        }),
      );
    }
    const journal = await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" });
    expect(journal.sensors.find((s) => s.code === "М-7")!.doubt).toMatch(
      /^показания под сомнением: датчик не прошел проверку 01\.03\.2026 — 1\s440 мин$/,
    );
    const book = await listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" });
    const said = book.results.map((g) => [g.sensors.join(", "), g.start.slice(11, 16), g.doubt]);
    expect(said).toEqual([
      ["М-7, М-8", "20:10", "М-7: показания под сомнением: датчик не прошел проверку 01.03.2026 — 20 мин"],
      ["М-9", "03:00", null],
      ["М-9", "07:00", null],
    ]);
    expect(journal.gassings.map((g) => g.doubt)).toEqual(book.results.map((g) => g.doubt));
  });
});

// Item 3–4 (D94) across the records: М-9's verification ran to 01.03.2026, so on 02.03 it is out of
// verification — named beside its means in the journal (on the screen, in the xlsx and the PDF) and beside
// each gassing on it in the book, its minutes «под сомнением» and kept.
describe("a sensor out of verification (D94)", () => {
  it("is named in the journal and its files, and beside its gassings in the book", async () => {
    const { d, staff, facility } = await journalDayOnMemory("Кузбасс-Вне-Поверки", "Шахта «Неповеренная»", JOURNAL_DAY_CLOSED);
    const m9 = (await d.deps.repos.sensors.listOfFacility(staff.company, facility)).find((s) => s.code === "М-9")!.id;
    await recordVerification(
      d.deps,
      staff,
      facility,
      m9,
      parseWith(verificationCreateSchema, {
        instrument_type: "ДМС 03",
        register_number: "12345-06",
        serial: "0421",
        verified_on: "2025-03-02",
        valid_to: "2026-03-01",
        certificate: "С-421",
      }),
    );
    const journal = await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" });
    const m9Row = journal.sensors.find((s) => s.code === "М-9")!;
    expect(m9Row.checks).toContain("вне поверки с 02.03.2026");
    expect(m9Row.doubt).toMatch(/^показания под сомнением: вне поверки с 02\.03\.2026 — 1\s440 мин$/);
    expect(journal.sensors.find((s) => s.code === "М-7")!.doubt).toBeNull();

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await journalXlsx(journal)) as never);
    const sheet = workbook.getWorksheet("Смена 1")!;
    const header = (sheet.getRow(2).values as unknown[]).slice(1);
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const m9Cells = rows.find((r) => r[0] === "М-9")!;
    expect(String(m9Cells[header.indexOf("Проверка датчика")])).toContain("вне поверки с 02.03.2026");
    const dir = mkdtempSync(join(tmpdir(), "journal-verification-"));
    writeFileSync(join(dir, "j.pdf"), await journalPdf(journal));
    const text = execFileSync("pdftotext", ["-layout", join(dir, "j.pdf"), "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain("М-9: вне поверки с 02.03.2026");

    const book = await listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" });
    const said = book.results.map((g) => [g.sensors.join(", "), g.start.slice(11, 16), g.doubt]);
    expect(said).toEqual([
      ["М-7, М-8", "20:10", null],
      ["М-9", "03:00", expect.stringMatching(/^М-9: показания под сомнением: вне поверки с 02\.03\.2026 — \d+ мин$/)],
      ["М-9", "07:00", expect.stringMatching(/^М-9: показания под сомнением: вне поверки с 02\.03\.2026 — \d+ мин$/)],
    ]);
    expect(journal.gassings.map((g) => g.doubt)).toEqual(book.results.map((g) => g.doubt));
  });
});

// an earlier round's «Done when»: a sensor whose check failed on day 3 and passed on day 5 — its minutes of days 3–5
// are flagged in the journal (from the failed check to the passed one, on the company's clock), day 6's not.
describe("a check failed on day 3 and passed on day 5 (D94)", () => {
  it("flags the sensor's minutes of days 3, 4 and 5 in the journal, and none of day 6", async () => {
    const { d, staff, facility } = await journalDayOnMemory("Кузбасс-Дни-Сомнений", "Шахта «Трехдневная»", JOURNAL_DAY_CLOSED);
    const electrician = await d.colleague(staff, {
      email: "electrician-days@example.com",
      first_name: "Андрей",
      last_name: "Сидоров",
      duty: "agk_electrician",
    });
    const m7 = (await d.deps.repos.sensors.listOfFacility(staff.company, facility)).find((s) => s.code === "М-7")!.id;
    for (const [at, result] of [
      ["2026-03-03T09:00:00+07:00", "failed"],
      ["2026-03-05T09:00:00+07:00", "passed"],
    ] as const) {
      await recordCheck(
        d.deps,
        electrician,
        facility,
        m7,
        parseWith(sensorCheckCreateSchema, {
          at,
          kind: "planned",
          button_test_ok: result === "passed",
          result,
          ...(result === "failed" ? { fault: "Не работает кнопка «Контроль»" } : {}),
        }),
      );
    }
    const doubtOn = async (date: string) =>
      (await operatorJournal(d.deps, staff, { facility, date })).sensors.find((s) => s.code === "М-7")!.doubt;
    expect(await doubtOn("2026-03-02")).toBeNull();
    expect(await doubtOn("2026-03-03")).toBe("показания под сомнением: датчик не прошел проверку 03.03.2026 — 900 мин");
    expect(await doubtOn("2026-03-04")).toMatch(/^показания под сомнением: датчик не прошел проверку 03\.03\.2026 — 1\s440 мин$/);
    expect(await doubtOn("2026-03-05")).toBe("показания под сомнением: датчик не прошел проверку 03.03.2026 — 540 мин");
    expect(await doubtOn("2026-03-06")).toBeNull();
  });
});
