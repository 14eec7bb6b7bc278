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

/** An analysis, outside the inventory, the balance and the reference page; its test vectors are section 5's,
 *  under its name (wasm-core/src/methodology-vectors.json). */
export const { inventory, balance, destroys, reference, vectors } = analysisParts("section 5");
