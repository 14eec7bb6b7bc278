// Анализ чувствительности выбросов (sensitivity): the type's registry entry.
import type { CalculationDefinition } from "./definition";
import { PHYSICAL_BOUNDS } from "./definition";
import { analysisParts, COAL_UNITS, densityField, emissionsCore, fuelCo2Factor, gwpSetting } from "./fields";
import { M3_T, RESULT_DECIMALS, T, T_CO2E, yearColumn } from "./fields";

export const definition = {
  title: "Анализ чувствительности выбросов",
  kind: "file",
  methodology: "4.11",
  inputs: [
    {
      name: "file_data",
      label: "Файл с данными (год, добыча, метанообильность)",
      unit: "",
      type: "file",
      template: {
        title: "Анализ чувствительности",
        example: [
          [2020, 1000000, 10, null, null, "т"],
          [2021, 1200, 9, null, null, "тыс. т"],
          [2022, 1100000, 11, null, null, null],
        ],
      },
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
    densityField("rho", "Плотность CH4", 0.67),
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
    fuelCo2Factor("ef_transport_fuel", "Коэффициент выбросов CO2 дизельного топлива"),
  ],
  dictionaries: [],
  editable: true,
  core: emissionsCore("sensitivity"),
} as const satisfies CalculationDefinition;

/** An analysis, outside the inventory, the balance and the reference page; its worked examples are
 *  section 5's test vectors. */
export const { inventory, balance, destroys, reference, vectors } = analysisParts({
  section: "section 5",
  examples: {
    params: {
      rho: 0.67,
      gwp_ch4: 25,
      k_tr: 0.003149,
      delta: 0.1,
    },
    rows: [
      {
        year: 2020,
        volume: 1000000,
        methane: 10,
        res_co2: 167500,
        res_co2_transport: 3149,
        res_co2_all: 170649,
        sn_volume: 1.0,
        sn_methan: 0.981547,
      },
      {
        year: 2021,
        volume: 1200000,
        methane: 9,
        res_co2: 180900,
        res_co2_transport: 3778.8,
        res_co2_all: 184678.8,
        sn_volume: 1.0,
        sn_methan: 0.979539,
      },
      {
        year: 2022,
        volume: 1100000,
        methane: 11,
        res_co2: 202675,
        res_co2_transport: 3463.9,
        res_co2_all: 206138.9,
        sn_volume: 1.0,
        sn_methan: 0.983196,
      },
    ],
    tolerance_abs_sn: 1e-6,
  },
});
