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
  if (type === SENSOR_LIST) return SENSOR_LIST_TEMPLATE;
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

/** The key of the sensor list's template (D56): `templateFor(SENSOR_LIST)` and the spreadsheet
 *  worker's `template(SENSOR_LIST)` give it, as a calculation type's. */
export const SENSOR_LIST = "sensors";

/** One column of the mine's sensor list as imported into the register (domain/monitoring/ingest/sensor-import.ts):
 *  the register's field, the template's header, its unit and the other headers a list may use. */
export interface SensorListColumn {
  key:
    | "code"
    | "kind"
    | "point"
    | "role"
    | "working"
    | "section"
    | "place"
    | "warning"
    | "alarm"
    | "area_m2"
    | "conditions"
    | "in_service_from"
    | "in_service_to"
    | "norm_place"
    | "airflow_order"
    | "fresh_air_joins";
  header: string;
  label: string;
  unit: string;
  kind: "number" | "text";
  required: boolean;
  aliases: readonly string[];
  description: string;
}

export const SENSOR_LIST_COLUMNS: readonly SensorListColumn[] = [
  {
    key: "code",
    header: "Код датчика",
    label: "Код датчика",
    unit: "",
    kind: "text",
    required: true,
    aliases: ["Код", "Датчик", "code"],
    description: "Код канала, как его называет АГК шахты («М-12», «MM256»); у действующих датчиков площадки коды не повторяются",
  },
  {
    key: "kind",
    header: "Вид датчика",
    label: "Вид датчика",
    unit: "",
    kind: "text",
    required: true,
    aliases: ["Вид", "Тип", "Тип датчика", "kind"],
    description:
      "Метан (0–4 % об.), Метан высоких концентраций (0–100 %), Скорость воздуха, Расход газовой смеси, Давление, Температура или Расход метана (расчетный)",
  },
  {
    key: "point",
    header: "Источник выбросов",
    label: "Источник выбросов",
    unit: "",
    kind: "text",
    required: false,
    aliases: ["Источник", "point"],
    description:
      "Только для канала, который измеряет источник (датчики ствола, дегазационного трубопровода): название источника, как на странице «Профиль»; у датчиков лав и выработок пусто",
  },
  {
    key: "role",
    header: "Роль",
    label: "Роль",
    unit: "",
    kind: "text",
    required: false,
    aliases: ["role"],
    description: "сигнализирующий, отключающий или регистрирующий (по умолчанию регистрирующий)",
  },
  {
    key: "working",
    header: "Выработка",
    label: "Выработка",
    unit: "",
    kind: "text",
    required: false,
    aliases: ["working"],
    description: "Лава или выработка, к которой относится датчик; пусто, если ни к какой",
  },
  {
    key: "section",
    header: "Участок",
    label: "Выемочный участок или подготовительная выработка",
    unit: "",
    kind: "text",
    required: false,
    aliases: ["Выемочный участок", "Подготовительная выработка", "section"],
    description:
      "Выемочный участок или подготовительная выработка, как их называет шахта («Выемочный участок 24-12»): датчики одного участка дают общее загазирование",
  },
  {
    key: "place",
    header: "Место датчика",
    label: "Место датчика",
    unit: "",
    kind: "text",
    required: false,
    aliases: ["Место", "Место установки", "place"],
    description:
      "У забоя, В 10–20 м от забоя, Исходящая струя очистной выработки, Исходящая струя выемочного участка, Исходящая струя крыла, шахты, Поступающая струя, Ствол, Дегазационный трубопровод, Газоотсасывающий трубопровод или Другое место (пусто: место источника, у датчика без источника — другое)",
  },
  {
    key: "warning",
    header: "Предупредительный уровень W, % об. (CO — ppm)",
    label: "Предупредительный уровень W",
    unit: "% об. (CO — ppm)",
    kind: "number",
    required: false,
    aliases: ["Предупредительный уровень W, % об.", "W", "Уровень W", "warning"],
    description: "Для датчиков метана, CO и CO2: предупредительный уровень в единицах датчика — % об. (например, 1), для CO ppm",
  },
  {
    key: "alarm",
    header: "Аварийный уровень A, % об. (CO — ppm)",
    label: "Аварийный уровень A",
    unit: "% об. (CO — ppm)",
    kind: "number",
    required: false,
    aliases: ["Аварийный уровень A, % об.", "A", "А", "Уровень A", "Уровень А", "alarm"],
    description:
      "Для датчиков метана, CO и CO2: аварийный уровень в единицах датчика, не ниже предупредительного — % об. (например, 1,5), для CO ppm; у кислорода уровней нет",
  },
  {
    key: "area_m2",
    header: "Площадь сечения, м²",
    label: "Площадь сечения",
    unit: "м²",
    kind: "number",
    required: false,
    aliases: ["Площадь сечения выработки", "Сечение", "area_m2"],
    description: "Для анемометров (скорость воздуха): площадь сечения выработки, м²",
  },
  {
    key: "conditions",
    header: "Условия расхода",
    label: "Условия расхода",
    unit: "",
    kind: "text",
    required: false,
    aliases: ["Условия", "conditions"],
    description:
      "стандартные (20 °C и 101,325 кПа, по умолчанию) или рабочие (приводятся к стандартным по датчикам давления и температуры)",
  },
  {
    key: "in_service_from",
    header: "В эксплуатации с",
    label: "В эксплуатации с",
    unit: "",
    kind: "text",
    required: false,
    aliases: ["Дата ввода", "in_service_from"],
    description: "Дата ввода в эксплуатацию, ДД.ММ.ГГГГ; пусто — с начала показаний",
  },
  {
    key: "in_service_to",
    header: "В эксплуатации по",
    label: "В эксплуатации по",
    unit: "",
    kind: "text",
    required: false,
    aliases: ["Дата вывода", "in_service_to"],
    description: "Дата вывода из эксплуатации, ДД.ММ.ГГГГ; пусто — в эксплуатации",
  },
  {
    key: "norm_place",
    header: "Норма загазирования",
    label: "Норма загазирования",
    unit: "",
    kind: "text",
    required: false,
    aliases: ["Норма", "norm_place"],
    description:
      "Только у метанового датчика в месте «Другое место»: по какой строке допустимых концентраций он читается — в выработке и ее исходящей струе, в исходящей струе крыла, шахты, в поступающей струе или в газоотсасывающем трубопроводе; пусто — как в выработке",
  },
  {
    key: "airflow_order",
    header: "Порядок по струе",
    label: "Порядок по струе",
    unit: "",
    kind: "number",
    required: false,
    aliases: ["По струе", "airflow_order"],
    description:
      "Место датчика на пути воздуха участка, целое 0–999 (D103); пусто — по месту: у забоя 10, в 10–20 м от забоя 20, исходящая лавы 30, исходящая участка 40, крыла 50, ствол 60",
  },
  {
    key: "fresh_air_joins",
    header: "Свежий воздух перед датчиком",
    label: "Свежий воздух перед датчиком",
    unit: "",
    kind: "text",
    required: false,
    aliases: ["Подсвежение", "fresh_air_joins"],
    description:
      "«да», если перед датчиком в струю поступает свежий воздух (подсвежение): с датчиком выше по струе он не сравнивается (D103); пусто — нет",
  },
];

/** The sensor list's template: a longwall's return meter of its section (no point: it measures the
 *  longwall's air), a ventilation shaft's own methane meter and anemometer, a drainage line's meters at
 *  actual conditions. The point names are examples: the facility's own are typed in. */
export const SENSOR_LIST_TEMPLATE: Template = {
  title: "Датчики АГК",
  columns: SENSOR_LIST_COLUMNS.map((c) => ({ key: c.key, name: c.header, description: c.description })),
  example: [
    [
      "М-12",
      "Метан (0–4 % об.)",
      null,
      "отключающий",
      "Лава 24-12",
      "Выемочный участок 24-12",
      "Исходящая струя очистной выработки",
      1,
      1.5,
      null,
      null,
      "01.01.2026",
      null,
      null,
      null,
      null,
    ],
    [
      "ВС1-CH4",
      "Метан (0–4 % об.)",
      "Вентиляционный ствол № 1",
      "сигнализирующий",
      null,
      null,
      "Ствол (канал вентилятора)",
      0.75,
      1,
      null,
      null,
      "01.01.2026",
      null,
      null,
      null,
      null,
    ],
    [
      "АН-3",
      "Скорость воздуха",
      "Вентиляционный ствол № 1",
      "регистрирующий",
      null,
      null,
      "Ствол (канал вентилятора)",
      null,
      null,
      24.5,
      "стандартные",
      "01.01.2026",
      null,
      null,
      null,
      null,
    ],
    [
      "ДГ-CH4",
      "Метан высоких концентраций (0–100 %)",
      "Дегазационная установка",
      "регистрирующий",
      null,
      null,
      "Дегазационный трубопровод",
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ],
    [
      "ДГ-Q",
      "Расход газовой смеси",
      "Дегазационная установка",
      "регистрирующий",
      null,
      null,
      "Дегазационный трубопровод",
      null,
      null,
      null,
      "рабочие",
      null,
      null,
      null,
      null,
      null,
    ],
    [
      "ДГ-P",
      "Давление",
      "Дегазационная установка",
      "регистрирующий",
      null,
      null,
      "Дегазационный трубопровод",
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ],
    [
      "ДГ-T",
      "Температура",
      "Дегазационная установка",
      "регистрирующий",
      null,
      null,
      "Дегазационный трубопровод",
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ],
  ],
};
