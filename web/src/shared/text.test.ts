import { describe, expect, it } from "vitest";
import { actorText, keepSignsWithNumbers, orAbsent, truncate, truncateKeepingYear } from "./text";

describe("truncate", () => {
  it("keeps a name of at most 25 characters as it is", () => {
    expect(truncate("Шахта Северная", 25)).toBe("Шахта Северная");
    expect(truncate("а".repeat(25), 25)).toBe("а".repeat(25));
  });

  it("cuts a longer name to 25 characters and adds an ellipsis", () => {
    expect(truncate("Разрез Восточный, участок номер 2", 25)).toBe("Разрез Восточный, участок…");
  });

  it("counts characters, not UTF-16 units", () => {
    expect(truncate("😀".repeat(30), 25)).toBe(`${"😀".repeat(25)}…`);
  });
});

describe("truncateKeepingYear", () => {
  it("never cuts a project's name and its year together", () => {
    expect(truncateKeepingYear("Шахта «Распадская-Коксовая» 2025", 25)).toBe("Шахта «Распадская-Ко… 2025");
    expect(truncateKeepingYear("Шахта «Распадская-Коксовая» (2025)", 25)).toBe("Шахта «Распадская-Ко… 2025");
    expect(truncateKeepingYear("Шахта Северная-Глубокая, отчет 2025 год, уточненный", 25)).toBe("Шахта Северная-Глуб… 2025…");
    for (const name of ["Разрез Восточный, участок номер 2 — инвентаризация 2024", "Участок 7, отработка лавы 2027 года"]) {
      const cut = truncateKeepingYear(name, 25);
      expect(Array.from(cut).length, cut).toBeLessThanOrEqual(26);
      expect(cut).toMatch(/20\d\d/);
    }
  });

  it("cuts as before when the year survives the cut or there is none", () => {
    expect(truncateKeepingYear("2025 — Шахта «Распадская-Коксовая»", 25)).toBe("2025 — Шахта «Распадская-…");
    expect(truncateKeepingYear("Шахта Северная, 2025 год, уточненный отчет", 25)).toBe("Шахта Северная, 2025 год,…");
    expect(truncateKeepingYear("Разрез Восточный, участок номер 2", 25)).toBe("Разрез Восточный, участок…");
    expect(truncateKeepingYear("Шахта 2025", 25)).toBe("Шахта 2025");
  });
});

describe("orAbsent", () => {
  it("shows «Отсутствует» for empty, blank and missing values", () => {
    expect(orAbsent("")).toBe("Отсутствует");
    expect(orAbsent("   ")).toBe("Отсутствует");
    expect(orAbsent(null)).toBe("Отсутствует");
    expect(orAbsent(undefined)).toBe("Отсутствует");
  });

  it("shows a present value", () => {
    expect(orAbsent("1027700132195")).toBe("1027700132195");
    expect(orAbsent(0)).toBe("0");
  });
});

describe("actorText", () => {
  it("names the platform's own account in Russian and a person as given", () => {
    expect(actorText("system")).toBe("система");
    expect(actorText("engineer@example.ru")).toBe("engineer@example.ru");
    expect(actorText(undefined)).toBe("");
  });
});

describe("keepSignsWithNumbers", () => {
  it("keeps «№ 2», «95 %» and a figure with its unit on one line, other spaces as they are", () => {
    expect(keepSignsWithNumbers("Вентиляционный ствол № 2, полнота 95 %")).toBe("Вентиляционный ствол №\u00a02, полнота 95\u00a0%");
    expect(keepSignsWithNumbers("9 348,67 тыс. м³, 32,413 т.")).toBe("9 348,67\u00a0тыс.\u00a0м³, 32,413\u00a0т.");
    expect(keepSignsWithNumbers("Ствол №")).toBe("Ствол №");
    expect(keepSignsWithNumbers("2 точки, 3 тонны")).toBe("2 точки, 3 тонны");
  });
});
