// the gassing book's rules on the in-memory repositories, over the day of
// tests/support/journal-day.ts. Closing is refused while the cause, the type or the measures are empty
// (each named in Russian); a closed entry does not change (409), not even its gassing when the minutes
// give another; confirmations only by a user with that duty, of a closed entry, once each; people named
// by surname and initials, never by e-mail; the book as xlsx (read back) and PDF (pdftotext).
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { JOURNAL_DAY_CLOSED, journalDayOnMemory } from "../../../../../tests/support/journal-day-memory";
import type { MemoryDomain } from "../../../../../tests/support/memory-domain";
import { gassingRegisterSchema } from "../../../contract/schemas/journal";
import { parseWith } from "../../../http/validate";
import { gassingBookPdf, gassingBookXlsx } from "../../../export/gassing-book";
import { hyphenPoints } from "../../../export/hyphenation";
import type { Actor } from "../../context";
import { Conflict, Forbidden, Invalid } from "../../errors";
import { surnameInitials, UNNAMED_PERSON } from "../../person-name";
import { createUser } from "../../company/users";
import { listGassings, operatorJournal } from "./journal";
import { closingProblems, noticesOf } from "./gassing-entry";
import { confirmGassing, confirmedEntry, nextEntry, registerGassing } from "./gassing-book";
import type { GassingRegistration } from "../../../ports";

/** a cause and measures whose words are longer than the PDF's columns. */
const LONG_CAUSE = "Разгерметизация высокопроизводительного электрооборудования вентиляторной установки";
const LONG_MEASURES = "Электрооборудование заменено, газоанализаторы перекалиброваны, трубопровод переподключен";
const ALL_NOTIFIED = { chief_engineer: true, head_ab: true, head_section: true, rostekhnadzor: true };
const FILLED = { cause: "Остановка ВМП", type: "technological", measures: "ВМП запущен, лава проветрена" } as const;
const CONTEXT = {
  company: "c",
  id: "f.s.g.1",
  facility: "f",
  start: "2026-03-01T20:10:00.000Z",
  lasts: false,
  by: "olga@kuz-glub.ru",
  at: "2026-03-02T01:00:00.000Z",
};

describe("the book's closing rules (nextEntry)", () => {
  it("refuses to close while the cause, the type or the measures are empty, naming each in Russian", () => {
    const attempt = () => nextEntry(undefined, { notified: ALL_NOTIFIED, close: true }, CONTEXT);
    expect(attempt).toThrow(Invalid);
    expect(attempt).toThrow(
      "Причина загазирования: нельзя закрыть: не указана причина загазирования; Тип: нельзя закрыть: не указан вид загазирования (технологическое или аварийное); Меры: нельзя закрыть: не указаны принятые меры",
    );
    // Blank text is empty; one field missing is named alone.
    expect(() => nextEntry(undefined, { notified: ALL_NOTIFIED, ...FILLED, measures: "   ", close: true }, CONTEXT)).toThrow(
      /^Меры: нельзя закрыть: не указаны принятые меры$/,
    );
    expect(() => nextEntry(undefined, { notified: ALL_NOTIFIED, cause: "x", measures: "y", close: true }, CONTEXT)).toThrow(/^Тип: /);
    expect(closingProblems(FILLED)).toBeUndefined();
  });

  // closing names every missing thing at once — a dispatcher met one refusal after another.
  it("names every reason not to close at once: notifications, a gassing that lasts, each empty field", () => {
    const attempt = () =>
      nextEntry(undefined, { notified: { chief_engineer: true }, cause: "x", close: true }, { ...CONTEXT, lasts: true });
    expect(attempt).toThrow(Invalid);
    try {
      attempt();
    } catch (error) {
      expect((error as Invalid).problems?.map((p) => p.field)).toEqual(["notified", "close", "type", "measures"]);
    }
  });

  it("closes once everything is given, keeping what an earlier write gave", () => {
    const first = nextEntry(undefined, { notified: ALL_NOTIFIED, cause: "Остановка ВМП", losses: { coal_t: 120 } }, CONTEXT);
    expect(first).toMatchObject({ closed: false, cause: "Остановка ВМП", losses: { development_m: null, coal_t: 120 }, version: 1 });
    const closed = nextEntry(
      first,
      {
        notified: {},
        type: "accident",
        measures: "Проверен ВМП",
        cleared_by: "Горный мастер Петров П. П.",
        // when the gas was cleared and work resumed.
        cleared_at: "2026-03-02T04:40:00+07:00",
        resumed_at: "2026-03-02T05:15:00+07:00",
        close: true,
      },
      { ...CONTEXT, by: "ivan@kuz-glub.ru", at: "2026-03-02T02:00:00.000Z" },
    );
    expect(closed).toMatchObject({
      closed: true,
      closed_by: "ivan@kuz-glub.ru",
      registered_by: "olga@kuz-glub.ru",
      cause: "Остановка ВМП",
      type: "accident",
      losses: { development_m: null, coal_t: 120 },
      cleared_by: "Горный мастер Петров П. П.",
      cleared_at: "2026-03-01T21:40:00.000Z",
      resumed_at: "2026-03-01T22:15:00.000Z",
      version: 2,
    });
  });

  it("refuses to close a gassing that lasts, and changes nothing of a closed entry (409)", () => {
    expect(() => nextEntry(undefined, { notified: ALL_NOTIFIED, ...FILLED, close: true }, { ...CONTEXT, lasts: true })).toThrow(
      "продолжается",
    );
    const closed = nextEntry(undefined, { notified: ALL_NOTIFIED, ...FILLED, close: true }, CONTEXT);
    for (const change of [{ notified: {} }, { notified: {}, measures: "другие меры" }, { notified: {}, close: true }]) {
      expect(() => nextEntry(closed, change, CONTEXT)).toThrow(Conflict);
    }
  });

  // when each addressee was notified and by whom, not a tick.
  it("keeps when and by whom each addressee was notified; true is now by the signed-in user; never before the gassing", () => {
    const entry = nextEntry(
      undefined,
      {
        notified: {
          chief_engineer: { at: "2026-03-02T04:05:00+07:00", by: " Иванов И. И. " },
          head_ab: { at: "2026-03-02T04:07:00+07:00" },
          head_section: true,
          rostekhnadzor: null,
        },
      },
      { ...CONTEXT, name: "Кузнецова О. И." },
    );
    expect(entry.notified).toEqual({
      chief_engineer: { at: "2026-03-01T21:05:00.000Z", by: "Иванов И. И." },
      head_ab: { at: "2026-03-01T21:07:00.000Z", by: null },
      head_section: { at: CONTEXT.at, by: "Кузнецова О. И." },
      rostekhnadzor: null,
    });
    // true again keeps the time given; false or null takes a notification back before closing.
    const again = nextEntry(entry, { notified: { chief_engineer: true, head_ab: false } }, { ...CONTEXT, at: "2026-03-02T05:00:00.000Z" });
    expect(again.notified).toMatchObject({ chief_engineer: { at: "2026-03-01T21:05:00.000Z", by: "Иванов И. И." }, head_ab: null });
    const early = () =>
      nextEntry(
        entry,
        { notified: { head_ab: { at: "2026-03-02T03:05:00+07:00" }, rostekhnadzor: { at: "2026-03-01T20:00:00Z" } } },
        { ...CONTEXT, zone: "Asia/Novokuznetsk" },
      );
    expect(early).toThrow(Invalid);
    expect(early).toThrow(
      "Оповещены, Начальник АБ: время оповещения раньше начала загазирования (02.03.2026 03:10); Оповещены, Ростехнадзор: время оповещения раньше начала загазирования (02.03.2026 03:10)",
    );
    try {
      early();
    } catch (error) {
      expect((error as Invalid).problems?.map((p) => p.field)).toEqual(["notified.head_ab", "notified.rostekhnadzor"]);
    }
    // A time after the entry is written (past a minute's grace) is refused as well, not kept as notified.
    const late = () =>
      nextEntry(
        entry,
        { notified: { head_ab: { at: "2026-03-02T04:01:01.000Z" }, rostekhnadzor: { at: "2026-03-02T04:01:00.000Z" } } },
        {
          ...CONTEXT,
          at: "2026-03-02T04:00:00.000Z",
        },
      );
    expect(late).toThrow("Оповещены, Начальник АБ: время оповещения позже текущего");
    expect(late).not.toThrow("Ростехнадзор");
    expect(() => parseWith(gassingRegisterSchema, { notified: { head_ab: { at: "вчера" } } })).toThrow(
      "когда оповещен: ожидается момент ISO 8601",
    );
  });

  // a tick kept before it reads as notified at the registration, and the next write keeps that time.
  it("reads a tick stored before an earlier release as notified at the entry's registration", () => {
    const legacy: GassingRegistration = {
      ...nextEntry(undefined, { notified: {} }, CONTEXT),
      registered_at: "2026-03-01T20:30:00.000Z",
      notified: { chief_engineer: true, head_ab: false, head_section: true, rostekhnadzor: false },
    };
    expect(noticesOf(legacy)).toEqual({
      chief_engineer: { at: "2026-03-01T20:30:00.000Z", by: null },
      head_ab: null,
      head_section: { at: "2026-03-01T20:30:00.000Z", by: null },
      rostekhnadzor: null,
    });
    const written = nextEntry(legacy, { notified: { rostekhnadzor: { at: "2026-03-01T20:40:00Z" } } }, CONTEXT);
    expect(written.notified).toEqual({
      chief_engineer: { at: "2026-03-01T20:30:00.000Z", by: null },
      head_ab: null,
      head_section: { at: "2026-03-01T20:30:00.000Z", by: null },
      rostekhnadzor: { at: "2026-03-01T20:40:00.000Z", by: null },
    });
  });

  it("refuses negative losses and an unknown type at the contract", () => {
    expect(() => parseWith(gassingRegisterSchema, { notified: {}, losses: { development_m: -1 } })).toThrow(
      "потери проходки, м: не меньше 0",
    );
    expect(() => parseWith(gassingRegisterSchema, { notified: {}, type: "minor" })).toThrow("вид загазирования");
  });

  it("refuses a field the body has not — a misspelt addressee, a misspelt field — naming it, as the checks' bodies do", () => {
    expect(() => parseWith(gassingRegisterSchema, { notified: { chief_enginer: true } })).toThrow(
      "такого поля нет у оповещений (chief_engineer, head_ab, head_section, rostekhnadzor): chief_enginer",
    );
    expect(() => parseWith(gassingRegisterSchema, { notified: {}, cuase: "Остановка ВМП" })).toThrow(
      "такого поля нет у записи книги загазирований: cuase",
    );
    expect(() => parseWith(gassingRegisterSchema, { losses: { coal: 5 } })).toThrow(
      "такого поля нет у потерь (development_m, coal_t): coal",
    );
  });

  it("takes a close-only body without `notified`: each addressee as kept", () => {
    const registered = nextEntry(undefined, { notified: ALL_NOTIFIED, ...FILLED }, CONTEXT);
    const closed = nextEntry(registered, parseWith(gassingRegisterSchema, { close: true }), CONTEXT);
    expect(closed).toMatchObject({ closed: true, closed_by: CONTEXT.by, notified: registered.notified });
  });
});

describe("the confirmations (confirmedEntry)", () => {
  const closed = nextEntry(undefined, { notified: ALL_NOTIFIED, ...FILLED, close: true }, CONTEXT);
  const holder = (duty: string | null) => ({ duty, by: "chief@kuz-glub.ru", at: "2026-03-03T01:00:00.000Z" });

  it("are given by the user with that duty, to a closed entry, once each", () => {
    expect(() => confirmedEntry(closed, "chief_engineer", holder(null))).toThrow(Forbidden);
    expect(() => confirmedEntry(closed, "chief_engineer", holder("head_ab"))).toThrow("главный инженер");
    const open: GassingRegistration = { ...closed, closed: false };
    expect(() => confirmedEntry(open, "chief_engineer", holder("chief_engineer"))).toThrow("только закрытую");
    const confirmed = confirmedEntry(closed, "chief_engineer", holder("chief_engineer"));
    expect(confirmed.confirmations).toEqual({ chief_engineer: { by: "chief@kuz-glub.ru", at: "2026-03-03T01:00:00.000Z" } });
    expect(() => confirmedEntry(confirmed, "chief_engineer", holder("chief_engineer"))).toThrow(Conflict);
    expect(confirmedEntry(confirmed, "head_ab", holder("head_ab")).confirmations).toMatchObject({
      chief_engineer: { by: "chief@kuz-glub.ru" },
      head_ab: { by: "chief@kuz-glub.ru" },
    });
  });

  // D89: four eyes — the dispatcher who closed the entry may hold a duty, and confirms nothing of it.
  it("are refused to the one who closed the entry, naming the rule", () => {
    const own = { duty: "chief_engineer", by: CONTEXT.by, at: "2026-03-03T01:00:00.000Z" };
    expect(() => confirmedEntry(closed, "chief_engineer", own)).toThrow(Forbidden);
    expect(() => confirmedEntry(closed, "chief_engineer", own)).toThrow("правило «четырех глаз»");
  });
});

describe("names (person-name.ts)", () => {
  it("name a person by surname and initials", () => {
    expect(surnameInitials({ first_name: "Ольга Ивановна", last_name: "Кузнецова" })).toBe("Кузнецова О. И.");
    expect(surnameInitials({ first_name: "иван", last_name: " Петров " })).toBe("Петров И.");
    expect(surnameInitials({ first_name: "Ольга", last_name: "" })).toBe("");
  });
});

describe("the book on the in-memory repositories", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility: string;
  let general: string;

  beforeAll(async () => {
    ({ d, staff, facility } = await journalDayOnMemory("ООО «Книга загазирований»", "Шахта «Книжная»", JOURNAL_DAY_CLOSED));
    await d.deps.repos.users.update(staff.company, staff.id, { first_name: "Ольга Ивановна", last_name: "Кузнецова" });
    general = (await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" })).gassings[0].id;
  });

  it("names people by surname and initials, never by e-mail, and confirms by duty", async () => {
    // a notification's time before the gassing began is refused, naming the field.
    await expect(
      registerGassing(d.deps, staff, general, { notified: { chief_engineer: { at: "2026-03-02T03:05:00+07:00" } } }),
    ).rejects.toThrow("Оповещены, Главный инженер: время оповещения раньше начала загазирования (02.03.2026 03:10)");
    const entry = await registerGassing(d.deps, staff, general, {
      notified: { ...ALL_NOTIFIED, chief_engineer: { at: "2026-03-02T03:25:00+07:00", by: "Иванов И. И." } },
      ...FILLED,
      losses: { development_m: 2.5, coal_t: 340 },
      cleared_by: "Горный мастер Петров П. П.",
      investigated_by: "Комиссия участка АБ",
      close: true,
    });
    expect(entry).toMatchObject({ registered_by: "Кузнецова О. И.", closed_by: "Кузнецова О. И.", duration_min: 20 });
    // true (the form before an earlier release): now, by the signed-in user.
    expect(entry.notified).toEqual({
      chief_engineer: { at: "2026-03-01T20:25:00.000Z", by: "Иванов И. И." },
      head_ab: { at: entry.registered_at, by: "Кузнецова О. И." },
      head_section: { at: entry.registered_at, by: "Кузнецова О. И." },
      rostekhnadzor: { at: entry.registered_at, by: "Кузнецова О. И." },
    });
    expect(JSON.stringify(entry)).not.toContain("@");
    await expect(confirmGassing(d.deps, staff, general, { duty: "chief_engineer" })).rejects.toThrow(Forbidden);
    // The chief engineer: a user of the same company an administrator gave that duty.
    const user = await createUser(d.deps, {
      companyId: staff.company,
      email: "chief@kuz-glub.ru",
      password: "correct-horse",
      first_name: "Игорь",
      last_name: "Семенов",
      duty: "chief_engineer",
    });
    const chief: Actor = { id: user.id, company: staff.company, email: user.email, role: "staff" };
    const confirmed = await confirmGassing(d.deps, chief, general, { duty: "chief_engineer" });
    expect(confirmed.confirmations).toMatchObject({ chief_engineer: { by: "Семенов И." }, head_ab: null, head_section: null });
    await expect(confirmGassing(d.deps, chief, general, { duty: "chief_engineer" })).rejects.toThrow(Conflict);
    await expect(confirmGassing(d.deps, chief, general, { duty: "head_ab" })).rejects.toThrow(Forbidden);
    // A user who gave no name is named so, not by e-mail.
    await d.deps.repos.users.update(staff.company, staff.id, { last_name: "" });
    const list = await listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" });
    expect(list.results[0]).toMatchObject({ registered_by: UNNAMED_PERSON, confirmations: { chief_engineer: { by: "Семенов И." } } });
    await d.deps.repos.users.update(staff.company, staff.id, { last_name: "Кузнецова" });
  });

  it("keeps a closed entry's gassing as closed, and lists an entry whose gassing the minutes no longer give", async () => {
    const stored = (await d.deps.repos.gassings.get(staff.company, general))!;
    // The minutes would now give another maximum: what was closed stays as it was.
    await d.deps.repos.gassings.replace({ ...stored, found: { ...stored.found!, max: 9.99 }, version: stored.version + 1 }, stored.version);
    let list = await listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" });
    expect(list.results[0].max).toBe(9.99);
    // An entry kept under an id the minutes do not give (the rules grouped them otherwise) is still listed.
    const orphan = { ...stored, id: `${facility}.other.g.zz`, version: 1 };
    await d.deps.repos.gassings.create(orphan);
    list = await listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" });
    expect(list.results.map((g) => g.id)).toContain(orphan.id);
    expect(list.results.filter((g) => g.start === stored.start)).toHaveLength(2);
  });

  it("prints the book as xlsx in its columns and as PDF, with the signature lines", async () => {
    // words longer than the PDF's narrow columns, to be broken only where Russian allows.
    const heading = (await listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" })).results.find(
      (g) => g.start === "2026-03-02T03:00:00.000Z",
    )!;
    await registerGassing(d.deps, staff, heading.id, { notified: {}, cause: LONG_CAUSE, measures: LONG_MEASURES });
    const list = await listGassings(d.deps, staff, { facility, from: "2026-03-01", to: "2026-03-03" });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await gassingBookXlsx(list)) as never);
    const sheet = book.getWorksheet("Книга загазирований")!;
    expect(String(sheet.getCell("A1").value)).toContain("Книга учета загазирований: Шахта «Книжная», 01.03.2026 — 03.03.2026");
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual([
      "№",
      "Начало",
      "Окончание",
      "Продолжительность",
      "Участок",
      "Выработка",
      "Место установки датчиков",
      "Датчики",
      "Вид",
      "Тип",
      "Макс. CH4, % об.",
      "Норма CH4, % об.",
      "Причина",
      "Потери проходки, м",
      "Потери добычи, т",
      "Оповещены",
      "Разгазирование провел",
      "Разгазировано",
      "Работы возобновлены",
      "Расследовал",
      "Принятые меры",
      "Зарегистрировал",
      "Закрыл",
      "Начальник участка",
      "Начальник участка АБ",
      "Главный инженер",
      "Комментарий",
    ]);
    const first = (sheet.getRow(3).values as unknown[]).slice(1);
    // The start and end are dates the spreadsheet reads (the company's wall time), shown ДД.ММ.ГГГГ ЧЧ:ММ.
    expect(sheet.getRow(3).getCell(2).numFmt).toBe("dd.mm.yyyy hh:mm");
    expect(first.slice(0, 10)).toEqual([
      1,
      new Date(Date.UTC(2026, 2, 2, 3, 10)),
      new Date(Date.UTC(2026, 2, 2, 3, 30)),
      "20 мин",
      "Выемочный участок 12-1",
      "Лава 12-1",
      "М-7 (В 10–20 м от забоя), М-8 (Исходящая струя очистной выработки)",
      "М-7, М-8",
      "общее",
      "технологическое",
    ]);
    // D87: the norm its meters were read against, by where they hang.
    // The norm a number the spreadsheet counts with.
    expect(first.slice(11, 15)).toEqual([1, "Остановка ВМП", 2.5, 340]);
    const unregistered = (sheet.getRow(5).values as unknown[]).slice(1);
    expect(unregistered.slice(13, 15)).toEqual(["—", "—"]);
    expect(first[21]).toMatch(/^Кузнецова О\. И\., \d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    // each addressee with when (the date where not the gassing's day) and by whom.
    expect(first[15]).toMatch(
      /^главный инженер 03:25 \(Иванов И\. И\.\),\nначальник участка АБ (\d\d\.\d\d\.\d{4} )?\d\d:\d\d \(Кузнецова О\. И\.\),\n/,
    );
    expect(first[25]).toMatch(/^Семенов И\., /);
    expect(first[24]).toBe("не подтверждено");
    // D88: the heading's spike at 14:00 is an entry of its own, marked for its onset.
    const spike = sheet
      .getRows(3, list.results.length)!
      .map((r) => (r.values as unknown[]).slice(1))
      .find((r) => r[1] instanceof Date && r[1].getTime() === Date.UTC(2026, 2, 2, 14, 0))!;
    expect(spike[12]).toBe("— резкий рост / за пределом шкалы: внезапный выброс или отказ датчика? не указано".replace(" ", "\n"));
    const labels = sheet.getRows(1, sheet.rowCount)!.map((r) => String((r.values as unknown[])[2] ?? ""));
    expect(labels.slice(-2)).toEqual(["Начальник участка АБ", "Главный инженер"]);
    const dir = mkdtempSync(join(tmpdir(), "gassing-book-"));
    writeFileSync(join(dir, "b.pdf"), await gassingBookPdf(list));
    if (process.env.KEEP_BOOK_PDF) writeFileSync(process.env.KEEP_BOOK_PDF, await gassingBookPdf(list));
    const text = execFileSync("pdftotext", ["-layout", join(dir, "b.pdf"), "-"], { encoding: "utf8" });
    for (const words of [
      "Книга учета загазирований",
      "Остановка ВМП",
      "Семенов И.",
      "Кузнецова О. И.",
      "20 мин",
      "добыча 340,0 т",
      "проходка 2,5 м",
      "1,00 %",
      // losses never entered print «—», never «0,0».
      "проходка —",
      "добыча —",
      "отказ датчика?",
      // when and by whom each addressee was notified.
      "03:25 (Иванов И.",
    ])
      expect(text).toContain(words);
    expect(text).toMatch(/Главный инженер: _+ \(подпись\)/);
    expect(text).not.toContain("@");
    // each long word is whole or broken where Russian hyphenation allows, with «-» — never at
    // any letter (PDFKit cut «высокопроизводительного» where the column ended, no hyphen).
    const words = execFileSync("pdftotext", ["-bbox", join(dir, "b.pdf"), "-"], { encoding: "utf8" })
      .split("\n")
      .flatMap((l) => /<word [^>]*>([^<]*)<\/word>/.exec(l)?.[1] ?? [])
      .map((w) => w.replace(/[,.;:()«»]/g, ""));
    const long = [...new Set(`${LONG_CAUSE} ${LONG_MEASURES}`.split(/\s+/).map((w) => w.replace(/[,.;:()«»]/g, "")))].filter(
      (w) => w.length >= 12,
    );
    let broken = 0;
    for (const word of long) {
      const allowed = hyphenPoints(word);
      for (const piece of words.filter((w) => w !== word && w.length >= 4 && word.includes(w.replace(/-$/, "")))) {
        const head = piece.endsWith("-") ? piece.slice(0, -1) : undefined;
        // A head: from the word's start (or an allowed point) to an allowed point; a tail: from one to the end.
        const ok =
          head !== undefined
            ? [0, ...allowed].some((s) => word.startsWith(head, s) && allowed.includes(s + head.length))
            : word.endsWith(piece) && allowed.includes(word.length - piece.length);
        expect({ word, piece, ok }).toEqual({ word, piece, ok: true });
        if (head !== undefined) broken++;
      }
    }
    expect(broken).toBeGreaterThan(0);
  });
});

describe("a gassing's registration", () => {
  it("reads no minutes once the book keeps the gassing as found, and closes by what it keeps", async () => {
    const day = await journalDayOnMemory("ООО «Книга без минут»", "Шахта «Безминутная»", JOURNAL_DAY_CLOSED);
    const id = (await operatorJournal(day.d.deps, day.staff, { facility: day.facility, date: "2026-03-02" })).gassings[0].id;
    // The first write of an entry no one kept yet finds its gassing from the minutes and keeps it (D89).
    const first = parseWith(gassingRegisterSchema, { notified: ALL_NOTIFIED, comment: "Сообщено диспетчеру" });
    await registerGassing(day.d.deps, day.staff, id, first);
    const stored = (await day.d.deps.repos.gassings.get(day.staff.company, id))!;
    expect(stored.found).toBeDefined();
    // From then on the entry is the record: the minutes are not read again (for 200 meters with 30 h
    // they held the request thread 88 ms), whatever they hold.
    const monitoring = day.d.deps.repos.monitoring;
    const reads: string[] = [];
    const { getDays, minutesOf } = monitoring;
    monitoring.getDays = (...args: Parameters<typeof getDays>) => {
      reads.push("getDays");
      return getDays.apply(monitoring, args);
    };
    monitoring.minutesOf = (...args: Parameters<typeof minutesOf>) => {
      reads.push("minutesOf");
      return minutesOf.apply(monitoring, args);
    };
    try {
      const closed = await registerGassing(
        day.d.deps,
        day.staff,
        id,
        parseWith(gassingRegisterSchema, { notified: ALL_NOTIFIED, ...FILLED, close: true }),
      );
      expect(reads).toEqual([]);
      expect(closed).toMatchObject({ closed_by: expect.any(String), max: stored.found!.max, duration_min: 20 });
      // A gassing the kept entry says lasts is not closed, as when it was found again from the minutes.
      const lasting = { ...stored, id: `${id}x`, found: { ...stored.found!, end: null } };
      await day.d.deps.repos.gassings.create(lasting);
      await expect(
        registerGassing(
          day.d.deps,
          day.staff,
          lasting.id,
          parseWith(gassingRegisterSchema, { notified: ALL_NOTIFIED, ...FILLED, close: true }),
        ),
      ).rejects.toThrow(/загазирование продолжается/);
      expect(reads).toEqual([]);
    } finally {
      monitoring.getDays = getDays;
      monitoring.minutesOf = minutesOf;
    }
  });
});
