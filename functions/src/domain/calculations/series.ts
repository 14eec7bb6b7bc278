// Yearly series from uploaded files: gap filling (methodology D7) and sensitivity (D6,
// D6). The file is read by files/tabular.ts; the numbers come from wasm-core.
import { FieldError, fillBlanks, sensitivity, type SensitivityParams, type SensitivityRow } from "@core/emissions";
import { uploadColumns } from "@core/registry";
import { canonicalRow } from "@core/entry-units";
import { CellInvalid, Invalid } from "../errors";
import { columnSpec, headerOf } from "../../files/column-specs";
import { checkEach, type ParsedTable, type RowRefusals, type TableSpec, type UploadReader } from "../../files/tabular";
import { LIMITS } from "../../contract/schemas/limits";

/** Yearly series are small; the cap keeps a calculation inside one stored item. */
export const MAX_SERIES_ROWS = LIMITS.calculations.seriesRows;
/** The elements' share of one stored calculation (DynamoDB holds at most 400 KB an item; the
 *  inputs and coefficients beside them are small). Measured as JSON, which stores larger. */
export const MAX_ELEMENTS_BYTES = LIMITS.calculations.elementsBytes;

/** Refuses, naming the row where it happens, a file whose elements would not fit in one calculation. */
function fitInOneCalculation<T>(elements: T[], firstRows: number[], sheet: string, column: string): T[] {
  let total = 0;
  elements.forEach((element, i) => {
    total += Buffer.byteLength(JSON.stringify(element));
    if (total > MAX_ELEMENTS_BYTES) {
      throw new CellInvalid(
        { sheet, row: firstRows[i], header: column },
        `с этого элемента результат не помещается в один расчет (предел ${MAX_ELEMENTS_BYTES / 1024} КБ); ` +
          "сократите названия элементов или разделите файл на несколько расчетов",
      );
    }
  });
  return elements;
}

export interface FilledElement {
  id: number;
  name: string;
  rows: Array<{ year: number; value: number | null; method: string | null }>;
}

export interface SensitivityElement {
  id: number;
  name: string;
  data_sensitivity: ReturnType<typeof sensitivity>;
}

function requireYear(year: unknown, sheet: string, row: number, header = "year"): number {
  if (typeof year !== "number" || !Number.isInteger(year) || year < 1800 || year > 2200) {
    throw new CellInvalid({ sheet, row, header }, "укажите год числом, например 2024");
  }
  return year;
}

/** Groups rows by the element column (one group named `fallback` when there is none), keeping file order. */
function groupByElement<T>(rows: Array<{ element: string | null; item: T }>, fallback: string) {
  const groups = new Map<string, T[]>();
  for (const { element, item } of rows) {
    const name = element || fallback;
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name)!.push(item);
  }
  return [...groups.entries()];
}

function coreError(error: unknown, sheet: string, element: string, rowOf: (index: number) => number | undefined): never {
  if (error instanceof FieldError) {
    const row = error.row !== undefined ? rowOf(error.row) : undefined;
    if (row) throw new CellInvalid({ sheet, row, element, header: error.field }, error.message);
    throw new Invalid(`Лист «${sheet}», элемент «${element}», столбец «${error.field}»: ${error.message}`);
  }
  throw error;
}

/** The columns of a gap-filling upload: the value and element columns are the ones the user named;
 *  an element column named is required. */
export function fillingBlanksSpec(nameValue: string | undefined, nameElement: string | undefined): TableSpec {
  const named: Record<string, string | undefined> = { name_value: nameValue, name_element: nameElement };
  return {
    maxRows: MAX_SERIES_ROWS,
    columns: uploadColumns("filling_blanks").flatMap((column) => {
      if (!column.namedBy) return [columnSpec(column)];
      const name = named[column.namedBy];
      return name ? [{ ...columnSpec(column, name), required: true }] : [];
    }),
  };
}

export const sensitivitySpec = (): TableSpec => ({
  maxRows: MAX_SERIES_ROWS,
  columns: uploadColumns("sensitivity").map((column) => columnSpec(column)),
});

/** A filling_blanks upload: the value column `nameValue`, the elements by `nameElement` (none: one
 *  element named `fallbackName`). */
export const fillingBlanksReader = (
  nameValue: string,
  nameElement: string | undefined,
  fallbackName: string,
): UploadReader<FilledElement[]> => ({
  spec: fillingBlanksSpec(nameValue, nameElement),
  rows: (table, refused) => fillingBlanksFromTable(table, nameValue, nameElement, fallbackName, refused),
});

/** With `refused`, a row's or an element's error is handed to it and the row or element left out
 *  (the preview, files/tabular.ts). */
export function fillingBlanksFromTable(
  table: ParsedTable,
  nameValue: string,
  nameElement: string | undefined,
  fallbackName: string,
  refused?: RowRefusals,
): FilledElement[] {
  const rows = checkEach(
    table.rows,
    (r) => ({
      element: nameElement ? (r.values[nameElement] as string | null) : null,
      item: {
        year: requireYear(r.values.year, table.sheet, r.row, headerOf(table, "year")),
        value: r.values[nameValue] as number | null,
        row: r.row,
      },
    }),
    refused,
  );
  const groups = groupByElement(rows, fallbackName);
  const elements = checkEach(
    groups,
    ([name, series], index) => {
      let filled;
      try {
        filled = fillBlanks(
          series.map((s) => s.year),
          series.map((s) => s.value),
        );
      } catch (error) {
        coreError(error, table.sheet, name, (i) => series[i]?.row);
      }
      return { id: index + 1, name, rows: filled.map((f) => ({ year: f.year, value: f.value, method: f.method })) };
    },
    refused,
  );
  return fitInOneCalculation(
    elements,
    elements.map((e) => groups[e.id - 1][1][0].row),
    table.sheet,
    nameElement ?? nameValue,
  );
}

/** A sensitivity upload, computed with `params`. */
export const sensitivityReader = (params: Partial<SensitivityParams>, fallbackName: string): UploadReader<SensitivityElement[]> => ({
  spec: sensitivitySpec(),
  rows: (table, refused) => sensitivityFromTable(table, params, fallbackName, refused),
});

/** With `refused`, as fillingBlanksFromTable. */
export function sensitivityFromTable(
  table: ParsedTable,
  params: Partial<SensitivityParams>,
  fallbackName: string,
  refused?: RowRefusals,
): SensitivityElement[] {
  const columns = uploadColumns("sensitivity");
  const rows = checkEach(
    table.rows,
    (read) => {
      // D13: a production given in thousand t (volume_unit) is taken in t.
      let r;
      try {
        r = { ...read, values: canonicalRow(columns, read.values) };
      } catch (error) {
        if (error instanceof FieldError)
          throw new CellInvalid({ sheet: table.sheet, row: read.row, header: headerOf(table, error.field) }, error.message);
        throw error;
      }
      const missing = (["volume", "methane"] as const).find((c) => r.values[c] === null);
      if (missing) throw new CellInvalid({ sheet: table.sheet, row: r.row, header: headerOf(table, missing) }, "значение не заполнено");
      return {
        element: (r.values.element as string | null) ?? null,
        item: {
          row: r.row,
          input: {
            year: requireYear(r.values.year, table.sheet, r.row, headerOf(table, "year")),
            volume: r.values.volume as number,
            methane: r.values.methane as number,
            transport_fuel: r.values.transport_fuel as number | null | undefined,
          } satisfies SensitivityRow,
        },
      };
    },
    refused,
  );
  const groups = groupByElement(rows, fallbackName);
  const elements = checkEach(
    groups,
    ([name, series], index) => {
      try {
        return {
          id: index + 1,
          name,
          data_sensitivity: sensitivity(
            series.map((s) => s.input),
            params,
          ),
        };
      } catch (error) {
        coreError(error, table.sheet, name, (i) => series[i]?.row);
      }
    },
    refused,
  );
  return fitInOneCalculation(
    elements,
    elements.map((e) => groups[e.id - 1][1][0].row),
    table.sheet,
    "element",
  );
}
