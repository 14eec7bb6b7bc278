// Downloadable templates for file-based calculations: the columns the upload reader expects, an
// example, and what each column means with its unit. The data and the CSV form only: the API
// imports this module; the .xlsx form is rendered with exceljs by templates.ts behind the
// SpreadsheetWorker port (ports/spreadsheet-worker.ts), so the API's bundle does not carry exceljs. The columns are
// the registry's (uploadColumns); the example rows follow their order.
import {
  CALCULATION_TYPES,
  type CalculationDefinition,
  type CalculationType,
  columnDescription,
  type OtherField,
  REGISTRY,
  uploadColumns,
  uploadHeader,
} from "@core/registry";

export interface TemplateColumn {
  /** The registry's column name (year, from, x1…). */
  key: string;
  /** The header: Russian (uploadHeader); the reader also takes the English name and the registry's aliases. */
  name: string;
  description: string;
}

export interface Template {
  title: string;
  columns: TemplateColumn[];
  example: Array<Array<number | string | null>>;
}

function uploadTemplate(type: CalculationType, title: string, example: Template["example"]): Template {
  const columns = uploadColumns(type).map((column) => ({
    key: column.name,
    name: uploadHeader(column),
    description: columnDescription(column),
  }));
  return { title, columns, example };
}

/** The templates of the types read from a file, each from its file field's `template` (the type's module). */
export const TEMPLATES: Record<string, Template> = Object.fromEntries(
  CALCULATION_TYPES.flatMap((type) => {
    const def: CalculationDefinition = REGISTRY[type];
    const template = def.inputs.find((field): field is OtherField => field.type === "file")?.template;
    return template
      ? [
          [
            type,
            uploadTemplate(
              type,
              template.title,
              template.example.map((row) => [...row]),
            ),
          ],
        ]
      : [];
  }),
);

/** The template with its example in the project's reporting `year`: the measured periods' dates
 *  fall in that year, and the yearly series end in it. Without a year, the template as declared. */
export function templateFor(type: string, year?: number): Template | undefined {
  const template = Object.hasOwn(TEMPLATES, type) ? TEMPLATES[type] : undefined;
  if (!template || year === undefined) return template;
  const years = template.columns.map((c) => c.key === "year");
  const last = Math.max(...template.example.flatMap((row) => row.filter((_, i) => years[i]) as number[]));
  const shift = Number.isFinite(last) ? year - last : 0;
  const example = template.example.map((row) =>
    row.map((cell, i) => {
      if (years[i]) return (cell as number) + shift;
      // A date ДД.ММ.ГГГГ moves into the year (the examples' days exist in every year).
      return typeof cell === "string" && /^\d{2}\.\d{2}\.\d{4}$/.test(cell) ? `${cell.slice(0, 6)}${year}` : cell;
    }),
  );
  return { ...template, example };
}

/** The CSV form as Russian Excel opens it by a double click: UTF-8 with a byte order mark (else it
 *  reads the file as cp1251), `;` between cells (the list separator of the Russian locale) and
 *  decimal commas. The upload readers take exactly this back (and `,`-separated dot-decimal files). */
export function templateCsv(template: Template): Uint8Array {
  const text = (v: number | string | null) => (v === null ? "" : typeof v === "number" ? String(v).replace(".", ",") : v);
  const cell = (v: number | string | null) => {
    const shown = text(v);
    return /[";\n]/.test(shown) ? `"${shown.replaceAll('"', '""')}"` : shown;
  };
  const lines = [template.columns.map((c) => cell(c.name)).join(";"), ...template.example.map((r) => r.map(cell).join(";"))];
  return new TextEncoder().encode(`\uFEFF${lines.join("\r\n")}\r\n`);
}
