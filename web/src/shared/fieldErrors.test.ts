import { describe, expect, it } from "vitest";
import { fieldErrors, fieldProblem, withoutFieldNames } from "./fieldErrors";
import { refusal, refused } from "../testing/refusal";

describe("a server's problems at their fields", () => {
  it("puts each problem under its field, without the field's name", () => {
    const problems = [
      ["inn", "ИНН — 10 цифр"],
      ["kpp", "КПП — 9 знаков, например 420501001"],
      ["ogrn", "ОГРН — 13 цифр"],
    ] as const;
    expect(fieldErrors(refused(400, problems), ["inn", "kpp", "ogrn"] as const)).toEqual([
      { name: "inn", errors: ["ИНН — 10 цифр"] },
      { name: "kpp", errors: ["КПП — 9 знаков, например 420501001"] },
      { name: "ogrn", errors: ["ОГРН — 13 цифр"] },
    ]);
  });

  it("leaves a detail that names no field of the form, or no field at all, to be shown whole", () => {
    expect(
      fieldErrors(
        refused(400, [
          ["inn", "ИНН — 10 цифр"],
          ["name", "укажите название"],
        ]),
        ["inn"] as const,
      ),
    ).toBeUndefined();
    expect(fieldErrors(refused(409, "Реквизиты уже изменены"), ["inn"] as const)).toBeUndefined();
    expect(fieldErrors(new Error("x"), ["inn"] as const)).toBeUndefined();
  });

  it("gives a one-field form the single problem a detail names, nested fields and rows too", () => {
    expect(fieldProblem(refusal([["data[3].x7", "концентрация не больше 100 %"]]))).toEqual({
      field: "data[3].x7",
      code: "invalid",
      message: "концентрация не больше 100 %",
      params: {},
    });
    expect(fieldProblem(refusal([["decree.date", "укажите дату"]]))).toEqual({
      field: "decree.date",
      code: "invalid",
      message: "укажите дату",
      params: {},
    });
    expect(
      fieldProblem(
        refusal([
          ["inn", "ИНН — 10 цифр"],
          ["kpp", "КПП — 9 цифр"],
        ]),
      ),
    ).toBeUndefined();
    expect(fieldProblem(refusal("Лист «CSV», строка 3, столбец «x7»: не число"))).toBeUndefined();
  });
});

describe("a refusal shown where no field takes it (an upload's preview)", () => {
  it("drops the fields' names the server puts first, and leaves a file's «Лист …» as it is", () => {
    expect(withoutFieldNames(refusal([["file_data", "файл пуст"]]))).toBe("Файл пуст");
    expect(
      withoutFieldNames(
        refusal([
          ["file_data", "файл пуст"],
          ["name_value", "укажите название столбца"],
        ]),
      ),
    ).toBe("Файл пуст; Укажите название столбца");
    const sheet = "Лист «CSV»: нет столбца «Содержание CO2 в смеси, % об.»";
    expect(withoutFieldNames(refusal(sheet))).toBe(sheet);
  });
});
