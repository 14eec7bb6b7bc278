import { describe, expect, it } from "vitest";
import { projectFieldErrors, splitFieldDetail } from "./projectForm";

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
    expect(projectFieldErrors({ name: "   ", start_date: "2024-01-01", end_date: "2024-01-01" }).name).toBe(
      "Введите название проекта",
    );
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
    expect(splitFieldDetail("name: введите название проекта")).toEqual({
      field: "name",
      message: "Введите название проекта",
    });
  });

  it("leaves other details whole", () => {
    expect(splitFieldDetail("Проект изменен другим пользователем")).toEqual({
      message: "Проект изменен другим пользователем",
    });
    expect(splitFieldDetail("version: ожидается целое число")).toEqual({ message: "version: ожидается целое число" });
  });
});
