// The calculation registry: every calculation type declared once — title,
// input and result fields with units and bounds, which dictionary (docs/api.md) feeds which
// input, and which core function computes it. The API, the dialogs, the results view, exports
// and charts read this; nothing else lists the types. Formulas, units and defaults:
// docs/methodology.md (version below). Browser-safe: no Node imports.

export const METHODOLOGY_VERSION = "2026.3";

/** D1: GWP of CH4 per decree 2979-р (IPCC AR4); AR5 28 and AR6 29.8 are dictionary options. */
export const DEFAULT_GWP_CH4 = 25;

export type CalculationKind = "formula" | "forecast" | "file";

export type DictionaryName =
  | "get_recycle_technology"
  | "get_coeff_co2_density"
  | "get_disposal_co2_stat_sources"
  | "get_disposal_co2_torch"
  | "get_torch_ch4"
  | "get_torch_cf"
  | "get_enrichment"
  | "get_gas_content"
  | "get_methane_abundance"
  | "get_handling_underground_ch4"
  | "get_underground_emission_ch4"
  | "get_open_mining_ch4"
  | "get_open_mining_co2"
  | "get_underground"
  | "get_underground_content";

export interface NumberField {
  readonly name: string;
  readonly label: string;
  readonly unit: string;
  readonly type: "number";
  /** Inclusive bounds; a value outside them is a field error. */
  readonly min: number;
  readonly max?: number;
  /** Decimals the value carries (dictionary precision); the UI clamps entry to its own setting. */
  readonly decimals: number;
  readonly default?: number;
  /** The user cannot change it (docs/methodology.md, Calculation types: koef_transform 0.67 of underground_emission_ch4). */
  readonly fixed?: number;
  /** IPCC range (docs/methodology.md, Calculation types): outside it the value is accepted with a warning (docs/methodology.md, D10). */
  readonly typical?: { readonly min: number; readonly max: number };
  /** Optional file column (sensitivity transport_fuel); an optional formula input left out is 0. */
  readonly optional?: boolean;
  /** Activity data: the entry of the activity-uncertainty dictionary that gives its default
   *  uncertainty (docs/methodology.md, Uncertainty: production ±2 %, measured gas flows ±20 %). */
  readonly activity?: ActivityKind;
  /** D13: the units the value may be entered in; stored in `unit`, the canonical one (D8). */
  readonly units?: readonly EntryUnit[];
  /** 4.8: the value is in the unit of the entry chosen in this dictionary (the fuel's: thousand m³
   *  of a gas, t of a solid or liquid fuel), which its name ends with; `unit` says so before a choice. */
  readonly unitByEntry?: DictionaryName;
}

/** 4.8, Order 371 formulas 1.1–1.3: a fuel through t c.e. (or TJ), drained mine gas taken as
 *  100 % CH4, and drained gas of a stated composition (D28). The reference page and the passport
 *  print them from here. */
export const STATIONARY_FORMULAS = {
  fuel: "E_CO2 = FC × k × EF × OF",
  pureMethane: "E_CO2 = FC × EF × OF",
  composition: "E_CO2 = FC × (W_CO2 + W_CH4 × OF) × ρ_CO2 × 10⁻²",
} as const;

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

/** A unit an activity input may be entered in: canonical value = entered × 10^power. */
export interface EntryUnit {
  readonly unit: string;
  readonly power: number;
}

/** The entries of get_activity_uncertainty: coal production ±2 %, measured ventilation and drainage
 *  gas ±20 %, fuel and burnt gas by metering or delivery documents ±5 % (D27). */
export const ACTIVITY_KINDS = { production: 1, measured_flow: 2, fuel: 3 } as const;
export type ActivityKind = keyof typeof ACTIVITY_KINDS;

export interface OtherField {
  readonly name: string;
  readonly label: string;
  readonly unit: string;
  readonly type: "text" | "choice" | "file" | "table";
  readonly options?: readonly string[];
  /** A "choice" field's options as a user reads them (screens and exports), by option. */
  readonly optionTitles?: Readonly<Record<string, string>>;
  /** Columns of a "table" field (regres_methane data rows). */
  readonly columns?: readonly NumberField[];
  /** Columns of a "file" field's upload: the reader, the template and the dialog's hint read these. */
  readonly upload?: readonly UploadColumn[];
  readonly optional?: boolean;
}

/** A column of an upload file, by its header. */
export interface UploadColumn {
  readonly name: string;
  readonly label: string;
  readonly unit: string;
  readonly kind: "number" | "text";
  /** The file may go without the column. */
  readonly optional?: boolean;
  /** What the template adds about the column. */
  readonly note?: string;
  /** filling_blanks: the user names the column in this text input. */
  readonly namedBy?: string;
  /** The template's header of a column the user names: a Russian word to type in the dialog. */
  readonly header?: string;
  /** D13: this text column gives the entry unit of the number column named here, row by row. */
  readonly unitOf?: string;
  /** D13: the units the number column may be given in (its `unit` is the canonical one). */
  readonly units?: readonly EntryUnit[];
}

/** A number column of an upload, from the field it fills. */
const numberColumn = (field: NumberField, note?: string): UploadColumn => ({
  name: field.name,
  label: field.label,
  unit: field.unit,
  kind: "number",
  ...(field.optional ? { optional: true } : {}),
  ...(note ? { note } : {}),
});

export type InputField = NumberField | OtherField;

export interface ResultField {
  readonly name: string;
  readonly label: string;
  readonly unit: string;
  readonly type: "number" | "text" | "table";
  readonly decimals?: number;
  /** The physical upper bound of one calculation's value (PHYSICAL_BOUNDS); a result over it is
   *  refused, naming the result. */
  readonly max?: number;
  /** Columns of a "table" result (rows per year, per element or per data row). */
  readonly columns?: readonly ResultField[];
}

export interface DictionaryBinding {
  readonly dictionary: DictionaryName;
  /** Inputs (or settings) the chosen dictionary entry fills, by their API names. */
  readonly fields: readonly string[];
  /** How «Фактическое значение» (offered by every binding, D10) differs here: its label, and the
   *  fields the methodology fixes in that mode (open_mining_ch4: koef_transform 0.67). */
  readonly custom?: { readonly label: string; readonly fixed?: Readonly<Record<string, number>> };
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

export interface CoreFunction {
  /** wasm-core/build/<module>.wasm */
  readonly module: "emissions" | "gbdt";
  /** The exported function that computes the type. */
  readonly fn: string;
}

export interface CalculationDefinition {
  readonly title: string;
  readonly kind: CalculationKind;
  /** The methodology's section number of the type's equation and worked examples (as in methodology-vectors.json; docs/methodology.md, Calculation types). */
  readonly methodology: string;
  readonly inputs: readonly InputField[];
  readonly results: readonly ResultField[];
  /** Per-calculation coefficients that are not inputs of the dialog (GWP, thresholds, file settings). */
  readonly settings: readonly NumberField[];
  readonly dictionaries: readonly DictionaryBinding[];
  /** docs/user-guide.md: edit is hidden for recycle_technology. */
  readonly editable: boolean;
  /** The result that is this calculation's emission in t CO2-eq (statistics, totals, charts). */
  readonly co2e?: string;
  /** Inputs whose sum may not exceed `max` (torch_composition: the contents, % vol, ≤ 100). */
  readonly sums?: readonly { readonly fields: readonly string[]; readonly max: number; readonly label: string }[];
  /** D17: an underground mine methane type states its basis (stored as the input `basis`); this
   *  is the default, also for calculations stored before the choice existed. */
  readonly basis?: MethaneBasis;
  /** The basis is the type's own and no choice: post-mining methane is never drained, so it is
   *  always all of it (gross) and the form does not ask. */
  readonly basisFixed?: true;
  readonly core: CoreFunction;
}

/** D17: `gross`, all methane liberated (before drainage gas is flared or used); `net`, only what
 *  reached the atmosphere. The inventory subtracts what the facility destroyed from gross only. */
export type MethaneBasis = "gross" | "net";
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

// ---- physical bounds ---------------------------------------------------------------------------

/** The physical upper bounds of the numbers one calculation takes and gives, in the field's stored
 *  unit: the one place they are set (the fields below refer to them; docs/security.md lists them).
 *  Far above any real mine's year, so only a slip (a value typed in the wrong unit, a thousandfold
 *  typo) is refused; far below what the inventory's kept sums hold (whole milligrams under 2⁵³,
 *  about 9 007 199 t of one gas on one line of one project, domain/inventory/sums.ts). */
export const PHYSICAL_BOUNDS = {
  /** Coal mined or handled, t: the largest mines give about 100 million t a year. */
  coal_t: 100_000_000,
  /** Fuel burnt by an open pit's machinery, t: the largest pits burn tens of thousands a year. */
  fuel_t: 300_000,
  /** Fuel burnt in a stationary source, thousand m³ or t: a large boiler house burns about 100 000. */
  stationary_fuel: 1_000_000,
  /** Gas mixture a mine's degasification and ventilation release, thousand m³: a mine's main fans
   *  move 20–40 thousand m³/min, about 20 million thousand m³ a year. */
  released_gas_thousand_m3: 100_000_000,
  /** Gas or methane sent to a flare, thousand m³: a mine drains at most a few hundred million m³ a year. */
  flared_gas_thousand_m3: 500_000,
  /** A flow, m³/min: a mine's main fans move at most a few tens of thousands. */
  flow_m3_min: 100_000,
  /** The working hours of one measurement period: a leap year. */
  period_hours: 8_784,
  /** Methane per t of coal, m³/t: the gassiest seams hold about 40. */
  methane_m3_t: 100,
  /** A density or conversion factor, kg/m³ (CH4 0.67–0.72, CO2 1.84–1.98). */
  density_kg_m3: 10,
  /** A factor in t per t or per unit of fuel (CO2 of diesel 3.15, of a t c.e. 2.3–2.8, of burnt
   *  CH4 2.75; t c.e. of a thousand m³ of gas 1.15). */
  factor_t: 10,
  /** The CO2 factor of a fuel burnt in a stationary source, per t c.e. (2.3–2.8) or per TJ (54–112). */
  stationary_factor: 150,
  /** A GWP of CH4 (AR4 25, AR5 28, AR6 29.8; over 20 years about 84). */
  gwp: 100,
  /** One gas of one calculation, t (CH4 or CO2): all of Russia's coal mines emit about 1–2 million t
   *  of CH4 a year. */
  gas_t: 1_000_000,
  /** One calculation in CO2-eq, t: its CO2 and its CH4 at their bound, CH4 at the largest GWP. */
  co2e_t: 1_000_000 * (1 + 100),
  /** An emission factor a calculation computes from a gas's composition, t per thousand m³ (at
   *  most 5 carbons × 1.98 kg/m³ = 9.9). */
  computed_factor_t: 100,
  /** One line of one project's kept sums (a gas of an IPCC code, a figure of a methane balance), t:
   *  five calculations at their bound, with room under the 9 007 199 t the sums hold for writes
   *  that pass the check side by side. */
  project_line_t: 5_000_000,
} as const;

// ---- shared field declarations -----------------------------------------------------------------

const T = "т";
const T_CO2E = "т CO2-экв.";
const KG_M3 = "кг/м³";
const M3_T = "м³/т";
const THOUSAND_M3 = "тыс. м³";
const PERCENT_VOL = "% об.";
// D13: coal production in t, thousand t or million t (a large mine's output); gas volumes in m³,
// thousand m³ or million m³.
const COAL_UNITS = [
  { unit: T, power: 0 },
  { unit: "тыс. т", power: 3 },
  { unit: "млн т", power: 6 },
] as const satisfies readonly EntryUnit[];
const GAS_UNITS = [
  { unit: "м³", power: -3 },
  { unit: THOUSAND_M3, power: 0 },
  { unit: "млн м³", power: 3 },
] as const satisfies readonly EntryUnit[];
// The densities of CO2 and CH4 the measured and flared volumes are converted with (20 °C defaults).
const GAS_DENSITIES = [
  {
    name: "p_co2",
    label: "Плотность CO2",
    unit: KG_M3,
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.density_kg_m3,
    decimals: 4,
    default: 1.8393,
  },
  {
    name: "p_ch4",
    label: "Плотность CH4",
    unit: KG_M3,
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.density_kg_m3,
    decimals: 4,
    default: 0.668,
  },
] as const satisfies readonly NumberField[];
// docs/user-guide.md (and the calculations issue): results in tonnes show 2 decimals; values are stored unrounded.
const RESULT_DECIMALS = 2;

const gwpSetting = {
  name: "gwp_ch4",
  label: "Потенциал глобального потепления CH4",
  unit: "т CO2-экв./т CH4",
  type: "number",
  min: 0,
  max: PHYSICAL_BOUNDS.gwp,
  decimals: 1,
  default: DEFAULT_GWP_CH4,
} as const satisfies NumberField;

const koefTransform = (fixed?: number) =>
  ({
    name: "koef_transform",
    label: "Коэффициент пересчёта (плотность CH4)",
    unit: KG_M3,
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.density_kg_m3,
    decimals: 4,
    default: 0.67,
    ...(fixed === undefined ? {} : { fixed }),
  }) as const;

const coalVolume = (how: string) =>
  ({
    name: "volume",
    label: `Объём добычи угля ${how}`,
    unit: T,
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.coal_t,
    decimals: 4,
    activity: "production",
    units: COAL_UNITS,
  }) as const;

const resCh4 = {
  name: "res_ch4",
  label: "Выбросы CH4",
  unit: "т CH4",
  type: "number",
  decimals: RESULT_DECIMALS,
  max: PHYSICAL_BOUNDS.gas_t,
} as const satisfies ResultField;
const resCh4ToCo2 = {
  name: "res_ch4_to_co2",
  label: "Выбросы CH4 в CO2-эквиваленте",
  unit: T_CO2E,
  type: "number",
  decimals: RESULT_DECIMALS,
  max: PHYSICAL_BOUNDS.co2e_t,
} as const satisfies ResultField;
const resCo2 = {
  name: "res_co2",
  label: "Выбросы CO2",
  unit: "т CO2",
  type: "number",
  decimals: RESULT_DECIMALS,
  max: PHYSICAL_BOUNDS.gas_t,
} as const satisfies ResultField;
const flaredMethane = {
  name: "volume",
  label: "Объём метана, направленного на факельную установку",
  unit: THOUSAND_M3,
  type: "number",
  min: 0,
  max: PHYSICAL_BOUNDS.flared_gas_thousand_m3,
  decimals: 4,
  activity: "measured_flow",
  units: GAS_UNITS,
} as const satisfies NumberField;

// 7.1 (Order 371 formula 2.2): the components of the flared mixture, % vol; a missing one is 0.
const COMPOSITION = [
  ["w_ch4", "Содержание CH4 в смеси"],
  ["w_co2", "Содержание CO2 в смеси"],
  ["w_c2h6", "Содержание этана C2H6 в смеси"],
  ["w_c3h8", "Содержание пропана C3H8 в смеси"],
  ["w_c4h10", "Содержание бутана C4H10 в смеси"],
  ["w_c5h12", "Содержание пентана C5H12 в смеси"],
] as const;

// D14 (Order 371 formula 3.1 from monitoring data): one measurement period of the degasification
// or ventilation system. Its volume is flow × hours × 60 / 1000 thousand m³; its contents are its own.
const PERIOD_DATES = [
  { name: "from", label: "Начало периода", unit: "", kind: "text", note: "Дата ДД.ММ.ГГГГ" },
  { name: "to", label: "Конец периода", unit: "", kind: "text", note: "Дата ДД.ММ.ГГГГ" },
] as const satisfies readonly UploadColumn[];
const PERIOD_NUMBERS = [
  {
    name: "flow_m3_min",
    label: "Расход газовой смеси",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
  { name: "hours", label: "Время работы за период", unit: "ч", type: "number", min: 0, max: PHYSICAL_BOUNDS.period_hours, decimals: 2 },
  { name: "w_ch4", label: "Содержание CH4 в смеси", unit: PERCENT_VOL, type: "number", min: 0, max: 100, decimals: 4 },
  { name: "w_co2", label: "Содержание CO2 в смеси", unit: PERCENT_VOL, type: "number", min: 0, max: 100, decimals: 4 },
] as const satisfies readonly NumberField[];

/** The columns of a measurement period: dates, then numbers (the dialog's table, the API, the file). */
export const MEASURED_PERIOD = { dates: PERIOD_DATES, numbers: PERIOD_NUMBERS } as const;
export type MeasuredPeriodField = (typeof PERIOD_DATES)[number]["name"] | (typeof PERIOD_NUMBERS)[number]["name"];

const emissionsCore = (fn: string) => ({ module: "emissions", fn }) as const;

const yearColumn = { name: "year", label: "Год", unit: "", kind: "number", note: "Целое число" } as const satisfies UploadColumn;

// regres_methane: the data columns of docs/api.md, the manual table's and the upload's, in model feature order.
const FORECAST_DATA_COLUMNS = [
  {
    name: "x1",
    label: "Расход воздуха в исходящей струе лавы (телеметрия)",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
  {
    name: "x2",
    label: "Расход воздуха в исходящей струе лавы (суточные замеры)",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
  { name: "x7", label: "Концентрация метана в каптируемой смеси", unit: "%", type: "number", min: 0, max: 100, decimals: 4 },
  {
    name: "x8",
    label: "Расход смеси, извлекаемой установкой",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
  { name: "x12", label: "Средняя концентрация CH4 в исходящей струе шахты", unit: "%", type: "number", min: 0, max: 100, decimals: 4 },
  {
    name: "x13",
    label: "Расход воздуха в исходящей струе шахты",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
  {
    name: "x15",
    label: "Расход метана, извлекаемого установкой",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
] as const satisfies readonly NumberField[];

/** A forecast row's measured concentration, where the history gives it (the back-test, the calibration). */
export const FORECAST_MEASURED = {
  name: "y",
  label: "Концентрация CH4 в исходящей струе лавы, факт",
  unit: "%",
  type: "number",
  min: 0,
  max: 100,
  decimals: 4,
} as const satisfies NumberField;
/** A forecast row's time: a date-time (ДД.ММ.ГГГГ ЧЧ:ММ) or a step number. */
export const FORECAST_TIME_COLUMN = {
  name: "t",
  label: "Время",
  unit: "",
  kind: "text",
  optional: true,
  note: "Дата и время (01.01.2025 08:10) или номер шага",
} as const satisfies UploadColumn;

/** The forecast model's features: the data columns' names, in order. */
export const FORECAST_FEATURES = FORECAST_DATA_COLUMNS.map((c) => c.name);
/** The 1 % methane limit in a longwall's outgoing air (docs/user-guide.md, «Infographics»): the line
 *  on the forecast chart, the predictions above it highlighted and counted, and a forecast's limit
 *  (its count's, its back-test's) when none is sent. */
export const METHANE_LIMIT_PERCENT = 1;
/** The gradient-boosting libraries a forecast may run (regres_methane's `method`). */
export const FORECAST_METHODS = ["xgboost", "lightgbm"] as const;
export type ForecastMethod = (typeof FORECAST_METHODS)[number];
/** Each library as its makers write it: what a user reads for a forecast's `method`. */
export const FORECAST_METHOD_TITLES: Readonly<Record<ForecastMethod, string>> = { xgboost: "XGBoost", lightgbm: "LightGBM" };
export type ForecastFeature = (typeof FORECAST_DATA_COLUMNS)[number]["name"];

// ---- the registry ------------------------------------------------------------------------------

export const REGISTRY = {
  recycle_technology: {
    title: "Выбор технологии утилизации шахтного метана",
    kind: "formula",
    methodology: "4.10",
    inputs: [
      { name: "metan", label: "Концентрация метана", unit: "%", type: "number", min: 0, max: 100, decimals: 2 },
      {
        name: "a_metan",
        label: "Абсолютное метановыделение (дебит чистого метана)",
        unit: "м³/мин",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.flow_m3_min,
        decimals: 2,
      },
    ],
    results: [{ name: "technology", label: "Рекомендуемая технология утилизации шахтного метана", unit: "", type: "text" }],
    // D5: flow thresholds are editable dictionary values, defaults 0.5 / 2 / 5 / 10 / 25 m³/min.
    settings: [
      {
        name: "q_boiler",
        label: "Минимальный дебит для котельной",
        unit: "м³/мин",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.flow_m3_min,
        decimals: 2,
        default: 0.5,
      },
      {
        name: "q_gas_engine",
        label: "Минимальный дебит для газопоршневой установки",
        unit: "м³/мин",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.flow_m3_min,
        decimals: 2,
        default: 2,
      },
      {
        name: "q_vam_energy",
        label: "Минимальный дебит для окисления с выработкой энергии",
        unit: "м³/мин",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.flow_m3_min,
        decimals: 2,
        default: 5,
      },
      {
        name: "q_pipeline",
        label: "Минимальный дебит для подачи в сеть, КПГ/СПГ",
        unit: "м³/мин",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.flow_m3_min,
        decimals: 2,
        default: 10,
      },
      {
        name: "q_power_plant",
        label: "Минимальный дебит для мини-ТЭС",
        unit: "м³/мин",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.flow_m3_min,
        decimals: 2,
        default: 25,
      },
    ],
    dictionaries: [
      { dictionary: "get_recycle_technology", fields: ["q_boiler", "q_gas_engine", "q_vam_energy", "q_pipeline", "q_power_plant"] },
    ],
    editable: false,
    core: emissionsCore("recycle_technology"),
  },

  handling_underground_ch4: {
    title: "Выбросы CH4 после добычи угля подземным способом (обработка угля)",
    kind: "formula",
    methodology: "4.2",
    inputs: [
      coalVolume("подземным способом"),
      {
        name: "ef",
        label: "Коэффициент выбросов CH4 после добычи",
        unit: M3_T,
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.methane_m3_t,
        decimals: 4,
        default: 2.5,
        typical: { min: 0.9, max: 4.0 },
      },
      koefTransform(),
    ],
    results: [resCh4, resCh4ToCo2],
    settings: [gwpSetting],
    dictionaries: [{ dictionary: "get_handling_underground_ch4", fields: ["ef", "koef_transform"] }],
    editable: true,
    co2e: "res_ch4_to_co2",
    basis: "gross",
    basisFixed: true,
    core: emissionsCore("handling_underground_ch4"),
  },

  open_mining_ch4: {
    title: "Выбросы CH4 при добыче угля открытым способом",
    kind: "formula",
    methodology: "4.3",
    inputs: [
      coalVolume("открытым способом"),
      {
        // Mining 1.2 (0.3–2.0) and post-mining 0.1 (0–0.2) are two dictionary rows (Q9).
        name: "ef",
        label: "Коэффициент выбросов CH4",
        unit: M3_T,
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.methane_m3_t,
        decimals: 4,
        default: 1.2,
        typical: { min: 0, max: 2.0 },
      },
      koefTransform(),
    ],
    results: [resCh4, resCh4ToCo2],
    settings: [gwpSetting],
    dictionaries: [
      {
        dictionary: "get_open_mining_ch4",
        fields: ["ef", "koef_transform"],
        // docs/user-guide.md: the custom open-mining entry uses a conversion coefficient of 0.67.
        custom: { label: "Фактическое значение", fixed: { koef_transform: 0.67 } },
      },
    ],
    editable: true,
    co2e: "res_ch4_to_co2",
    core: emissionsCore("open_mining_ch4"),
  },

  open_mining_co2: {
    title: "Выбросы CO2 от сжигания топлива техникой при открытой добыче",
    kind: "formula",
    methodology: "4.4",
    inputs: [
      {
        name: "volume",
        label: "Расход топлива",
        unit: "т топлива",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.fuel_t,
        decimals: 4,
        activity: "fuel",
      },
      {
        // Graph series: 3.149 = «Дизель», 3.026 = «Топливо» (motor gasoline), docs/user-guide.md.
        name: "ef",
        label: "Коэффициент выбросов CO2",
        unit: "т CO2/т топлива",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.factor_t,
        decimals: 3,
        default: 3.149,
      },
    ],
    results: [resCo2],
    settings: [],
    dictionaries: [{ dictionary: "get_open_mining_co2", fields: ["ef"] }],
    editable: true,
    co2e: "res_co2",
    core: emissionsCore("open_mining_co2"),
  },

  underground: {
    title: "Выбросы CO2 и CH4 из систем дегазации и вентиляции (подземная добыча)",
    kind: "formula",
    methodology: "4.5",
    inputs: [
      {
        name: "volume",
        label: "Объём газовой смеси, выброшенной без сжигания",
        unit: THOUSAND_M3,
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.released_gas_thousand_m3,
        decimals: 4,
        activity: "measured_flow",
        units: GAS_UNITS,
      },
      ...GAS_DENSITIES,
      // Q12: ef_* are contents W of the mixture, % vol, not emission factors.
      { name: "ef_co2", label: "Содержание CO2 в смеси", unit: PERCENT_VOL, type: "number", min: 0, max: 100, decimals: 4, default: 10.6 },
      { name: "ef_ch4", label: "Содержание CH4 в смеси", unit: PERCENT_VOL, type: "number", min: 0, max: 100, decimals: 4, default: 76.0 },
      // D14: instead of volume and contents, measurement periods (typed or from a file); the
      // volume is then their sum and the contents their volume-weighted means.
      { name: "periods", label: "Периоды измерений", unit: "", type: "table", optional: true, columns: PERIOD_NUMBERS },
      {
        name: "file_data",
        label: "Файл периодов измерений",
        unit: "",
        type: "file",
        optional: true,
        upload: [...PERIOD_DATES, ...PERIOD_NUMBERS.map((f) => numberColumn(f))],
      },
    ],
    results: [
      resCo2,
      resCh4,
      resCh4ToCo2,
      {
        name: "sum_co2",
        label: "Суммарные выбросы в CO2-эквиваленте",
        unit: T_CO2E,
        type: "number",
        decimals: RESULT_DECIMALS,
        max: PHYSICAL_BOUNDS.co2e_t,
      },
      {
        name: "periods",
        label: "Вклад периодов измерений",
        unit: "",
        type: "table",
        columns: [
          ...PERIOD_DATES.map((c) => ({ name: c.name, label: c.label, unit: c.unit, type: "text" }) as const),
          ...PERIOD_NUMBERS.map((f) => ({ name: f.name, label: f.label, unit: f.unit, type: "number", decimals: f.decimals }) as const),
          {
            name: "volume",
            label: "Объём газовой смеси",
            unit: THOUSAND_M3,
            type: "number",
            decimals: 4,
            max: PHYSICAL_BOUNDS.released_gas_thousand_m3,
          },
          resCo2,
          resCh4,
          {
            name: "sum_co2",
            label: "Выбросы в CO2-эквиваленте",
            unit: T_CO2E,
            type: "number",
            decimals: RESULT_DECIMALS,
            max: PHYSICAL_BOUNDS.co2e_t,
          },
        ],
      },
    ],
    settings: [gwpSetting],
    dictionaries: [
      // D2: the user picks the measurement conditions (0 / 15 / 20 °C), default 20 °C.
      { dictionary: "get_underground", fields: ["p_co2", "p_ch4"] },
      {
        dictionary: "get_underground_content",
        fields: ["ef_co2", "ef_ch4"],
        custom: { label: "Фактическое значение" },
      },
    ],
    editable: true,
    co2e: "sum_co2",
    // D17: measured release (formula 3.1) is usually what reached the atmosphere.
    basis: "net",
    core: emissionsCore("underground"),
  },

  underground_emission_ch4: {
    title: "Выбросы CH4 при добыче угля подземным способом",
    kind: "formula",
    methodology: "4.1",
    inputs: [
      coalVolume("подземным способом"),
      {
        // IPCC: low end for mine depth < 200 m, high end > 400 m.
        name: "ef",
        label: "Коэффициент выбросов CH4 при подземной добыче",
        unit: M3_T,
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.methane_m3_t,
        decimals: 4,
        default: 18,
        typical: { min: 10, max: 25 },
      },
      koefTransform(0.67),
    ],
    results: [resCh4, resCh4ToCo2],
    settings: [gwpSetting],
    dictionaries: [{ dictionary: "get_underground_emission_ch4", fields: ["ef"] }],
    editable: true,
    co2e: "res_ch4_to_co2",
    basis: "gross",
    core: emissionsCore("underground_emission_ch4"),
  },

  disposal_co2_torch: {
    title: "Выбросы CO2 при сжигании метана на факельной установке",
    kind: "formula",
    methodology: "4.6",
    inputs: [
      flaredMethane,
      {
        name: "ef",
        label: "Стехиометрический коэффициент (CO2/CH4)",
        unit: "т CO2/т CH4",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.factor_t,
        decimals: 4,
        default: 2.75,
      },
      koefTransform(),
    ],
    results: [resCo2],
    settings: [],
    dictionaries: [{ dictionary: "get_disposal_co2_torch", fields: ["ef", "koef_transform"] }],
    editable: true,
    co2e: "res_co2",
    core: emissionsCore("disposal_co2_torch"),
  },

  disposal_co2_stat_sources: {
    title: "Выбросы CO2 при сжигании метана и топлива в стационарных источниках",
    kind: "formula",
    methodology: "4.8",
    inputs: [
      {
        name: "volume",
        label: "Расход топлива",
        unit: "тыс. м³ или т",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.stationary_fuel,
        decimals: 4,
        activity: "fuel",
        unitByEntry: "get_disposal_co2_stat_sources",
      },
      // k and ef go together: t c.e. route (t CO2/t c.e.) or TJ route (t CO2/TJ), never mixed.
      {
        name: "ef",
        label: "Коэффициент выбросов CO2",
        unit: "т CO2/т у.т.",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.stationary_factor,
        decimals: 4,
      },
      { name: "of", label: "Коэффициент окисления", unit: "доля", type: "number", min: 0, max: 1, decimals: 4, default: 1.0 },
      {
        name: "k",
        label: "Коэффициент перевода в тонны условного топлива",
        unit: "т у.т./ед.",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.factor_t,
        decimals: 5,
      },
      // D28: drained gas of known composition (the mine-gas entry), % vol like the flare's (7.1);
      // without W_CH4 the fuel's entry is burnt as it stands (100 % CH4 for mine gas).
      ...COMPOSITION.slice(0, 2).map(
        ([name, label]) => ({ name, label, unit: PERCENT_VOL, type: "number", min: 0, max: 100, decimals: 4, optional: true }) as const,
      ),
    ],
    results: [resCo2],
    settings: [],
    sums: [{ fields: ["w_ch4", "w_co2"], max: 100, label: "Сумма содержаний компонентов" }],
    // D4: the oxidation factor is 1.0 unless measured, so it stays a free input; the fuel's
    // dictionary row fixes the pair ef and k, which must come from the same route (4.8).
    dictionaries: [{ dictionary: "get_disposal_co2_stat_sources", fields: ["ef", "k"] }],
    editable: true,
    co2e: "res_co2",
    core: emissionsCore("disposal_co2_stat_sources"),
  },

  torch_ch4: {
    title: "Выбросы несгоревшего CH4 на факельной установке",
    kind: "formula",
    methodology: "4.7",
    inputs: [flaredMethane, koefTransform()],
    results: [resCh4, resCh4ToCo2],
    settings: [gwpSetting],
    dictionaries: [{ dictionary: "get_torch_ch4", fields: ["koef_transform"] }],
    editable: true,
    co2e: "res_ch4_to_co2",
    core: emissionsCore("torch_ch4"),
  },

  torch_composition: {
    title: "Выбросы CO2 и CH4 при сжигании газа на факельной установке по составу газа",
    kind: "formula",
    methodology: "7.1",
    inputs: [
      {
        name: "volume",
        label: "Объём газовой смеси, направленной на факельную установку",
        unit: THOUSAND_M3,
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.flared_gas_thousand_m3,
        decimals: 4,
        activity: "measured_flow",
        units: GAS_UNITS,
      },
      ...COMPOSITION.map(
        ([name, label]) =>
          ({
            name,
            label,
            unit: PERCENT_VOL,
            type: "number",
            min: 0,
            max: 100,
            decimals: 4,
            optional: true,
          }) as const,
      ),
      {
        name: "cf",
        label: "Коэффициент недожога",
        unit: "доля",
        type: "number",
        min: 0,
        max: 1,
        decimals: 4,
        default: 0.0006,
      },
      ...GAS_DENSITIES,
    ],
    results: [
      {
        name: "ef_co2",
        label: "Коэффициент выбросов CO2",
        unit: "т CO2/тыс. м³",
        type: "number",
        decimals: 6,
        max: PHYSICAL_BOUNDS.computed_factor_t,
      },
      {
        name: "ef_ch4",
        label: "Коэффициент выбросов CH4",
        unit: "т CH4/тыс. м³",
        type: "number",
        decimals: 6,
        max: PHYSICAL_BOUNDS.computed_factor_t,
      },
      resCo2,
      resCh4,
      resCh4ToCo2,
      {
        name: "sum_co2",
        label: "Суммарные выбросы в CO2-эквиваленте",
        unit: T_CO2E,
        type: "number",
        decimals: RESULT_DECIMALS,
        max: PHYSICAL_BOUNDS.co2e_t,
      },
    ],
    settings: [gwpSetting],
    dictionaries: [
      { dictionary: "get_torch_cf", fields: ["cf"] },
      // 1.1: the densities by the measurement conditions of the volume (default 20 °C).
      { dictionary: "get_coeff_co2_density", fields: ["p_co2", "p_ch4"] },
    ],
    editable: true,
    co2e: "sum_co2",
    sums: [{ fields: COMPOSITION.map(([name]) => name), max: 100, label: "Сумма содержаний компонентов" }],
    core: emissionsCore("torch_composition"),
  },

  regres_methane: {
    title: "Прогноз концентрации метана в исходящей струе лавы",
    kind: "forecast",
    methodology: "—",
    inputs: [
      {
        name: "method",
        label: "Метод",
        unit: "",
        type: "choice",
        options: FORECAST_METHODS,
        optionTitles: FORECAST_METHOD_TITLES,
      },
      // The interval's level and the limits the back-test and the chance of reaching it use (a forecast's own).
      { name: "level", label: "Уровень интервала", unit: "%", type: "number", min: 80, max: 95, decimals: 0, default: 90 },
      { name: "limit", label: "Предел концентрации CH4", unit: "%", type: "number", min: 0, max: 100, decimals: 2, default: 1 },
      { name: "warning", label: "Уровень предупреждения", unit: "%", type: "number", min: 0, max: 100, decimals: 2, default: 0.8 },
      // How far ahead (0: the nowcast, the readings' own moment) and, optionally, which model version.
      { name: "horizon", label: "Горизонт прогноза", unit: "мин", type: "number", min: 0, max: 360, decimals: 0, default: 0 },
      { name: "model_id", label: "Модель", unit: "", type: "text", optional: true },
      {
        name: "data",
        label: "Данные",
        unit: "",
        type: "table",
        columns: FORECAST_DATA_COLUMNS,
      },
      {
        name: "file_data",
        label: "Файл с данными",
        unit: "",
        type: "file",
        optional: true,
        upload: [
          { name: "id", label: "Номер строки (шаг 10 минут)", unit: "", kind: "number", optional: true },
          // Every data column is in the file; an empty cell is a missing value the models allow.
          ...FORECAST_DATA_COLUMNS.map((c) => numberColumn(c, "Пустая ячейка — пропуск")),
          // History: the measured value and the time, for the back-test and the calibration.
          { ...numberColumn(FORECAST_MEASURED, "Замер; по нему прогноз проверяется на истории"), optional: true },
          FORECAST_TIME_COLUMN,
        ],
      },
    ],
    results: [
      {
        name: "data",
        label: "Прогноз",
        unit: "",
        type: "table",
        columns: [
          { name: "result", label: "Концентрация метана", unit: "%", type: "number", decimals: 4 },
          // Where the model is calibrated: the interval at the forecast's level and the chance of reaching the limit.
          { name: "lo", label: "Нижняя граница интервала", unit: "%", type: "number", decimals: 4 },
          { name: "hi", label: "Верхняя граница интервала", unit: "%", type: "number", decimals: 4 },
          { name: "p_exceed", label: "Вероятность достичь предела", unit: "доля", type: "number", decimals: 4 },
        ],
      },
    ],
    settings: [],
    dictionaries: [],
    editable: true,
    core: { module: "gbdt", fn: "predict" },
  },

  filling_blanks: {
    title: "Заполнение пропусков во временных рядах",
    kind: "file",
    methodology: "4.12",
    inputs: [
      { name: "name_value", label: "Название столбца значений", unit: "", type: "text" },
      { name: "name_element", label: "Название столбца элементов", unit: "", type: "text", optional: true },
      {
        name: "file_data",
        label: "Файл с данными",
        unit: "",
        type: "file",
        upload: [
          yearColumn,
          {
            name: "element",
            label: "Элемент ряда (шахта, источник)",
            unit: "",
            kind: "text",
            optional: true,
            namedBy: "name_element",
            header: "Шахта",
            note: "Укажите имя столбца в поле «Название столбца элементов», если рядов несколько",
          },
          {
            name: "value",
            label: "Значение",
            unit: "",
            kind: "number",
            namedBy: "name_value",
            header: "Значение",
            note: "Пустая ячейка — пропуск. Укажите имя столбца в поле «Название столбца значений»",
          },
        ],
      },
    ],
    results: [
      {
        name: "elements",
        label: "Элементы",
        unit: "",
        type: "table",
        columns: [
          { name: "year", label: "Год", unit: "", type: "number", decimals: 0 },
          { name: "value", label: "Значение", unit: "", type: "number", decimals: RESULT_DECIMALS },
          // D7: every filled value carries its method flag to tables, charts and exports.
          { name: "method", label: "Способ заполнения", unit: "", type: "text" },
        ],
      },
    ],
    settings: [],
    dictionaries: [],
    editable: true,
    core: emissionsCore("filling_blanks"),
  },

  sensitivity: {
    title: "Анализ чувствительности выбросов",
    kind: "file",
    methodology: "4.11",
    inputs: [
      {
        name: "file_data",
        label: "Файл с данными (год, добыча, метанообильность)",
        unit: "",
        type: "file",
        upload: [
          yearColumn,
          { name: "volume", label: "Добыча угля", unit: T, kind: "number", units: COAL_UNITS },
          { name: "methane", label: "Относительная метанообильность", unit: M3_T, kind: "number" },
          // D6: if present, transport CO2 = transport_fuel × 3.149 instead of volume × k_tr.
          {
            name: "transport_fuel",
            label: "Расход дизельного топлива на транспорт",
            unit: T,
            kind: "number",
            optional: true,
            note: "Для всех лет или ни для одного",
          },
          { name: "element", label: "Элемент (шахта)", unit: "", kind: "text", optional: true, note: "Для нескольких рядов в одном файле" },
          // D13: production as kept in the mine's records; stored in t.
          {
            name: "volume_unit",
            label: "Единица добычи угля",
            unit: "",
            kind: "text",
            optional: true,
            unitOf: "volume",
            note: `${COAL_UNITS.map((u) => u.unit).join(" или ")}; пустая ячейка — ${T}`,
          },
        ],
      },
    ],
    results: [
      {
        name: "data_sensitivity",
        label: "Чувствительность",
        unit: "",
        type: "table",
        columns: [
          { name: "year", label: "Год", unit: "", type: "number", decimals: 0 },
          { name: "volume", label: "Добыча угля", unit: T, type: "number", decimals: RESULT_DECIMALS },
          { name: "methane", label: "Относительная метанообильность", unit: M3_T, type: "number", decimals: RESULT_DECIMALS },
          { name: "res_co2", label: "Выбросы метана в CO2-эквиваленте", unit: T_CO2E, type: "number", decimals: RESULT_DECIMALS },
          {
            name: "res_co2_transport",
            label: "Выбросы CO2 от транспортировки угля",
            unit: "т CO2",
            type: "number",
            decimals: RESULT_DECIMALS,
          },
          { name: "res_co2_all", label: "Суммарные выбросы", unit: T_CO2E, type: "number", decimals: RESULT_DECIMALS },
          { name: "sn_volume", label: "Коэффициент чувствительности к добыче", unit: "", type: "number", decimals: 6 },
          { name: "sn_methan", label: "Коэффициент чувствительности к метанообильности", unit: "", type: "number", decimals: 6 },
          { name: "el_volume", label: "Дуговая эластичность по добыче (год к году)", unit: "", type: "number", decimals: 6 },
          { name: "el_methan", label: "Дуговая эластичность по метанообильности (год к году)", unit: "", type: "number", decimals: 6 },
        ],
      },
    ],
    settings: [
      {
        name: "rho",
        label: "Плотность CH4",
        unit: KG_M3,
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.density_kg_m3,
        decimals: 4,
        default: 0.67,
      },
      gwpSetting,
      {
        // D6: an illustrative assumption (1 kg of diesel per t of coal × 3.149), labelled as such.
        name: "k_tr",
        label: "Удельные выбросы CO2 от транспортировки угля (условное значение)",
        unit: "т CO2/т угля",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.factor_t,
        decimals: 6,
        default: 0.003149,
      },
      { name: "delta", label: "Шаг приращения фактора", unit: "доля", type: "number", min: 0, max: 1, decimals: 2, default: 0.1 },
      {
        name: "ef_transport_fuel",
        label: "Коэффициент выбросов CO2 дизельного топлива",
        unit: "т CO2/т топлива",
        type: "number",
        min: 0,
        max: PHYSICAL_BOUNDS.factor_t,
        decimals: 3,
        default: 3.149,
      },
    ],
    dictionaries: [],
    editable: true,
    core: emissionsCore("sensitivity"),
  },
} as const satisfies Record<string, CalculationDefinition>;

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
