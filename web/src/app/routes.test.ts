import { describe, expect, it } from "vitest";
import { currentMenuPath, facilityMenu } from "../shared/screens";
import { MENU } from "./routes";

describe("menu", () => {
  it("declares every menu item of docs/user-guide.md in order, with the inventory after the projects", () => {
    expect(MENU.filter((entry) => !entry.adminOnly).map((entry) => entry.path)).toEqual([
      "/profile",
      "/projects",
      "/inventory",
      "/trend",
      "/abatement",
      "/climate-projects",
      "/facilities/:facilityId/monitoring",
      "/facilities/:facilityId/journal",
      "/facilities/:facilityId/gassing-book",
      "/facilities/:facilityId/events",
      "/facilities/:facilityId/sensors",
      "/facilities/:facilityId/agk-data",
      "/facilities/:facilityId/completeness",
      "/facilities/:facilityId/sensor-checks",
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
      "Климатические проекты",
      "Мониторинг",
      "Журнал оператора АГК",
      "Книга учета загазирований",
      "События",
      "Датчики",
      "Данные АГК",
      "Полнота данных датчиков",
      "Проверки датчиков",
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
    const shown = facilityMenu(MENU, [{ id: "f-1", name: "Шахта" }]);
    expect(currentMenuPath(shown, "/projects/42/graphs")).toBe("/projects");
    expect(currentMenuPath(shown, "/settings")).toBe("/settings");
    expect(currentMenuPath(shown, "/admin")).toBe("/admin");
    expect(currentMenuPath(shown, "/")).toBeUndefined();
    expect(currentMenuPath(shown, "/facilities/f-1/sensors/s-9/day")).toBe("/facilities/f-1/sensors");
    expect(currentMenuPath(shown, "/facilities/f-1/monitoring")).toBe("/facilities/f-1/monitoring");
  });

  // the monitoring wing was reached only through «Профиль» › «Площадки».
  it("lists the monitoring wing once for one mine, per mine under its name for several, none without a mine", () => {
    const wing = [
      "Мониторинг",
      "Журнал оператора АГК",
      "Книга учета загазирований",
      "События",
      "Датчики",
      "Данные АГК",
      "Полнота данных датчиков",
      "Проверки датчиков",
    ];
    const one = facilityMenu(MENU, [{ id: "f-1", name: "Шахта «Северная»" }]);
    const labels = one.map((e) => e.label);
    expect(labels.slice(labels.indexOf("Климатические проекты") + 1, labels.indexOf("Модели прогноза"))).toEqual(wing);
    expect(one.filter((e) => e.path.startsWith("/facilities/")).map((e) => [e.path, e.group])).toEqual([
      ["/facilities/f-1/monitoring", undefined],
      ["/facilities/f-1/journal", undefined],
      ["/facilities/f-1/gassing-book", undefined],
      ["/facilities/f-1/events", undefined],
      ["/facilities/f-1/sensors", undefined],
      ["/facilities/f-1/agk-data", undefined],
      ["/facilities/f-1/completeness", undefined],
      ["/facilities/f-1/sensor-checks", undefined],
    ]);
    const two = facilityMenu(MENU, [
      { id: "f-1", name: "Северная" },
      { id: "f-2", name: "Южная" },
    ]).filter((e) => e.path.startsWith("/facilities/"));
    expect(two.map((e) => `${e.group}: ${e.label}`)).toEqual([...wing.map((l) => `Северная: ${l}`), ...wing.map((l) => `Южная: ${l}`)]);
    expect(new Set(two.map((e) => e.key)).size).toBe(16);
    expect(facilityMenu(MENU, []).some((e) => e.path.startsWith("/facilities/"))).toBe(false);
  });
});
