// a company-year's calculations as one workbook, beside the passport: every counted
// calculation of the year, a row per gas, with its facility, emission point, project, period,
// Order 371 category, IPCC line, its own figure, what the facility-year's netting took off it and
// the netted figure (D17, D26), so an office can filter and sum them; the last row is the year's
// total in t CO2-eq. The inventory is the version the passport prints (report.ts, printedState).
import { ORDER_371_CATEGORIES, type Order371Category } from "@core/inventory";
import { ruDate } from "@core/dates";
import type { Cell, Column, Sheet } from "./content";
import { workbookBytes, writeXlsx } from "./xlsx-writer";
import { stampZip } from "./zip-writer";
import type { EmissionPoint, Facility } from "../ports";
import type { Inventory } from "../domain/inventory/types";

type Line = Pick<
  Inventory["calculations"][number],
  "name" | "type_title" | "project" | "facility" | "point" | "counted" | "category" | "ipcc_code" | "period" | "gases" | "netting"
>;

export interface YearCalculationsInput {
  year: number;
  company: string;
  /** The approved version listed; none: the live draft. */
  version?: number;
  /** an approved version's workbook is dated by its approval on the company's clock (the
   *  wall time as its staff read it: a zip entry's time has no zone), so every download is the same
   *  bytes; a draft's is dated now. */
  dated?: Date;
  facilities: readonly Pick<Facility, "id" | "name">[];
  points: readonly Pick<EmissionPoint, "id" | "name">[];
  inventory: { calculations: readonly Line[]; categories: readonly { ipcc_code: string; ipcc_label?: string }[] };
}

const text = (header: string, width: number): Column => ({ header, kind: "text", width });
const tonnes = (header: string): Column => ({ header, kind: "number", decimals: 2, width: 18 });

export const YEAR_CALCULATIONS_COLUMNS: Column[] = [
  text("Площадка", 28),
  text("Источник выбросов", 30),
  text("Проект", 30),
  text("Расчет", 34),
  text("Вид расчета", 40),
  text("Период", 24),
  text("Категория (Приказ № 371)", 34),
  text("Строка МГЭИК", 40),
  text("Газ", 8),
  tonnes("Выброс, т"),
  tonnes("Вычтено: направлено на сжигание (факел, котельная), т"),
  tonnes("Выброс за вычетом, т"),
  tonnes("Выброс за вычетом, т CO2-экв."),
];

/** The rows: a counted calculation's gases, by facility, point, line and name; then the total. */
export function yearCalculationRows(input: YearCalculationsInput): Cell[][] {
  const facilities = new Map(input.facilities.map((f) => [f.id, f.name]));
  const points = new Map(input.points.map((p) => [p.id, p.name]));
  const lines = new Map(
    input.inventory.categories.map((c) => [c.ipcc_code, c.ipcc_label ? `${c.ipcc_code} ${c.ipcc_label}` : c.ipcc_code]),
  );
  const rows: Cell[][] = [];
  let total = 0;
  for (const line of input.inventory.calculations.filter((c) => c.counted)) {
    const facility = line.facility ? (facilities.get(line.facility) ?? "") : "без площадки";
    const point = line.point ? (points.get(line.point) ?? "") : "вся площадка";
    const category = `${line.category}. ${ORDER_371_CATEGORIES[line.category as Order371Category] ?? ""}`;
    for (const gas of line.gases) {
      const off = line.netting?.find((n) => n.gas === gas.gas);
      const netCo2e = gas.t_co2e - (off?.t_co2e ?? 0);
      total += netCo2e;
      rows.push([
        facility,
        point,
        line.project.name,
        line.name,
        line.type_title,
        `${ruDate(line.period.from)}–${ruDate(line.period.to)}`,
        category,
        lines.get(line.ipcc_code) ?? line.ipcc_code,
        gas.gas,
        gas.t,
        off?.t ?? 0,
        gas.t - (off?.t ?? 0),
        netCo2e,
      ]);
    }
  }
  rows.sort((a, b) => [0, 1, 7, 3, 8].reduce((order, i) => order || String(a[i]).localeCompare(String(b[i]), "ru"), 0));
  rows.push(["Итого", null, null, null, null, null, null, null, null, null, null, null, total]);
  return rows;
}

export async function yearCalculationsXlsx(input: YearCalculationsInput): Promise<Uint8Array> {
  const state = input.version ? `утвержденная версия ${input.version}` : "черновик";
  const sheet: Sheet = {
    name: `Расчеты ${input.year}`,
    text: { layout: "none" },
    title: `${input.company}: учтенные расчеты ${input.year} года (${state})`,
    columns: YEAR_CALCULATIONS_COLUMNS,
    rows: yearCalculationRows(input),
  };
  const { stream: out, bytes } = workbookBytes();
  async function* one() {
    yield sheet;
  }
  // The workbook's commit ends the stream.
  await writeXlsx(one(), out, input.dated);
  return input.dated ? stampZip(await bytes, input.dated) : bytes;
}
