// What a project export contains (docs/user-guide.md, «Export»; docs/api.md), independent of the file format: the project,
// then for each calculation type (registry order) a sheet with one row per active calculation, and
// at the end the totals, which sum the project's primary calculations only and say what they left
// out (D18). Columns, labels, units and decimals come from the registry.
//   plain:    №, name, creation date, the results (tables summarised in counts).
//   detailed: adds the audit (changed, author, methodology version), every input and setting, the
//             source of every coefficient (dictionary, entry, version, reference), the uploaded
//             file's name, and a second sheet per file-based or forecast type with its rows.
// Calculations are read one type at a time and dropped after their sheets, so memory holds one
// type's calculations, never the whole project's views.
import { enteredText } from "@core/entry-units";
import { DEFAULT_TIME_ZONE, dateText } from "@core/company-clock";
import { COEFFICIENT_SOURCE_LABELS, TIER_LABELS, tierOf } from "@core/coefficient-sources";
import {
  CALCULATION_TYPES,
  FILL_METHODS,
  calculationDefinition,
  type CalculationDefinition,
  type CalculationType,
  type InputField,
  type ResultField,
  unitWith,
  usedEntry,
} from "@core/registry";
import { REFERENCE_DICTIONARIES, plainReference } from "../dictionaries/reference-data";
import { calculationApproach1, type Interval } from "@core/calculation-uncertainty";
import { uncertaintyCore } from "@core/uncertainty-node";
import { modelOf } from "../domain/inventory/uncertainty";
import { countInProject, notCountedLine } from "../domain/calculations/counting";
import {
  emissionPointKindInText,
  INVENTORY_ROLE_SHORT,
  NETTING_LABEL,
  inventorySourceOf,
  roleOf,
  takesPoint,
  type LeftOut,
} from "@core/inventory";
import { gwpText, projectFigures, type ProjectNetting } from "../domain/inventory/project-figures";
import { PURE_METHANE_MARK, assumesPureMethane } from "@core/methane-balance";
import { coefficientFlags, gwpNotInForce } from "../domain/reference/coefficients";
import type { StoredCalculation, CoefficientUse, EmissionPoint } from "../ports";
import type { Project } from "../contract/schemas/project";

export type Cell = string | number | null;

export interface Column {
  header: string;
  kind: "number" | "text";
  /** Decimals of the number format; numbers are written unrounded. */
  decimals?: number;
  /** false for numbers read as names — a year, a row number: 2024, not 2 024 (txt). */
  grouping?: false;
  /** A value as it was entered or stored (an input, a coefficient): the txt prints every decimal it
   *  has, at least the column's — 0,954059, never «0,95». */
  asStored?: true;
  /** A number column of dates and times: each cell the company's wall time as a spreadsheet serial
   *  (`spreadsheetSerial`), shown «ДД.ММ.ГГГГ ЧЧ:ММ» — a date the spreadsheet sorts and counts. */
  datetime?: true;
  width: number;
}

/** A wall time «ДД.ММ.ГГГГ ЧЧ:ММ» (dateTimeText) as a spreadsheet's serial day number (days since
 *  30.12.1899, the fraction the time of day), or undefined where the text is no such time. */
export function spreadsheetSerial(wall: string): number | undefined {
  const m = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2})$/.exec(wall);
  if (!m) return undefined;
  return Date.UTC(+m[3], +m[2] - 1, +m[1], +m[4], +m[5]) / 86_400_000 + 25_569;
}

/** The decimals a number is shown with: its column's, or more where a non-zero value below 1 would
 *  lose its two significant digits (a flare's CF 0,0006 is never «0,00»). Values stay unrounded. */
export function cellDecimals(value: number, column: Column | undefined): number {
  const decimals = column?.decimals ?? 2;
  if (column?.asStored && Number.isFinite(value)) return Math.min(12, Math.max(decimals, storedPlaces(value)));
  if (value === 0 || !Number.isFinite(value) || Math.abs(value) >= 1 || column?.grouping === false) return decimals;
  const significant = Number(Math.abs(value).toPrecision(2)).toString();
  const places = /e-(\d+)$/.exec(significant)
    ? Number(/e-(\d+)$/.exec(significant)![1]) + (significant.split("e")[0].split(".")[1]?.length ?? 0)
    : (significant.split(".")[1]?.length ?? 0);
  return Math.min(12, Math.max(decimals, places));
}

/** The decimals a stored number has: 0.954059 → 6, 1250000 → 0, 1e-7 → 7. */
function storedPlaces(value: number): number {
  const plain = Math.abs(value).toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 });
  return plain.split(".")[1]?.length ?? 0;
}

export interface Sheet {
  /** Unique, at most 31 characters, none of []:*?/\ (Excel's rules). */
  name: string;
  /** How a text export lays it out: «Параметр: значение» lines, one block per row (the first
   *  `lead` cells head the block), or not at all (row detail that the records already summarise). */
  text: { layout: "pairs" } | { layout: "records"; lead: number } | { layout: "none" };
  /** The first row, above the header row; both stay frozen. */
  title: string;
  columns: Column[];
  /** Async where rows are read as they are written (a forecast's rows from the blob store). */
  rows: Iterable<Cell[]> | AsyncIterable<Cell[]>;
  /** The decimals of a number cell of a text column, by its row (0: the first of `rows`) and column:
   *  the xlsx gives it that grouped number format («4 563,274» a number, not a text). */
  cellDecimals?: (row: number, column: number) => number | undefined;
}

export interface ExportOptions {
  detail: boolean;
  /** Decimals of results (the client's `comma` setting, 0..4). */
  decimals: number;
  now: Date;
  /** The company's time zone: the calendar dates the file prints are its. */
  zone: string;
  /** D25: the emission points of the project's facility; absent for a project without one. */
  points?: readonly EmissionPoint[];
}

/** D25: «Вентиляционный ствол № 1 (вентиляционный ствол (вентилятор))»; no point: the facility as a whole. */
function pointAccessors(type: CalculationType, options: ExportOptions): Accessor[] {
  const { points } = options;
  if (!points || !takesPoint(type)) return [];
  const byId = new Map(points.map((p) => [p.id, `${p.name} (${emissionPointKindInText(p.kind)})`]));
  return [{ column: textColumn("Источник выбросов", 32), value: (c) => (c.point ? (byId.get(c.point) ?? null) : "вся площадка") }];
}

/** Reads one type's active calculations of the project, oldest first. */
export type CalculationSource = (type: CalculationType) => Promise<StoredCalculation[]>;

/** A forecast's rows [{id, x1…x15, result}]: domain/forecast/forecast.ts forecastRowsOf, the one reader. */
export type ForecastRowsReader = (calculation: StoredCalculation) => Promise<ReadonlyArray<Record<string, unknown>>>;

export interface TypeSection {
  type: CalculationType;
  title: string;
  calculations: StoredCalculation[];
}

const withUnit = (label: string, unit: string) => (unit ? `${label}, ${unit}` : label);

const number = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

const text = (value: unknown): string | null =>
  typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : null;

/** Sections in registry order, one type read at a time; types with no calculation are skipped. */
export async function* typeSections(source: CalculationSource): AsyncGenerator<TypeSection> {
  for (const type of CALCULATION_TYPES) {
    const calculations = await source(type);
    if (calculations.length === 0) continue;
    yield { type, title: calculationDefinition(type).title, calculations };
  }
}

// ---- coefficients ------------------------------------------------------------------------------

const dictionaryTitles = new Map(REFERENCE_DICTIONARIES.map((d) => [d.name, d.title]));

/** Where a stored coefficient came from, as one line of text (methodology D9). */
export function describeCoefficient(use: CoefficientUse | undefined): string | null {
  if (!use) return null;
  switch (use.source) {
    case "dictionary": {
      const dictionary = use.dictionary ? (dictionaryTitles.get(use.dictionary) ?? use.dictionary) : "справочник";
      const entry = use.item_name ? ` «${use.item_name}»` : "";
      const id = use.item_id !== undefined ? ` № ${use.item_id}` : "";
      const version = use.item_version !== undefined ? `, версия ${use.item_version}` : "";
      return `Справочник «${dictionary}», запись${id}${entry}${version}${use.reference ? `; ${plainReference(use.reference)}` : ""}`;
    }
    case "custom": {
      // D10: why the mine's own value is what it is, and the file that shows it.
      const why = use.justification ? `обоснование: ${use.justification}` : "без обоснования";
      const evidence = use.evidence ? `; подтверждающий документ «${use.evidence.name}»` : "";
      return `${COEFFICIENT_SOURCE_LABELS.custom}; ${why}${evidence}`;
    }
    default:
      return COEFFICIENT_SOURCE_LABELS[use.source];
  }
}

// ---- columns of the main sheet -----------------------------------------------------------------

interface Accessor {
  column: Column;
  value(calculation: StoredCalculation, index: number): Cell;
}

const numberColumn = (header: string, decimals: number, width = 16): Column => ({ header, kind: "number", decimals, width });
const textColumn = (header: string, width = 24): Column => ({ header, kind: "text", width });
const labelColumn = (header: string, width: number): Column => ({ header, kind: "number", decimals: 0, grouping: false, width });

interface Element {
  name?: unknown;
  rows?: unknown;
  data_sensitivity?: unknown;
}

/** File-based results are stored as elements (docs/api.md): {elements: [{id, name, rows | data_sensitivity}]}. */
const elementsOf = (calculation: StoredCalculation, field: string): Element[] => {
  const stored = calculation.results.elements ?? calculation.results[field];
  return Array.isArray(stored) ? (stored as Element[]) : [];
};

const elementRows = (element: Element, key: "rows" | "data_sensitivity"): Array<Record<string, unknown>> =>
  Array.isArray(element[key]) ? (element[key] as Array<Record<string, unknown>>) : [];

/** Rows of a table result stored as they are (underground's measurement periods, D14). */
const periodRows = (calculation: StoredCalculation, field: string): Array<Record<string, unknown>> | undefined => {
  const rows = calculation.results[field];
  return Array.isArray(rows) ? (rows as Array<Record<string, unknown>>) : undefined;
};

/** «2025-01-31» as Russian readers write it: 31.01.2025 (a plain date: no zone applies). */
const russianDate = (value: unknown): string | null =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? dateText(value, DEFAULT_TIME_ZONE) : text(value);

/** Table results summarised in counts: the plain export and the txt show these. */
function tableSummary(type: CalculationType, field: ResultField): Accessor[] {
  const rowsOf = (c: StoredCalculation) => elementsOf(c, field.name);
  if (type === "filling_blanks") {
    const all = (c: StoredCalculation) => rowsOf(c).flatMap((e) => elementRows(e, "rows"));
    return [
      { column: numberColumn("Элементов", 0, 12), value: (c) => rowsOf(c).length },
      { column: numberColumn("Строк", 0, 10), value: (c) => all(c).length },
      {
        column: numberColumn("Заполнено пропусков", 0, 14),
        value: (c) => all(c).filter((r) => r.method !== null && r.method !== undefined && r.method !== "empty").length,
      },
    ];
  }
  if (type === "sensitivity") {
    return [
      { column: numberColumn("Элементов", 0, 12), value: (c) => rowsOf(c).length },
      { column: numberColumn("Строк", 0, 10), value: (c) => rowsOf(c).flatMap((e) => elementRows(e, "data_sensitivity")).length },
    ];
  }
  if (type === "underground") {
    // D14: a calculation by measurement periods; one by a single volume has none.
    return [{ column: numberColumn("Периодов измерений", 0, 14), value: (c) => periodRows(c, field.name)?.length ?? null }];
  }
  // A forecast: the summary stored beside its rows (domain/forecast/forecast.ts forecastSummary, made from
  // the same rows), so the main sheet reads no row; the detailed export's row sheet reads them.
  const unit = field.columns?.find((col) => col.name === "result")?.unit ?? "";
  return [
    { column: numberColumn("Строк прогноза", 0, 12), value: (c) => number(c.results.rows) ?? 0 },
    { column: numberColumn(withUnit("Максимальный прогноз", unit), 4, 18), value: (c) => number(c.results.max_result) },
  ];
}

function resultAccessors(type: CalculationType, def: CalculationDefinition, decimals: number): Accessor[] {
  return def.results.flatMap((field): Accessor[] => {
    if (field.type === "table") return tableSummary(type, field);
    if (field.type === "text") return [{ column: textColumn(field.label, 60), value: (c) => text(c.results[field.name]) }];
    return [{ column: numberColumn(withUnit(field.label, field.unit), decimals, 18), value: (c) => number(c.results[field.name]) }];
  });
}

function inputAccessors(def: CalculationDefinition): Accessor[] {
  const fields: InputField[] = [...def.inputs, ...def.settings];
  return fields.flatMap((field): Accessor[] => {
    if (field.type === "table") return [];
    if (field.type === "file") return [{ column: textColumn(field.label, 28), value: (c) => c.file?.name ?? null }];
    if (field.type === "number") {
      const stored: Accessor = {
        column: { ...numberColumn(withUnit(field.label, field.unit), field.decimals), asStored: true },
        value: (c) => number(c.inputs[field.name]),
      };
      // 4.8: a column of several fuels: each row's fuel unit beside it (тыс. м³ of a gas, т of a fuel).
      if (field.unitByEntry) {
        const unit = (c: StoredCalculation) => unitWith(def, field, (d) => usedEntry(c.coefficients ?? {}, d));
        return [stored, { column: textColumn(`Единица: ${field.label}`, 14), value: unit }];
      }
      if (!field.units) return [stored];
      // D13: beside the stored value, the value and unit as the user entered them.
      const entered = (c: StoredCalculation) => c.entered?.[field.name];
      return [stored, { column: textColumn(`Введено: ${field.label}`, 20), value: (c) => (entered(c) ? enteredText(entered(c)!) : null) }];
    }
    // A choice as a user reads it («XGBoost»), never its stored key.
    const titled = (value: string | null) => (value !== null && field.optionTitles?.[value]) || value;
    return [{ column: textColumn(withUnit(field.label, field.unit), 20), value: (c) => titled(text(c.inputs[field.name])) }];
  });
}

/** One «Источник: …» column per coefficient that any calculation of the section carries, each
 *  followed by its «Уровень: …» (D29: the label follows where the value came from, as in the
 *  results dialog and the passport). */
function coefficientAccessors(def: CalculationDefinition, calculations: StoredCalculation[]): Accessor[] {
  const present = new Set(calculations.flatMap((c) => Object.keys(c.coefficients ?? {})));
  const labels = new Map([...def.inputs, ...def.settings].map((f) => [f.name, f.label]));
  const ordered = [...labels.keys()].filter((name) => present.has(name));
  for (const name of present) if (!labels.has(name)) ordered.push(name);
  return ordered.flatMap((name): Accessor[] => [
    {
      column: textColumn(`Источник: ${labels.get(name) ?? name}`, 40),
      value: (c) => describeCoefficient(c.coefficients?.[name]),
    },
    {
      column: textColumn(`Уровень: ${labels.get(name) ?? name}`, 30),
      value: (c) => {
        const use = c.coefficients?.[name];
        return use ? TIER_LABELS[tierOf(c.type, name, use.source)] : null;
      },
    },
  ]);
}

const FLAG_KINDS: Record<string, string> = {
  custom_without_justification: "фактическое значение без обоснования",
  custom_out_of_range: "фактическое значение вне правдоподобного диапазона",
  // D23: the dictionary field's band was applied instead.
  custom_without_uncertainty: "неопределенность не указана",
};

/** What a reader should check (D10, D12), in words as the results dialog shows them: «<field>:
 *  фактическое значение без обоснования», «…вне правдоподобного диапазона», the evidence file of a
 *  custom value by name, and a GWP set other than the one in force for the project's reporting
 *  year (gwpNotInForce). */
export function calculationMarks(def: CalculationDefinition, calculation: StoredCalculation): string | null {
  const labels = new Map([...def.inputs, ...def.settings].map((f) => [f.name, f.label]));
  const marks = coefficientFlags(def, calculation.coefficients).map((flag) => {
    const [kind, field = ""] = flag.split(":");
    return `${labels.get(field) ?? field}: ${FLAG_KINDS[kind] ?? "требует проверки"}`;
  });
  for (const [field, use] of Object.entries(calculation.coefficients ?? {})) {
    if (use.source === "custom" && use.evidence)
      marks.push(`${labels.get(field) ?? field}: подтверждающий документ «${use.evidence.name}»`);
  }
  // D24: the CO2 already in the gas is not counted by a type that takes it as pure methane.
  if (assumesPureMethane(calculation)) marks.push(PURE_METHANE_MARK);
  if (gwpNotInForce(calculation)) marks.push(`набор ПГП не действует для отчетного года ${calculation.gwp_in_force!.reporting_year}`);
  return marks.length ? marks.join("; ") : null;
}

/** «Отметки» of the formula types, the ones whose coefficients can be the mine's own. */
function marksAccessors(def: CalculationDefinition): Accessor[] {
  if (def.kind !== "formula") return [];
  return [{ column: textColumn("Отметки", 48), value: (c) => calculationMarks(def, c) }];
}

/** The 95 % interval of an emission calculation (Approach 1, docs/methodology.md, Uncertainty), as the
 *  results view shows it: ± %, then its bounds in t CO2-eq. */
function uncertaintyAccessors(type: CalculationType, decimals: number): Accessor[] {
  const def = calculationDefinition(type);
  if (!def.co2e) return [];
  const unit = def.results.find((r) => r.name === def.co2e)?.unit ?? CO2E_UNIT;
  const cache = new WeakMap<StoredCalculation, Interval | null>();
  const of = (c: StoredCalculation): Interval | null => {
    if (!cache.has(c)) {
      const model = modelOf(c);
      cache.set(c, model ? calculationApproach1(uncertaintyCore(), model) : null);
    }
    return cache.get(c)!;
  };
  return [
    { column: numberColumn("Неопределенность (95 %), ± %", 1, 16), value: (c) => of(c)?.u_pct ?? null },
    { column: numberColumn(withUnit("95 % интервал: от", unit), decimals, 18), value: (c) => of(c)?.lower ?? null },
    { column: numberColumn(withUnit("95 % интервал: до", unit), decimals, 18), value: (c) => of(c)?.upper ?? null },
  ];
}

function mainAccessors(section: TypeSection, options: ExportOptions): Accessor[] {
  const def = calculationDefinition(section.type);
  const head: Accessor[] = [
    { column: labelColumn("№", 6), value: (_c, i) => i + 1 },
    { column: textColumn("Название", 32), value: (c) => c.name },
    { column: textColumn("Дата создания", 14), value: (c) => dateText(c.created_at, options.zone) || null },
    // D18: an alternative is listed and never summed in «Итоги».
    ...(inventorySourceOf(section.type)
      ? [{ column: textColumn("Учет", 16), value: (c: StoredCalculation) => INVENTORY_ROLE_SHORT[roleOf(c)!] }]
      : []),
    ...pointAccessors(section.type, options),
  ];
  if (!options.detail) {
    return [
      ...head,
      ...resultAccessors(section.type, def, options.decimals),
      ...uncertaintyAccessors(section.type, options.decimals),
      ...marksAccessors(def),
    ];
  }
  return [
    ...head,
    { column: textColumn("Дата изменения", 14), value: (c) => dateText(c.updated_at, options.zone) || null },
    // What came with the platform (the demo year) was made by «система», never the account «system».
    { column: textColumn("Автор", 24), value: (c) => (c.created_by === "system" ? "система" : (c.created_by ?? null)) },
    { column: textColumn("Версия методики", 12), value: (c) => c.methodology_version ?? null },
    ...inputAccessors(def),
    ...coefficientAccessors(def, section.calculations),
    ...resultAccessors(section.type, def, options.decimals),
    ...uncertaintyAccessors(section.type, options.decimals),
    ...marksAccessors(def),
  ];
}

// ---- sheets ------------------------------------------------------------------------------------

const MAX_SHEET_NAME = 31;

/** Excel's sheet-name rules; names already taken (case-insensitively) get a number. */
export class SheetNames {
  private readonly used: Set<string>;

  constructor(taken: Iterable<string> = []) {
    this.used = new Set([...taken].map((name) => name.toLocaleLowerCase("ru")));
  }

  take(wanted: string): string {
    const clean =
      wanted
        .replace(/[[\]:*?/\\]/g, " ")
        .replace(/\s+/g, " ")
        .trim() || "Лист";
    for (let n = 1; ; n += 1) {
      const suffix = n === 1 ? "" : ` (${n})`;
      const name = clean.slice(0, MAX_SHEET_NAME - suffix.length).trimEnd() + suffix;
      if (!this.used.has(name.toLocaleLowerCase("ru"))) {
        this.used.add(name.toLocaleLowerCase("ru"));
        return name;
      }
    }
  }
}

export function projectSheet(project: Project, options: ExportOptions, name = "Проект"): Sheet {
  return {
    name,
    text: { layout: "pairs" },
    title: `Проект: ${project.name}`,
    columns: [textColumn("Параметр", 28), textColumn("Значение", 48)],
    rows: [
      ["Название", project.name],
      ["Дата начала", russianDate(project.start_date)],
      ["Дата окончания", russianDate(project.end_date)],
      ["Дата создания", dateText(project.created_at, options.zone) || null],
      ["Дата выгрузки", dateText(options.now, options.zone)],
      ["Вид выгрузки", options.detail ? "Подробный экспорт" : "Экспорт данных"],
    ],
  };
}

export function mainSheet(section: TypeSection, options: ExportOptions, name: string): Sheet {
  const accessors = mainAccessors(section, options);
  return {
    name,
    text: { layout: "records", lead: 2 },
    title: section.title,
    columns: accessors.map((a) => a.column),
    rows: (function* () {
      for (const [index, calculation] of section.calculations.entries()) {
        yield accessors.map((a) => a.value(calculation, index));
      }
    })(),
  };
}

const tableResult = (type: CalculationType) => calculationDefinition(type).results.find((r) => r.type === "table");

/** The detailed export's rows of file-based and forecast calculations, or undefined for a formula type. */
export function rowsSheet(section: TypeSection, options: ExportOptions, name: string, forecastRows: ForecastRowsReader): Sheet | undefined {
  const def = calculationDefinition(section.type);
  const table = tableResult(section.type);
  if (!table) return undefined;
  const title = `${section.title}: строки`;
  /** Every calculation's rows, each after the calculation's name. */
  const sheet = (columns: Column[], rows: Sheet["rows"]): Sheet => ({
    name,
    text: { layout: "none" },
    title,
    columns: [textColumn("Расчет", 32), ...columns],
    rows,
  });
  const calculationRows = (rowsOf: (c: StoredCalculation) => Iterable<Cell[]>) =>
    (function* () {
      for (const c of section.calculations) for (const row of rowsOf(c)) yield [c.name, ...row];
    })();

  if (section.type === "filling_blanks") {
    const cols = table.columns ?? [];
    const label = (n: string) => cols.find((c) => c.name === n)?.label ?? n;
    return sheet(
      [
        textColumn("Элемент", 24),
        labelColumn(label("year"), 8),
        numberColumn(label("value"), options.decimals),
        textColumn(label("method"), 28),
      ],
      calculationRows(function* (c) {
        for (const element of elementsOf(c, table.name)) {
          for (const row of elementRows(element, "rows")) {
            const method = typeof row.method === "string" ? row.method : null;
            yield [
              text(element.name),
              number(row.year),
              number(row.value),
              method === null ? "наблюдение" : (FILL_METHODS[method as keyof typeof FILL_METHODS] ?? method),
            ];
          }
        }
      }),
    );
  }

  if (section.type === "sensitivity") {
    const cols = table.columns ?? [];
    return sheet(
      [
        textColumn("Элемент", 24),
        ...cols.map((col) =>
          col.name === "year"
            ? labelColumn(withUnit(col.label, col.unit), 16)
            : numberColumn(withUnit(col.label, col.unit), Math.max(options.decimals, col.decimals ?? 0)),
        ),
      ],
      calculationRows(function* (c) {
        for (const element of elementsOf(c, table.name)) {
          for (const row of elementRows(element, "data_sensitivity"))
            yield [text(element.name), ...cols.map((col) => number(row[col.name]))];
        }
      }),
    );
  }

  if (section.type === "underground") {
    // D14: each measurement period with its contribution.
    const cols = table.columns ?? [];
    return sheet(
      cols.map((col) =>
        col.type === "text" ? textColumn(col.label, 14) : numberColumn(withUnit(col.label, col.unit), col.decimals ?? options.decimals, 18),
      ),
      calculationRows((c) =>
        (periodRows(c, table.name) ?? []).map((row) =>
          cols.map((col) => (col.type === "text" ? russianDate(row[col.name]) : number(row[col.name]))),
        ),
      ),
    );
  }

  // Forecast data rows: the inputs of each row and its result, its interval and chance as the screen shows them.
  const dataInput = def.inputs.find((f) => f.type === "table");
  const inputColumns = (dataInput && "columns" in dataInput ? dataInput.columns : undefined) ?? [];
  const resultColumns = table.columns ?? [];
  // the models' own named channels (the working's: the face meter, the shearer's run and
  // position), each a column by its name after x1 … x15, as the rows table on the screen shows them.
  const channels = [...new Set(section.calculations.flatMap((c) => forecastChannels(c)))];
  return sheet(
    [
      labelColumn("Строка", 8),
      ...inputColumns.map((col) => numberColumn(withUnit(col.label, col.unit), col.decimals)),
      ...channels.map((name) => numberColumn(name, 4, 18)),
      ...resultColumns.map((col) => numberColumn(withUnit(col.label, col.unit), col.decimals ?? options.decimals, 18)),
      textColumn("Примечание", 48),
    ],
    // One forecast's rows in memory at a time.
    (async function* () {
      for (const c of section.calculations) {
        const judged = forecastJudgement(c);
        for (const [index, raw] of (await forecastRows(c)).entries()) {
          const row = (raw ?? {}) as Record<string, unknown>;
          const result = number(row.result);
          const doubtful = judged.bandDoubtfulFrom !== null && result !== null && result >= judged.bandDoubtfulFrom;
          const notes = [
            // The reason the chance is left empty, once per forecast (its first row).
            index === 0 && !judged.chanceShown && number(row.p_exceed) !== null ? judged.chanceNote : null,
            doubtful && number(row.lo) !== null ? NEAR_LIMIT_MARK : null,
          ].filter((n): n is string => n !== null);
          yield [
            c.name,
            number(row.id) ?? index + 1,
            ...inputColumns.map((col) => number(row[col.name])),
            ...channels.map((name) => number((row.features as Record<string, unknown> | undefined)?.[name])),
            ...resultColumns.map((col) => (col.name === "p_exceed" && !judged.chanceShown ? null : number(row[col.name]))),
            notes.length ? notes.join("; ") : null,
          ];
        }
      }
    })(),
  );
}

/** The named channels a forecast's model reads (its summary's `model.features`; none for a model without them). */
function forecastChannels(c: Pick<StoredCalculation, "results">): string[] {
  const features = (c.results.model as { features?: unknown } | null | undefined)?.features;
  return Array.isArray(features) ? features.filter((f): f is string => typeof f === "string") : [];
}

/** A row's interval near the limit where the band did not hold there on the forecast's history (as on the screen). */
export const NEAR_LIMIT_MARK = "интервал у предела не проверен: не доверять";

/**
 * What the forecast's screen shows of its rows, read from its stored results: the chance
 * of reaching the limit only where judged better than the base rate (else empty, with the reason), and the band
 * near the limit marked from the warning level on where it did not hold there on this history.
 */
export function forecastJudgement(c: Pick<StoredCalculation, "results">): {
  chanceShown: boolean;
  chanceNote: string;
  bandDoubtfulFrom: number | null;
} {
  const probability = c.results.probability as { reliable?: boolean; note?: string | null } | null | undefined;
  const chanceShown = probability?.reliable === true;
  const chanceNote = probability?.note ?? "Вероятность превышения не показывается: она не проверена на истории.";
  const backtest = c.results.backtest as { interval?: { near_limit?: { reliable: boolean } | null } | null } | null | undefined;
  const near = backtest?.interval?.near_limit;
  const warning = number(c.results.warning);
  return { chanceShown, chanceNote, bandDoubtfulFrom: near && !near.reliable && warning !== null ? warning : null };
}

// ---- a forecast's back-test ----------------------------------------------------------------------

export const BACKTEST_SHEET = "Проверка на истории";

/** One back-test score as stored (wasm-core/src/gbdt/backtest.ts ForecastScore). */
type Score = Record<string, unknown> & { lead_time?: { median?: number | null; unit?: string } };

const LEAD_UNITS: Record<string, string> = { min: "мин", step: "шагов", row: "строк" };

/** «Проверка на истории»: per forecast whose rows carry the measured y, the model's and the
 *  persistence baseline's figures side by side (results.backtest; no row is read). */
export function backtestSheet(section: TypeSection, options: ExportOptions, name: () => string): Sheet | undefined {
  const tested = section.calculations.filter((c) => typeof c.results.backtest === "object" && c.results.backtest !== null);
  if (tested.length === 0) return undefined;
  return {
    name: name(),
    text: { layout: "records", lead: 2 },
    title: "Проверка прогноза на истории: модель и последнее измеренное значение",
    columns: [
      textColumn("Расчет", 30),
      textColumn("Показатель", 48),
      numberColumn("Модель", options.decimals, 16),
      numberColumn("Последнее значение", options.decimals, 20),
    ],
    rows: (function* () {
      for (const c of tested) {
        const bt = c.results.backtest as { limit: number; warning: number; model: Score; persistence: Score };
        const level = number(c.results.level) ?? 90;
        const per = bt.model.unit === "shift" ? "смен по 12 ч" : "строк";
        const share = (v: unknown) => (typeof v === "number" ? v * 100 : null);
        const lines: Array<[string, (s: Score) => Cell]> = [
          ["Строк с фактической концентрацией", (s) => number(s.rows)],
          ["Средняя абсолютная ошибка (MAE), %", (s) => number(s.mae)],
          ["Среднеквадратичная ошибка (RMSE), %", (s) => number(s.rmse)],
          ["Средняя относительная ошибка (MAPE), %", (s) => number(s.mape)],
          [`Покрытие ${level}-процентного интервала, %`, (s) => share(s.coverage)],
          [`${per[0].toUpperCase()}${per.slice(1)} с превышением предела ${bt.limit} %`, (s) => number(s.exceedances)],
          [`Превышение предупреждено (уровень ${bt.warning} %)`, (s) => number(s.caught)],
          ["Превышение пропущено", (s) => number(s.missed)],
          ["Ложные тревоги", (s) => number(s.false_alarms)],
          [`Медианное упреждение, ${LEAD_UNITS[bt.model.lead_time?.unit ?? "row"] ?? "строк"}`, (s) => number(s.lead_time?.median ?? null)],
        ];
        for (const [label, value] of lines) yield [c.name, label, value(bt.model), value(bt.persistence)];
      }
    })(),
  };
}

// ---- totals ------------------------------------------------------------------------------------

export interface TypeTotal {
  title: string;
  count: number;
  /** How many of them the sums count (D18: an alternative is listed, never summed). */
  counted: number;
  /** Sum of the type's CO2-equivalent result (registry `co2e`), when it has one. */
  co2e: number | null;
}

/** `counts`: whether a calculation is summed (D18; every one by default). `co2eOf`: a counted
 *  calculation's CO2-eq (D26: gross, at the reporting year's GWP), else its stored result. */
export function typeTotal(
  section: TypeSection,
  counts: (c: StoredCalculation) => boolean = () => true,
  co2eOf?: (c: StoredCalculation) => number | undefined,
): TypeTotal {
  const field = calculationDefinition(section.type).co2e;
  const summed = section.calculations.filter(counts);
  const co2e = field ? summed.reduce((sum, c) => sum + (co2eOf?.(c) ?? number(c.results[field]) ?? 0), 0) : null;
  return { title: section.title, count: section.calculations.length, counted: summed.length, co2e };
}

export const CO2E_UNIT = "т CO2-экв.";
/** What «Итоги» says of a type none of whose calculations the sums count. */
export const NOT_COUNTED = "не учтен";

/** What «Итоги» adds under the types (D26): the netting of the project's facility-year, when it
 *  nets anything, and the GWP set applied. */
export interface TotalsNetting {
  /** t CO2-eq the netting takes off the project's gross mining figures (0: nothing). */
  subtracted_t_co2e: number;
  /** «ПГП: …»: the set of the reporting year. */
  gwp: string;
}

/** `notCounted`: what the sums left out (D18), a line of its own under «Всего». */
export function totalsSheet(
  totals: TypeTotal[],
  options: ExportOptions,
  name: string,
  notCounted: string | null = null,
  netting?: TotalsNetting,
): Sheet {
  const gross = totals.filter((t) => t.co2e !== null).reduce((sum, t) => sum + (t.co2e ?? 0), 0);
  const subtracted = netting?.subtracted_t_co2e ?? 0;
  const all = gross - subtracted;
  return {
    name,
    text: { layout: "records", lead: 1 },
    title: "Итоги по типам расчетов",
    columns: [
      textColumn("Тип расчета", 60),
      // D18: how many calculations the sums count; what they leave out is the line under «Всего».
      numberColumn("Расчетов", 0, 12),
      numberColumn(withUnit("Выбросы", CO2E_UNIT), options.decimals, 20),
    ],
    rows: [
      // A type whose every calculation is an alternative is «не учтен», never «0,00» (D18).
      ...totals.map((t) => [t.title, t.counted, t.co2e !== null && t.count > 0 && t.counted === 0 ? NOT_COUNTED : t.co2e] as Cell[]),
      // D17, D26: the gas the facility-year destroyed comes off the project's gross mining figures.
      ...(subtracted > 0 ? [[`${NETTING_LABEL}: вычтено из валовых выбросов при добыче`, null, subtracted] as Cell[]] : []),
      [subtracted > 0 ? "Всего (за вычетом метана, направленного на сжигание)" : "Всего", totals.reduce((s, t) => s + t.counted, 0), all],
      ...(notCounted ? [[notCounted, null, null] as Cell[]] : []),
      ...(netting ? [[`ПГП: ${netting.gwp}`, null, null] as Cell[]] : []),
    ],
  };
}

/** Every sheet of an export in order: project, per type main (+ rows when detailed), totals. */
export async function* exportSheets(
  project: Project,
  source: CalculationSource,
  options: ExportOptions,
  forecastRows: ForecastRowsReader,
  /** D26: the year's GWP and the facility-year's balance; without it the stored results are summed. */
  netting?: ProjectNetting,
): AsyncGenerator<Sheet> {
  const names = new SheetNames();
  yield projectSheet(project, options, names.take("Проект"));
  const totals: TypeTotal[] = [];
  const leftOut: LeftOut<StoredCalculation>[] = [];
  let subtracted = 0;
  for await (const section of typeSections(source)) {
    yield mainSheet(section, options, names.take(section.title));
    if (options.detail && tableResult(section.type)) {
      yield rowsSheet(section, options, names.take(`Строки. ${section.title}`), forecastRows)!;
    }
    const history = backtestSheet(section, options, () => names.take(BACKTEST_SHEET));
    if (history) yield history;
    // D18: every calculation is listed; the totals sum the project's primary ones only.
    const counting = countInProject(project, section.calculations);
    const counted = new Set(counting.counted);
    leftOut.push(...counting.left_out);
    const figures = netting ? projectFigures(netting, counting.counted) : undefined;
    if (figures) subtracted += figures.subtracted_t_co2e;
    const gross = (c: StoredCalculation) => figures?.calculations.get(c.id)?.reduce((sum, g) => sum + g.gross_t_co2e, 0);
    totals.push(typeTotal(section, (c) => counted.has(c), gross));
  }
  yield totalsSheet(
    totals,
    options,
    names.take("Итоги"),
    notCountedLine(leftOut),
    netting ? { subtracted_t_co2e: subtracted, gwp: gwpText(netting) } : undefined,
  );
}
