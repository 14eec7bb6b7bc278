import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CellInvalid, DomainError, fromWire, invalidAt, isWireError, NotFound, toWire } from "./errors";

const SERVER = resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("the domain's errors", () => {
  it("name no HTTP status: a refusal is of a kind, its status the edge's (http/errors.ts)", () => {
    const files = [...sources(join(SERVER, "domain")), ...sources(join(SERVER, "files"))];
    expect(files.length).toBeGreaterThan(100);
    const statusNumber = /\b(?:DomainError|FileRefused|super)\(\s*[1-5]\d\d\b|\bstatus\s*[:=]\s*[1-5]\d\d\b|\bstatus:\s*(?:[1-5]\d\d\s*\|)/;
    const naming = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (statusNumber.test(line) ? [`${relative(SERVER, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(naming).toEqual([]);
  });

  it("cross a process boundary as data and come back the same, problems and all", () => {
    const invalid = invalidAt("file", "это модель xgboost, а выбран метод lightgbm");
    const back = fromWire(JSON.parse(JSON.stringify(toWire(invalid))));
    expect(back).toBeInstanceOf(DomainError);
    expect([back.kind, back.detail, back.problems]).toEqual([
      "invalid",
      "file: это модель xgboost, а выбран метод lightgbm",
      invalid.problems,
    ]);
    expect(toWire(new NotFound("Проект не найден"))).toEqual({ kind: "not_found", detail: "Проект не найден" });
    // Only a known kind is believed.
    expect(isWireError({ kind: "not_found", detail: "x" })).toBe(true);
    expect(isWireError({ kind: "teapot", detail: "x" })).toBe(false);
    expect(isWireError({ kind: "invalid", detail: "x", problems: [{ field: "a" }] })).toBe(false);
  });

  it("say a refused cell's place as data and in the detail the user reads", () => {
    const cell = new CellInvalid({ sheet: "CSV", row: 3, header: "Расход, м³/мин", element: "Шахта 1" }, "ожидается число");
    expect(cell.detail).toBe("Лист «CSV», строка 3, элемент «Шахта 1», столбец «Расход, м³/мин»: ожидается число");
    expect([cell.kind, cell.cell.row, cell.reason, cell.problems]).toEqual(["invalid", 3, "ожидается число", undefined]);
  });
});
