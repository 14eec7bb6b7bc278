import { describe, expect, it } from "vitest";
import { draftReportingYear, projectFieldErrors, splitFieldDetail, YEAR_NOT_A_NUMBER } from "./projectForm";
import { refusal } from "../../testing/refusal";

describe("projectFieldErrors", () => {
  it("accepts a complete project", () => {
    expect(projectFieldErrors({ name: "Шахта", start_date: "2024-01-01", end_date: "2024-12-31" })).toEqual({});
  });

  it("asks for every field of an empty draft", () => {
    expect(projectFieldErrors({})).toEqual({
      name: "Введите название проекта",
      start_date: "Укажите дату начала",
      end_date: "Укажите дату окончания",
    });
  });

  it("rejects a blank name", () => {
    expect(projectFieldErrors({ name: "   ", start_date: "2024-01-01", end_date: "2024-01-01" }).name).toBe("Введите название проекта");
  });

  it("rejects a name longer than 255 characters", () => {
    const errors = projectFieldErrors({ name: "x".repeat(256), start_date: "2024-01-01", end_date: "2024-01-02" });
    expect(errors.name).toBe("Название не длиннее 255 символов");
  });

  it("rejects an end date before the start date, under the end date", () => {
    expect(projectFieldErrors({ name: "Шахта", start_date: "2024-05-01", end_date: "2024-04-30" })).toEqual({
      end_date: "Дата окончания раньше даты начала",
    });
  });

  it("allows a project of one day", () => {
    expect(projectFieldErrors({ name: "Шахта", start_date: "2024-05-01", end_date: "2024-05-01" })).toEqual({});
  });
});

describe("splitFieldDetail", () => {
  it("puts a server detail naming a field under that field", () => {
    expect(splitFieldDetail(refusal([["name", "введите название проекта"]]))).toEqual({
      field: "name",
      message: "Введите название проекта",
    });
  });

  it("leaves other details whole", () => {
    expect(splitFieldDetail(refusal("Проект изменен другим пользователем"))).toEqual({
      message: "Проект изменен другим пользователем",
    });
    expect(splitFieldDetail(refusal([["version", "ожидается целое число"]]))).toEqual({ message: "Версия: ожидается целое число" });
  });
});

describe("reporting year (D12)", () => {
  const draft = { name: "Шахта", start_date: "2024-01-01", end_date: "2024-12-31" };
  it("defaults to the end date's year and takes a typed one", () => {
    expect(draftReportingYear(draft)).toBe(2024);
    expect(draftReportingYear({ ...draft, reporting_year: " 2025 " })).toBe(2025);
    expect(projectFieldErrors({ ...draft, reporting_year: "2025" })).toEqual({});
  });
  it("refuses what is not a year, in Russian, under the field", () => {
    expect(projectFieldErrors({ ...draft, reporting_year: "20x5" }).reporting_year).toBe(YEAR_NOT_A_NUMBER);
    expect(projectFieldErrors({ ...draft, reporting_year: "1800" }).reporting_year).toBe("Отчетный год не раньше 1990");
    expect(projectFieldErrors({ ...draft, reporting_year: "2101" }).reporting_year).toBe("Отчетный год не позже 2100");
  });
});
