// Downloadable templates for file-based calculations: the columns the upload reader expects, an
// example, and what each column means with its unit. The data and the CSV form only: the API
// imports this module; the .xlsx form is rendered with exceljs by templates.ts behind the
// SpreadsheetWorker port (ports.ts), so the API's bundle does not carry exceljs.

export interface TemplateColumn {
  name: string;
  description: string;
}

export interface Template {
  title: string;
  columns: TemplateColumn[];
  example: Array<Array<number | string | null>>;
}

export const TEMPLATES: Record<string, Template> = {
  filling_blanks: {
    title: "Заполнение пропусков",
    columns: [
      { name: "year", description: "Год (целое число)" },
      { name: "element", description: "Элемент ряда (шахта, источник); укажите это имя в поле «Название столбца элементов»" },
      { name: "value", description: "Значение; пустая ячейка — пропуск. Укажите имя столбца в поле «Название столбца значений»" },
    ],
    example: [
      [2019, "Шахта Северная", 100],
      [2020, "Шахта Северная", null],
      [2021, "Шахта Северная", 130],
      [2022, "Шахта Северная", null],
      [2019, "Шахта Южная", 50],
      [2020, "Шахта Южная", 30],
      [2021, "Шахта Южная", null],
    ],
  },
  regres_methane: {
    title: "Прогноз метана",
    columns: [
      { name: "id", description: "Номер строки (шаг 10 минут); необязательно" },
      { name: "x1", description: "Расход воздуха в исходящей струе лавы по телеметрии, м³/мин" },
      { name: "x2", description: "Расход воздуха в исходящей струе лавы по суточным замерам, м³/мин" },
      { name: "x7", description: "Концентрация метана в каптируемой смеси, %" },
      { name: "x8", description: "Расход смеси, извлекаемой дегазационной установкой, м³/мин" },
      { name: "x12", description: "Средняя концентрация CH4 в исходящей струе шахты, %" },
      { name: "x13", description: "Расход воздуха в исходящей струе шахты, м³/мин" },
      { name: "x15", description: "Расход метана, извлекаемого установкой, м³/мин. Пустая ячейка — пропуск (допускается)" },
    ],
    example: [
      [1, 1324.7, 1266, 37.01, 124.21, 0.408, 18187, 45.264],
      [2, 1432.3, 1501, 32.36, 116.89, 0.511, 16482, 36.886],
      [3, 1380.2, null, 35.5, 120.4, 0.45, 17050, 41.2],
    ],
  },
  sensitivity: {
    title: "Анализ чувствительности",
    columns: [
      { name: "year", description: "Год (целое число)" },
      { name: "volume", description: "Добыча угля, т" },
      { name: "methane", description: "Относительная метанообильность, м³ CH4 на т угля" },
      { name: "transport_fuel", description: "Необязательно: дизельное топливо на транспортировку угля, т (для всех лет или ни для одного)" },
      { name: "element", description: "Необязательно: элемент (шахта) для нескольких рядов в одном файле" },
    ],
    example: [
      [2020, 1000000, 10, null, null],
      [2021, 1200000, 9, null, null],
      [2022, 1100000, 11, null, null],
    ],
  },
};

export function templateCsv(template: Template): Uint8Array {
  const lines = [template.columns.map((c) => c.name).join(","), ...template.example.map((r) => r.map((v) => (v === null ? "" : String(v).includes(",") ? `"${v}"` : String(v))).join(","))];
  return new TextEncoder().encode(`${lines.join("\n")}\n`);
}
