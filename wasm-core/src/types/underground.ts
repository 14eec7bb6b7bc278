// Выбросы CO2 и CH4 из систем дегазации и вентиляции (подземная добыча) (underground): the type's registry entry.
import type { BalanceRole, CalculationDefinition, NumberField, UploadColumn, InventorySource, ReferenceCategory } from "./definition";
import { PHYSICAL_BOUNDS } from "./definition";
import { emissionsCore, gwpSetting, numberColumn, resCh4, resCh4ToCo2, resCo2 } from "./fields";
import { co2eResult, GAS_DENSITIES, gasVolume, PERCENT_VOL, sumCo2, THOUSAND_M3, GASES_BOTH, DOCUMENTS, section5Vectors } from "./fields";

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

/** D26: the measured gas mixture of formula 3.1 as the dialog and the passport name it: what the
 *  meter measured, whatever became of it (a gross figure's gas was partly flared or used), never
 *  «выброшенной без сжигания» above a gross basis. */
export const MEASURED_VOLUME_LABEL = "Объём газовой смеси (вентиляция, дегазация), измеренный";

export const definition = {
  title: "Выбросы CO2 и CH4 из систем дегазации и вентиляции (подземная добыча)",
  kind: "formula",
  methodology: "4.5",
  inputs: [
    gasVolume("Объём газовой смеси, выброшенной без сжигания", PHYSICAL_BOUNDS.released_gas_thousand_m3),
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
      // D14: measurement periods of the degasification or ventilation system (monitoring data).
      template: {
        title: "Периоды измерений дегазации и вентиляции",
        example: [
          ["01.01.2025", "31.01.2025", 12.5, 744, 76, 10.6],
          ["01.02.2025", "28.02.2025", 10.25, 650.5, 76, 10.6],
        ],
      },
      optional: true,
      upload: [...PERIOD_DATES, ...PERIOD_NUMBERS.map((f) => numberColumn(f))],
    },
  ],
  results: [
    resCo2,
    resCh4,
    resCh4ToCo2,
    sumCo2,
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
        co2eResult("sum_co2", "Выбросы в CO2-эквиваленте"),
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
  measured: ["volume", "ef_ch4", "ef_co2"],
  uncertaintyParts: { co2: ["p_co2", "ef_co2"], ch4: ["p_ch4", "ef_ch4", "gwp_ch4"] },
  core: emissionsCore("underground"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
export const inventory: InventorySource = {
  category: 3,
  ipcc: "1.B.1.a.i.1",
  method: "measurement",
  defaultsDictionary: "get_underground_content",
  gases: GASES_BOTH,
  passportFormula: () => "Приказ № 371, формула 3.1: E_i = Σ FC × W_i × ρ_i × 10⁻²",
};

/** A mining figure measured at an emission point, netted of the gas destroyed when gross (D17, D25). */
export const balance: BalanceRole = "mining_measured";
export const destroys = null;

/** Its category on the reference page (/dictionary): the formula in the symbols of its coefficient tables,
 *  the document and clause it comes from, the dictionaries whose coefficients it shows. */
export const reference: ReferenceCategory = {
  index: 0,
  category: "Выбросы CO2 и CH4 из систем дегазации и вентиляции",
  formula: ["E_CH4 = V × W_CH4 × ρ_CH4 × 10⁻²", "E_CO2 = V × W_CO2 × ρ_CO2 × 10⁻²"],
  document: DOCUMENTS.order371,
  clause: "формула 3.1, табл. 1.2, 3.1",
  dictionaries: ["get_coeff_co2_density", "get_underground_content"],
  symbols: { p_ch4: "ρ_CH4", p_co2: "ρ_CO2", ef_ch4: "W_CH4", ef_co2: "W_CO2" },
};

/** Its worked examples: section 5's test vectors. */
export const vectors = section5Vectors([
  {
    volume: 10000,
    p_co2: 1.8393,
    p_ch4: 0.668,
    ef_co2: 10.6,
    ef_ch4: 76.0,
    res_co2: 1949.658,
    res_ch4: 5076.8,
    res_ch4_to_co2: 126920,
    sum_co2: 128869.658,
  },
  {
    volume: 10000,
    p_co2: 1.9768,
    p_ch4: 0.717,
    ef_co2: 10.6,
    ef_ch4: 76.0,
    res_co2: 2095.408,
    res_ch4: 5449.2,
    res_ch4_to_co2: 136230,
    sum_co2: 138325.408,
  },
  {
    volume: 500000,
    p_co2: 1.8393,
    p_ch4: 0.668,
    ef_co2: 0,
    ef_ch4: 0.4,
    res_co2: 0,
    res_ch4: 1336,
    res_ch4_to_co2: 33400,
    sum_co2: 33400,
  },
]);
