// D104–D105's files: the cut-offs not confirmed and the hand measurements' journal as their sheets give
// them (numbers as numbers, times on the company's clock, the answer and the confirmation in words, the
// signature lines), and both as a PDF a reader opens.
import { describe, expect, it } from "vitest";
import type { CutoffsDocument, HandMeasurementsDocument } from "../contract/schemas/readings-audit";
import type { Cell } from "./content";
import { cutoffsPdf, cutoffsSheet, handPdf, handSheet } from "./readings-audit";

const ZONE = "Asia/Novokuznetsk";
const CUTOFFS: CutoffsDocument = {
  facility: "f1",
  facility_name: "Шахта «Аудит»",
  from: "2026-03-01",
  to: "2026-03-02",
  zone: ZONE,
  issued_at: "2026-03-02T05:00:00.000Z",
  results: [
    {
      id: "m1.r1.x",
      facility: "f1",
      sensor: "m1",
      sensor_code: "М-1",
      place: "У забоя (призабойное пространство)",
      working: "Лава 12-1",
      setpoint: 1.3,
      start: "2026-03-02T03:10:00.000Z",
      end: "2026-03-02T03:20:00.000Z",
      peak: 1.4,
      minutes: 10,
      run_sensor: "r1",
      run_code: "РК-1",
      run_minutes: 10,
      text: "отключение не подтверждено: М-1 1,40 % при уставке отключения 1,30 %, РК-1 в работе 10 мин",
      state: "confirmed",
      answer: {
        cause: "protection_failed",
        cause_text: "защита не сработала",
        comment: "АГК в ручном режиме",
        by: "Петров И.",
        at: "2026-03-02T03:40:00.000Z",
      },
      confirmation: { duty: "chief_engineer", duty_text: "главный инженер", by: "Семенов И.", at: "2026-03-02T04:00:00.000Z" },
    },
  ],
};

const HAND: HandMeasurementsDocument = {
  facility: "f1",
  facility_name: "Шахта «Аудит»",
  from: "2026-03-01",
  to: "2026-03-02",
  zone: ZONE,
  issued_at: "2026-03-02T05:00:00.000Z",
  results: [
    {
      id: "h1",
      facility: "f1",
      instrument: "ШИ-11",
      instrument_number: "4512",
      place: "Лава 12-1, у датчика М-1",
      working: "Лава 12-1",
      sensor: "m1",
      sensor_code: "М-1",
      value_pct: 1.3,
      measured_at: "2026-03-02T03:15:00.000Z",
      corrects: null,
      corrected_by: null,
      comment: "",
      recorded_by: "Петров И.",
      recorded_at: "2026-03-02T03:16:00.000Z",
      compared: { meter_pct: 0.6, at: "2026-03-02T03:15:00.000Z", difference_pct: 0.7, permitted_pct: 0.2, differs: true },
      text: "расходится с датчиком М-1 (0,60 %) на 0,70 % при допуске ±0,20 %",
    },
  ],
};

describe("the cut-offs not confirmed as a file (D104)", () => {
  it("gives a row per record with its figures as numbers, the cause and the confirmation, then the signature lines", async () => {
    const sheet = cutoffsSheet(CUTOFFS);
    const header = sheet.columns.map((c) => c.header);
    const rows = sheet.rows as Cell[][];
    const [row] = rows;
    const at = (name: string) => row[header.indexOf(name)];
    expect(at("Датчик")).toBe("М-1");
    expect(at("Уставка отключения, % об.")).toBe(1.3);
    expect(at("Максимум, % об.")).toBe(1.4);
    expect(at("Начало")).toBe("02.03.2026 10:10");
    expect(at("Минут в работе после уставки")).toBe(10);
    expect(at("Причина")).toBe("защита не сработала");
    expect(at("Подтвердил")).toBe("главный инженер Семенов И., 02.03.2026 11:00");
    expect(rows.map((r) => r[0])).toContain("Главный инженер");
    const pdf = await cutoffsPdf(CUTOFFS);
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe("%PDF-");
  });
});

describe("the hand measurements' journal as a file (D105)", () => {
  it("gives a row per measurement with the hand and the meter's values as numbers and the comparison in words", async () => {
    const sheet = handSheet(HAND);
    const header = sheet.columns.map((c) => c.header);
    const rows = sheet.rows as Cell[][];
    const [row] = rows;
    const at = (name: string) => row[header.indexOf(name)];
    expect(at("Дата и время замера")).toBe("02.03.2026 10:15");
    expect(at("Ручной замер, % об.")).toBe(1.3);
    expect(at("Показание датчика, % об.")).toBe(0.6);
    expect(at("Расхождение, % об.")).toBe(0.7);
    expect(at("Сравнение")).toBe("расходится с датчиком М-1 (0,60 %) на 0,70 % при допуске ±0,20 %");
    expect(rows.map((r) => r[0])).toContain("Начальник участка ВТБ");
    const pdf = await handPdf(HAND);
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe("%PDF-");
  });
});
