import { describe, expect, it } from "vitest";
import { menuKeyFor } from "../shared/screens";
import { MENU } from "./routes";

describe("menu", () => {
  it("declares every menu item of docs/user-guide.md in order, with the inventory after the projects", () => {
    expect(MENU.filter((entry) => !entry.adminOnly).map((entry) => entry.path)).toEqual([
      "/profile",
      "/projects",
      "/inventory",
      "/trend",
      "/abatement",
      "/forecast-models",
      "/dictionary",
      "/documents",
      "/export",
      "/widgets",
      "/settings",
    ]);
  });

  it("shows every screen of the route table it lists, the administration last and to operators only", () => {
    expect(MENU.map((entry) => entry.label)).toEqual([
      "Профиль",
      "Проекты",
      "Инвентаризация",
      "Динамика",
      "Снижение выбросов",
      "Модели прогноза",
      "Справочники",
      "Нормативные документы",
      "Экспорт",
      "Виджеты",
      "Настройки",
      "Администрирование",
    ]);
    expect(MENU.filter((entry) => entry.adminOnly).map((entry) => entry.path)).toEqual(["/admin"]);
  });

  it("highlights the section of a nested path", () => {
    expect(menuKeyFor(MENU, "/projects/42/graphs")).toBe("projects");
    expect(menuKeyFor(MENU, "/settings")).toBe("settings");
    expect(menuKeyFor(MENU, "/admin")).toBe("admin");
    expect(menuKeyFor(MENU, "/")).toBeUndefined();
  });
});
