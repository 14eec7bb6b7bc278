import { describe, expect, it } from "vitest";
import { MENU, menuKeyFor, visibleMenu } from "./screens";

describe("menu", () => {
  it("declares every menu item of docs/user-guide.md in order, with the inventory after the projects", () => {
    expect(MENU.map((entry) => entry.path)).toEqual([
      "/profile",
      "/projects",
      "/inventory",
      "/forecast-models",
      "/dictionary",
      "/documents",
      "/export",
      "/widgets",
      "/settings",
    ]);
  });

  it("shows only the screens that are built", () => {
    expect(visibleMenu().map((entry) => entry.label)).toEqual([
      "Профиль",
      "Проекты",
      "Инвентаризация",
      "Модели прогноза",
      "Справочники",
      "Нормативные документы",
      "Экспорт",
      "Виджеты",
      "Настройки",
    ]);
  });

  it("highlights the section of a nested path", () => {
    expect(menuKeyFor("/projects/42/graphs")).toBe("projects");
    expect(menuKeyFor("/settings")).toBe("settings");
    expect(menuKeyFor("/admin")).toBe("admin");
    expect(menuKeyFor("/")).toBeUndefined();
  });
});
