import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { fieldErrors, fieldProblem, withoutFieldNames } from "./fieldErrors";

describe("a server's problems at their fields", () => {
  it("puts each «field: text» under its field, without the field's name", () => {
    const detail = "inn: ИНН — 10 цифр; kpp: КПП — 9 знаков, например 420501001; ogrn: ОГРН — 13 цифр";
    expect(fieldErrors(new ApiError(400, detail), ["inn", "kpp", "ogrn"] as const)).toEqual([
      { name: "inn", errors: ["ИНН — 10 цифр"] },
      { name: "kpp", errors: ["КПП — 9 знаков, например 420501001"] },
      { name: "ogrn", errors: ["ОГРН — 13 цифр"] },
    ]);
  });

  it("leaves a detail that names no field of the form, or no field at all, to be shown whole", () => {
    expect(fieldErrors(new ApiError(400, "inn: ИНН — 10 цифр; name: укажите название"), ["inn"] as const)).toBeUndefined();
    expect(fieldErrors(new ApiError(409, "Реквизиты уже изменены"), ["inn"] as const)).toBeUndefined();
    expect(fieldErrors(new Error("x"), ["inn"] as const)).toBeUndefined();
  });

  it("gives a one-field form the single problem a detail names, nested fields and rows too", () => {
    expect(fieldProblem("data[3].x7: концентрация не больше 100 %")).toEqual({
      field: "data[3].x7",
      message: "концентрация не больше 100 %",
    });
    expect(fieldProblem("decree.date: укажите дату")).toEqual({ field: "decree.date", message: "укажите дату" });
    expect(fieldProblem("inn: ИНН — 10 цифр; kpp: КПП — 9 цифр")).toBeUndefined();
    expect(fieldProblem("Лист «CSV», строка 3, столбец «x7»: не число")).toBeUndefined();
  });
});

describe("a refusal shown where no field takes it (an upload's preview)", () => {
  it("drops the fields' names the server puts first, and leaves a file's «Лист …» as it is", () => {
    expect(withoutFieldNames("file_data: файл пуст")).toBe("Файл пуст");
    expect(withoutFieldNames("file_data: файл пуст; name_value: укажите название столбца")).toBe("Файл пуст; Укажите название столбца");
    const sheet = "Лист «CSV»: нет столбца «Содержание CO2 в смеси, % об.»";
    expect(withoutFieldNames(sheet)).toBe(sheet);
  });
});
