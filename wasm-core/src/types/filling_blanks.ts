// Заполнение пропусков во временных рядах (filling_blanks): the type's registry entry.
import type { CalculationDefinition } from "./definition";
import { analysisParts, emissionsCore, RESULT_DECIMALS, yearColumn } from "./fields";

export const definition = {
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
      template: {
        title: "Заполнение пропусков",
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
} as const satisfies CalculationDefinition;

/** An analysis, outside the inventory, the balance and the reference page; its worked examples are
 *  section 5's test vectors. */
export const { inventory, balance, destroys, reference, vectors } = analysisParts({
  section: "section 5",
  examples: [
    {
      years: [2014, 2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023],
      values: [null, 100, null, null, 130, 125, null, 140, null, null],
      filled: [96.266667, 100, 110, 120, 130, 125, 132.5, 140, 148.0, 154.466667],
      tolerance_abs: 1e-6,
    },
    {
      years: [2018, 2019, 2020, 2021, 2022],
      values: [50, 30, null, 10, null],
      filled: [50, 30, 20, 10, 0],
    },
    {
      years: [2018, 2019, 2020, 2021, 2022],
      values: [null, null, 7.5, null, null],
      filled: [7.5, 7.5, 7.5, 7.5, 7.5],
    },
  ],
});
