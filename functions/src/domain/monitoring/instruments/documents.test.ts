// the instruments' documents read back. The «Метан» journal of a period (xlsx read with
// exceljs, PDF with pdftotext) has the form's columns, its readings as numbers, its signatures with names
// and the unsigned said so, a formula-like fault kept as text, and the three signature lines; the
// handovers' xlsx and PDF have the lists, the bypassed protection with its sensor, the remarks and both
// signatures with names and times; the register's xlsx has each sensor's metrology and «вне поверки с …».
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { JOURNAL_DAY_OPEN, journalDayOnMemory } from "../../../../../tests/support/journal-day-memory";
import type { MemoryDomain } from "../../../../../tests/support/memory-domain";
import { handoverCreateSchema, sensorCheckCreateSchema, verificationCreateSchema } from "../../../contract/schemas/sensor-checks";
import { parseWith } from "../../../http/validate";
import { checksPdf, checksXlsx, handoversPdf, handoversXlsx, registerXlsx } from "../../../export/instruments";
import type { Actor } from "../../context";
import { recordCheck } from "./sensor-checks";
import { recordVerification } from "./verifications";
import { checksDocument, registerDocument } from "./documents";
import { handoversDocument } from "../handover/handovers-document";
import { handOver, takeOver } from "../handover/handover";

const period = { from: "2026-03-01", to: "2026-03-03" };

async function sheetOf(bytes: Uint8Array) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as never);
  const sheet = book.worksheets[0];
  const header = (sheet.getRow(2).values as unknown[]).slice(1);
  const rows: unknown[][] = [];
  sheet.eachRow((row, n) => {
    if (n > 2) rows.push((row.values as unknown[]).slice(1));
  });
  return { sheet, header, rows };
}

function pdfText(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "instrument-docs-"));
  writeFileSync(join(dir, "d.pdf"), bytes);
  return execFileSync("pdftotext", ["-layout", join(dir, "d.pdf"), "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

describe("the instruments' documents", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let electrician: Actor;
  let facility = "";

  beforeAll(async () => {
    ({ d, staff, facility } = await journalDayOnMemory("Кузбасс-Документы", "Шахта «Документная»", JOURNAL_DAY_OPEN));
    electrician = await d.colleague(staff, {
      email: "electrician-docs@example.com",
      first_name: "Андрей",
      last_name: "Сидоров",
      duty: "agk_electrician",
    });
    const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, facility);
    const id = (code: string) => sensors.find((s) => s.code === code)!.id;
    await recordCheck(
      d.deps,
      electrician,
      facility,
      id("М-7"),
      parseWith(sensorCheckCreateSchema, {
        at: "2026-03-02T11:00:00+07:00",
        kind: "planned",
        reading_pct: 1.25,
        reference_pct: 1.2,
        reference_instrument: "ШИ-11 № 4512",
        button_test_ok: true,
        test_gas_pct: 2.05,
        test_gas_cylinder: { number: "Б-17", valid_to: "2026-12-31" },
        alarm_ok: true,
        cutoff_ok: false,
        result: "failed",
        fault: '=HYPERLINK("http://x")',
        measures: "Заменен блок питания",
        planned_work: "Повторная проверка 03.03",
      }),
    );
    await recordVerification(
      d.deps,
      staff,
      facility,
      id("М-8"),
      parseWith(verificationCreateSchema, {
        instrument_type: "ДМС 03",
        register_number: "12345-06",
        serial: "0418",
        verified_on: "2025-03-01",
        valid_to: "2026-02-28",
        certificate: "С-418",
      }),
    );
    const made = await handOver(
      d.deps,
      staff,
      facility,
      parseWith(handoverCreateSchema, {
        bypassed: [{ sensor: id("М-7"), note: "Защита зашунтирована до 08:00" }],
        remarks: "ВМП-2 в резерве",
      }),
    );
    await takeOver(d.deps, electrician, facility, made.id);
  });

  it("prints the «Метан» journal in its form's columns, figures as numbers, with the signatures", async () => {
    const document = await checksDocument(d.deps, staff, facility, period);
    const { sheet, header, rows } = await sheetOf(await checksXlsx(document));
    for (const column of [
      "Маршрут (выработка)",
      "Дата",
      "Смена",
      "Время",
      "Датчик",
      "Место установки",
      "Показание датчика, % об.",
      "Показание контрольного прибора, % об.",
      "Кнопка «Контроль»",
      "Срабатывание сигнализации",
      "Отключение электроэнергии",
      "Обнаруженная неисправность",
      "Принятые меры",
      "Планируемые работы",
      "Подпись: Оператор АГК",
      "Подпись: Электрослесарь АГК",
    ])
      expect(header).toContain(column);
    const at = (name: string) => header.indexOf(name);
    const row = rows[0];
    expect(row[at("Датчик")]).toBe("М-7");
    expect(row[at("Дата")]).toBe("02.03.2026");
    expect(row[at("Время")]).toBe("11:00");
    expect(row[at("Показание датчика, % об.")]).toBe(1.25);
    expect(row[at("Показание контрольного прибора, % об.")]).toBe(1.2);
    expect(row[at("Расхождение, % об.")]).toBe(0.05);
    expect(row[at("Контрольная смесь, % об.")]).toBe(2.05);
    expect(row[at("Отключение электроэнергии")]).toBe("не сработало");
    expect(row[at("Кнопка «Контроль»")]).toBe("сработала");
    expect(row[at("Результат")]).toBe("датчик не прошел проверку");
    expect(String(row[at("Подпись: Электрослесарь АГК")])).toMatch(/^Сидоров А\. ?, \d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    expect(row[at("Подпись: Оператор АГК")]).toBe("не подписано");
    // The fault typed as a formula stays the text it was, never a live formula.
    const fault = sheet.getRow(3).getCell(at("Обнаруженная неисправность") + 1);
    expect(fault.value).toBe('=HYPERLINK("http://x")');
    expect(fault.formula).toBeUndefined();
    expect(rows.some((r) => r[0] === "Заместитель начальника участка ВТБ по АГК" && r[1] === "подпись ____________")).toBe(true);

    const text = pdfText(await checksPdf(document));
    expect(text).toContain("Журнал эксплуатации и обслуживания датчиков метана");
    expect(text).toContain("датчик М-7");
    expect(text).toContain("Показание датчика 1,25 % об., контрольного прибора 1,20 % об. (ШИ-11 № 4512), расхождение 0,05 % об.");
    expect(text).toContain("сигнализация — сработала, отключение электроэнергии — не сработало");
    expect(text).toContain("Оператор АГК: не подписано");
    expect(text).toContain("Электрослесарь АГК: Сидоров");
    expect(text).toContain("(подпись)");
  });

  it("prints the handovers with their lists, the bypassed protection and both signatures", async () => {
    const document = await handoversDocument(d.deps, staff, facility, period);
    expect(document.results).toHaveLength(1);
    const { header, rows } = await sheetOf(await handoversXlsx(document));
    const at = (name: string) => header.indexOf(name);
    const row = rows[0];
    expect(String(row[at("Обойденные защиты (датчик)")])).toBe("М-7: Защита зашунтирована до 08:00");
    expect(row[at("Замечания")]).toBe("ВМП-2 в резерве");
    expect(String(row[at("Датчики вне поверки")])).toContain("М-8");
    expect(typeof row[at("Открытых пунктов")]).toBe("number");
    expect(row[at("Открытых пунктов")]).toBeGreaterThan(0);
    expect(String(row[at("Смену принял (ФИО, время)")])).toMatch(/^Сидоров .*\d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    expect(rows.some((r) => r[0] === "Смену сдал" && r[1] === "подпись ____________")).toBe(true);

    const text = pdfText(await handoversPdf(document));
    expect(text).toContain("Обойденные защиты: М-7: Защита зашунтирована до 08:00.");
    expect(text).toContain("Замечания: ВМП-2 в резерве.");
    expect(text).toMatch(/Смену принял: Сидоров .*\d\d\.\d\d\.\d{4} \d\d:\d\d\./);
    expect(text).toContain("Смену сдал: ____");
  });

  it("prints the register with each sensor's metrology and its state out of verification", async () => {
    const document = await registerDocument(d.deps, staff, facility);
    const { header, rows } = await sheetOf(await registerXlsx(document));
    const at = (name: string) => header.indexOf(name);
    const m8 = rows.find((r) => r[0] === "М-8")!;
    expect(m8[at("Тип средства измерений")]).toBe("ДМС 03");
    expect(m8[at("Номер в Госреестре СИ")]).toBe("12345-06");
    expect(m8[at("Заводской номер")]).toBe("0418");
    expect(m8[at("Поверен")]).toBe("01.03.2025");
    expect(m8[at("Поверка действительна до")]).toBe("28.02.2026");
    expect(m8[at("Свидетельство о поверке")]).toBe("С-418");
    expect(m8[at("Состояние поверки")]).toBe("вне поверки с 01.03.2026");
    const m7 = rows.find((r) => r[0] === "М-7")!;
    expect(m7[at("Состояние поверки")]).toBe("поверка не записана");
    expect(m7[at("Ее результат")]).toBe("не прошел");
  });
});
