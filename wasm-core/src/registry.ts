// The calculation registry: every calculation type, assembled from its module (wasm-core/src/types/<type>.ts
// declares its title, input and result fields with units and bounds, which dictionary (docs/api.md) feeds
// which input, and which core function computes it). The API, the dialogs, the results view, exports
// and charts read this. Formulas, units and defaults: docs/methodology.md (version below).
// Browser-safe: no Node imports.
import type {
  CalculationDefinition,
  CalculationModule,
  DictionaryBinding,
  DictionaryName,
  InputField,
  MethaneBasis,
  NumberField,
  OtherField,
  UploadColumn,
} from "./types/definition";
import * as recycle_technology from "./types/recycle_technology";
import * as handling_underground_ch4 from "./types/handling_underground_ch4";
import * as open_mining_ch4 from "./types/open_mining_ch4";
import * as open_mining_co2 from "./types/open_mining_co2";
import * as underground from "./types/underground";
import * as underground_emission_ch4 from "./types/underground_emission_ch4";
import * as disposal_co2_torch from "./types/disposal_co2_torch";
import * as disposal_co2_stat_sources from "./types/disposal_co2_stat_sources";
import * as torch_ch4 from "./types/torch_ch4";
import * as torch_composition from "./types/torch_composition";
import * as regres_methane from "./types/regres_methane";
import * as filling_blanks from "./types/filling_blanks";
import * as sensitivity from "./types/sensitivity";
import * as ventilation_air_methane from "./types/ventilation_air_methane";
export { ACTIVITY_KINDS, DEFAULT_GWP_CH4, PHYSICAL_BOUNDS } from "./types/definition";
export type {
  ActivityKind,
  CalculationDefinition,
  CalculationModule,
  CalculationKind,
  CoreFunction,
  DictionaryBinding,
  DictionaryName,
  EntryUnit,
  InputField,
  MethaneBasis,
  NormativeDocument,
  NumberField,
  OtherField,
  ReferenceCategory,
  ResultField,
  UploadColumn,
  VectorsSection,
} from "./types/definition";
export { STATIONARY_FORMULAS } from "./types/disposal_co2_stat_sources";
export { MEASURED_PERIOD, MEASURED_VOLUME_LABEL, type MeasuredPeriodField } from "./types/underground";
export {
  FORECAST_FEATURES,
  FORECAST_MEASURED,
  FORECAST_METHOD_TITLES,
  FORECAST_METHODS,
  FORECAST_PRESSURE,
  FORECAST_TIME_COLUMN,
  METHANE_LIMIT_PERCENT,
  type ForecastFeature,
  type ForecastMethod,
} from "./types/regres_methane";

export const METHODOLOGY_VERSION = "2026.7";

/** A dictionary entry as far as units go: its name and the unit of each of its values. */
export interface UnitEntry {
  readonly name: string;
  readonly units?: Readonly<Record<string, string>>;
}

/** 4.8: the unit a fuel is burnt in, as its entry's name ends («Топливо дизельное, т» → «т»,
 *  «Каптированный шахтный метан (100 % CH4), тыс. м³» → «тыс. м³»); undefined for a name without one. */
export function fuelUnitOf(entryName: string | undefined): string | undefined {
  const unit = entryName ? /,\s*([^,]+)$/.exec(entryName)?.[1].trim() : undefined;
  return unit && /^(?:т|тыс\. м³|м³|млн м³|тыс\. т|кг|л)$/.test(unit) ? unit : undefined;
}

/** The entry of `dictionary` a stored calculation used, as its coefficients record it. */
export function usedEntry(
  coefficients: Readonly<Record<string, { readonly unit: string; readonly dictionary?: string; readonly item_name?: string }>>,
  dictionary: DictionaryName,
): UnitEntry | undefined {
  const used = Object.entries(coefficients).filter(([, use]) => use.dictionary === dictionary);
  const name = used.find(([, use]) => use.item_name)?.[1].item_name;
  return name ? { name, units: Object.fromEntries(used.map(([field, use]) => [field, use.unit])) } : undefined;
}

/** The unit a field reads in with these entries chosen (by dictionary): a dictionary value in its
 *  entry's own unit (the mine-gas entry's factor is per thousand m³, not per t c.e.; a dimensionless
 *  «—» is none), a fuel in its entry's unit; else the field's own. */
export function unitWith(
  def: CalculationDefinition,
  field: NumberField,
  chosen: (dictionary: DictionaryName) => UnitEntry | undefined,
): string {
  const binding = def.dictionaries.find((b) => b.fields.includes(field.name));
  const own = binding ? chosen(binding.dictionary)?.units?.[field.name] : undefined;
  if (own !== undefined) return own === "—" ? "" : own;
  if (field.unitByEntry) return fuelUnitOf(chosen(field.unitByEntry)?.name) ?? field.unit;
  return field.unit;
}

export const CUSTOM_LABEL = "Фактическое значение";

/** D10: every dictionary-fed coefficient may be the company's own value instead of an entry. */
export function customMode(binding: DictionaryBinding): { readonly label: string; readonly fixed?: Readonly<Record<string, number>> } {
  return binding.custom ?? { label: CUSTOM_LABEL };
}

/** D10: the plausible band of a coefficient the user types as the mine's own. Outside it the value
 *  is kept with a warning: the IPCC low–high range of 1.6 widened ×2 (emission factors), densities
 *  0.5–2.2 kg/m³, oxidation 0.9–1.0, concentrations 0–100 %. */
export function plausibleBand(field: NumberField): { readonly min: number; readonly max: number } | undefined {
  if (field.typical) return { min: field.typical.min / 2, max: field.typical.max * 2 };
  if (field.unit === "кг/м³") return { min: 0.5, max: 2.2 };
  if (field.name === "of") return { min: 0.9, max: 1 };
  if (field.unit === "% об." || field.unit === "%") return { min: 0, max: 100 };
  return undefined;
}

export const METHANE_BASES: readonly MethaneBasis[] = ["gross", "net"];
export const METHANE_BASIS_LABELS: Record<MethaneBasis, string> = {
  gross: "Валовый (весь выделившийся метан)",
  net: "Чистый (только попавший в атмосферу)",
};
/** D37: how the dialog asks a measured release's basis (formula 3.1: a drainage station's meter,
 *  a ventilation shaft's), saying what each means. */
export const MEASURED_BASIS_LABELS: Record<MethaneBasis, string> = {
  gross: "Всё каптированное (валовый): весь измеренный газ, включая сожженный на факеле, в котельной, ГПУ",
  net: "Только выброшенное без сжигания (чистый)",
};
export const MEASURED_BASIS_HINT =
  "Валовый — весь газ, который прошел через прибор установки до факела и котельной: инвентаризация вычтет из него метан, " +
  "сожженный на факелах, в котельных и ГПУ. Чистый — только газ, выпущенный в атмосферу без сжигания: из него ничего не " +
  "вычитается. Если прибор измеряет весь каптированный газ, а выбран чистый, сожженный метан будет учтен дважды. " +
  "Для вентиляционного ствола основа не меняет итог: его газ не сжигается.";
export const METHANE_BASIS_HINT =
  "Из валового выброса инвентаризация вычитает метан, сожженный на факелах и утилизированный на этой площадке; из чистого — нет.";

// ---- the registry ------------------------------------------------------------------------------

/** Every calculation type's module, in the order of docs/api.md (Calculations): the one list of the types. */
export const TYPE_MODULES = {
  recycle_technology,
  handling_underground_ch4,
  open_mining_ch4,
  open_mining_co2,
  underground,
  underground_emission_ch4,
  disposal_co2_torch,
  disposal_co2_stat_sources,
  torch_ch4,
  torch_composition,
  regres_methane,
  filling_blanks,
  sensitivity,
  ventilation_air_methane,
} as const satisfies Record<string, CalculationModule>;

/** The rules every emission type keeps, which the inventory, the batch entry point, the uncertainty's
 *  common factor and the entry units rely on (docs/architecture.md, «Adding a calculation type»):
 *  checked here, where the type is registered, so a new type that breaks one fails on importing the
 *  registry with the rule and the type named, before any test of its figures runs. Linearity in the
 *  volume needs the core and is held per type by types/rules.test.ts. */
export function typeRuleBreaches(modules: Readonly<Record<string, CalculationModule>>): string[] {
  const breaches: string[] = [];
  for (const [type, module] of Object.entries(modules)) {
    const def: CalculationDefinition = module.definition;
    if (def.kind !== "formula" || type === "recycle_technology") continue;
    const breach = (rule: string, what: string) => breaches.push(`calculation type «${type}» breaks the rule «${rule}»: ${what}`);
    const numbers = (def.inputs as readonly InputField[]).filter((f): f is NumberField => f.type === "number");
    const volume = numbers.find((f) => f.name === "volume");
    if (!volume) {
      breach("its activity input is named volume", `no number input «volume» (inputs: ${numbers.map((f) => f.name).join(", ")})`);
      continue;
    }
    if (volume.activity === undefined) breach("its activity input is named volume", "«volume» states no activity kind");
    for (const f of numbers) {
      if (f.name !== "volume" && f.activity !== undefined) breach("one activity input", `«${f.name}» states an activity besides «volume»`);
    }
    if (volume.units && !volume.units.some((u) => u.unit === volume.unit && u.power === 0)) {
      breach(
        "units: the canonical unit is an entry unit of power 0",
        `«volume» is stored in «${volume.unit}», not among its entry units at power 0`,
      );
    }
    for (const f of [...numbers, ...def.results]) {
      if (typeof f.unit !== "string") breach("units: every number states its unit", `«${f.name}» has none`);
    }
    if (def.co2e !== undefined && !def.results.some((r) => r.name === def.co2e))
      breach("its CO2-eq is one of its results", `«${def.co2e}» is not a result`);
  }
  return breaches;
}

const typeRulesBroken = typeRuleBreaches(TYPE_MODULES);
if (typeRulesBroken.length > 0) throw new Error(typeRulesBroken.join("\n"));

export const REGISTRY = Object.fromEntries(Object.entries(TYPE_MODULES).map(([type, module]) => [type, module.definition])) as {
  readonly [T in keyof typeof TYPE_MODULES]: (typeof TYPE_MODULES)[T]["definition"];
};

export type CalculationType = keyof typeof REGISTRY;

/** Every calculation type, in the order of docs/api.md (Calculations). */
export const CALCULATION_TYPES = Object.keys(REGISTRY) as readonly CalculationType[];

export function isCalculationType(value: unknown): value is CalculationType {
  return typeof value === "string" && Object.hasOwn(REGISTRY, value);
}

export function calculationDefinition(type: CalculationType): CalculationDefinition {
  return REGISTRY[type];
}

/** Types computed from one row of numeric inputs by the emission core (the dialog's live preview). */
export type FormulaType = {
  [K in CalculationType]: (typeof REGISTRY)[K]["kind"] extends "formula" ? K : never;
}[CalculationType];

/** Formula types with numeric results only: these run in the batch entry point. */
export type EmissionType = Exclude<FormulaType, "recycle_technology">;

export const FORMULA_TYPES = CALCULATION_TYPES.filter((t) => REGISTRY[t].kind === "formula") as readonly FormulaType[];
export const EMISSION_TYPES = FORMULA_TYPES.filter((t) => t !== "recycle_technology") as readonly EmissionType[];

export function isFormulaType(value: unknown): value is FormulaType {
  return isCalculationType(value) && REGISTRY[value].kind === "formula";
}

/** the input of a type that is the coal mined (activity «production», in t), which the
 *  facility-year's coal output typed once on the inventory fills; undefined: the type takes none. */
export function productionFieldOf(type: CalculationType): string | undefined {
  const definition: CalculationDefinition = REGISTRY[type];
  return definition.inputs.find((f) => f.type === "number" && "activity" in f && f.activity === "production")?.name;
}

/** The types whose calculations take a facility's coal output. */
export const PRODUCTION_TYPES = FORMULA_TYPES.filter((t) => productionFieldOf(t) !== undefined);

export function isEmissionType(value: unknown): value is EmissionType {
  return isFormulaType(value) && value !== "recycle_technology";
}

/** The columns of a type's upload file, in template order; none for a type without a file. */
export function uploadColumns(type: CalculationType): readonly UploadColumn[] {
  const file = (REGISTRY[type].inputs as readonly InputField[]).find((f): f is OtherField => f.type === "file");
  return file?.upload ?? [];
}

/** The template's Russian header of a column: «Расход газовой смеси, м³/мин». A column the user
 *  names (filling_blanks) has the template's word for it («Шахта», «Значение»), which the user
 *  types in the dialog. */
export function uploadHeader(column: UploadColumn): string {
  if (column.namedBy) return column.header ?? column.label;
  return column.unit ? `${column.label}, ${column.unit}` : column.label;
}

/** The one table of the headers an upload accepts besides a column's template header, its label
 *  and its English name (the template's header until 2026, kept as an alias), by column name:
 *  what engineers write in their own files and monitoring systems export. */
export const UPLOAD_HEADER_ALIASES: Readonly<Record<string, readonly string[]>> = {
  from: ["Начало", "Дата начала", "Период с", "С", "Дата с"],
  to: ["Конец", "Окончание", "Дата окончания", "Дата конца", "Период по", "По", "Дата по"],
  flow_m3_min: ["Расход", "Расход смеси", "Расход газа", "Дебит смеси", "Расход, м³/мин"],
  hours: ["Время работы", "Часы", "Часы работы", "Время, ч", "Наработка, ч"],
  w_ch4: [
    "CH4",
    "CH4, %",
    "CH4, % об.",
    "Метан",
    "Метан, %",
    "Содержание CH4",
    "Содержание метана",
    "Концентрация CH4",
    "Концентрация метана",
  ],
  w_co2: ["CO2", "CO2, %", "CO2, % об.", "Содержание CO2", "Концентрация CO2", "Диоксид углерода", "Углекислый газ"],
  year: ["Год", "Year"],
  id: ["№", "Номер", "Номер строки"],
  volume: ["Добыча", "Добыча угля", "Добыча, т"],
  methane: ["Метанообильность", "Относительная метанообильность", "Метанообильность, м³/т"],
  transport_fuel: ["Дизельное топливо", "Расход дизельного топлива", "Дизельное топливо, т"],
  element: ["Элемент", "Шахта", "Объект", "Источник"],
  volume_unit: ["Единица", "Единица добычи", "Ед. изм."],
  y: ["Факт", "Концентрация CH4, факт", "Концентрация метана, факт", "Метан, факт", "CH4 факт"],
  t: ["Дата и время", "Дата, время", "Время замера", "Шаг", "Номер шага"],
};

/** A header as compared: case, spaces, punctuation, «ё» and superscripts aside («м3/мин» is «м³/мин»). */
export function headerKey(header: string): string {
  return header
    .toLowerCase()
    .replace(/ё/g, "е")
    .replace(/³/g, "3")
    .replace(/²/g, "2")
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Every header that reads as the column, as compared (headerKey): the template's, the label, the
 *  English name and the aliases. */
export function columnHeaderKeys(column: UploadColumn, name = column.name): string[] {
  const headers = column.namedBy ? [name] : [uploadHeader(column), column.label, name, ...(UPLOAD_HEADER_ALIASES[name] ?? [])];
  return [...new Set(headers.map(headerKey))];
}

/** A column as the template and the dialog explain it: «Добыча угля, т. Для всех лет…». */
export function columnDescription(column: UploadColumn): string {
  const what = column.unit ? `${column.label}, ${column.unit}` : column.label;
  const parts = [column.optional ? `Необязательно: ${what.charAt(0).toLowerCase()}${what.slice(1)}` : what, column.note];
  return parts.filter(Boolean).join(". ");
}

export type InputName<T extends CalculationType> = (typeof REGISTRY)[T]["inputs"][number]["name"];
export type ResultName<T extends CalculationType> = (typeof REGISTRY)[T]["results"][number]["name"];
export type SettingName<T extends CalculationType> = (typeof REGISTRY)[T]["settings"][number]["name"];

// ---- 4.10 decision table: codes and the stored Russian texts, by the row number "#" ------------

export const RECYCLE_TECHNOLOGIES = [
  { code: "NO_FLOW", technology: "Дебит метана равен нулю — утилизация не требуется." },
  {
    code: "NONE_TOO_LEAN",
    technology:
      "Концентрация метана ниже 0,2 %: автотермическое окисление невозможно. Использовать исходящую вентиляционную струю как дутьевой воздух котельных/ГПУ или обогащать её каптированным метаном.",
  },
  {
    code: "VAM_ENERGY",
    technology:
      "Метан вентиляционной струи: термическое окисление в реакторах с реверсивным потоком (TFRR/RTO) с утилизацией тепла и выработкой электроэнергии.",
  },
  {
    code: "VAM_DESTRUCTION",
    technology:
      "Метан вентиляционной струи: термическое (TFRR/RTO) или каталитическое (CFRR) окисление без выработки энергии, либо использование как дутьевого воздуха.",
  },
  {
    code: "DILUTE_AND_OXIDISE",
    technology:
      "Обеднённая смесь 1–5 %: транспортирование и сжигание в горелках недопустимо (близко к НКПР 5 %). Разбавить вентиляционным воздухом до ≤1 % и окислить в реакторе TFRR либо подавать как дутьевой воздух.",
  },
  {
    code: "UNSAFE_NO_USE",
    technology:
      "Смесь во взрывоопасном диапазоне (5–15 %) или без запаса безопасности: утилизация и транспортирование запрещены. Повысить качество каптажа (герметизация скважин, регулирование разрежения) до ≥25–30 %; до этого — безопасный отвод в атмосферу либо разбавление до ≤1 % с окислением.",
  },
  {
    code: "FLARE_BOILER_LIMITED",
    technology:
      "Концентрация 25–30 %: допускается сжигание на закрытой факельной установке с огнепреградителями и в котельной; для газопоршневых установок довести концентрацию до ≥30 %.",
  },
  {
    code: "PIPELINE_CNG_LNG",
    technology:
      "Подготовка газа и подача в газораспределительную сеть, производство компримированного/сжиженного метана (газомоторное топливо) или химическое сырьё.",
  },
  {
    code: "POWER_PLANT",
    technology:
      "Мини-ТЭС на шахтном метане (несколько ГПУ или газовые турбины) с котельной; рассмотреть обогащение газа для внешних потребителей.",
  },
  {
    code: "GAS_ENGINE_CHP",
    technology: "Когенерационная газопоршневая установка (электро- и теплоэнергия, ≈0,5–6 МВт эл.); факельная установка — резерв.",
  },
  {
    code: "BOILER",
    technology: "Котельная на шахтном метане (отопление, подогрев вентиляционного воздуха, сушка угля); факельная установка — резерв.",
  },
  {
    code: "FLARE",
    technology: "Сжигание на факельной установке (утилизация энергии нецелесообразна из-за малого дебита).",
  },
] as const;

export type RecycleCode = (typeof RECYCLE_TECHNOLOGIES)[number]["code"];

// ---- 4.12 fill method flags (D7) and how the UI names them -------------------------------------

export const FILL_METHODS = {
  interp: "линейная интерполяция",
  trend: "линейный тренд (МНК)",
  constant: "единственное наблюдение",
  clipped: "ограничено нулём",
  empty: "нет наблюдений",
} as const;

export type FillMethod = keyof typeof FILL_METHODS;
