// @vitest-environment happy-dom
// The signed-in shell around every page (docs/user-guide.md): the menu lists the built screens (an
// operator's administration item, and /backend its screen, not for staff) and opens each («Справочники»),
// an unknown path is the 404 page inside the shell, /login while signed in leads to the landing page,
// and «Выход» ends the session.
import { act, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import { company, referenceDictionary, signedInUser } from "../../testing/fixtures";
import { closeApp, openApp, type OpenApp } from "../../testing/render-app";

let app: OpenApp;

beforeAll(async () => {
  await Promise.all([
    import("./Shell"),
    import("../landing/LandingPage"),
    import("./NotFoundPage"),
    import("../dictionary/DictionaryPage"),
  ]);
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const menu = async () => within(await screen.findByRole("navigation", { name: "Главное меню" }));

// Moved from tests/e2e/web-projects.test.ts.
it("shows only the built screens in the menu", async () => {
  app = openApp("/", (api) => api.on("getMe", signedInUser()).on("listFacilities", []));
  const items = await menu();
  for (const label of ["Профиль", "Проекты", "Справочники", "Нормативные документы", "Экспорт", "Виджеты", "Настройки", "Выход"]) {
    await items.findByText(label, { exact: true });
  }
  // The user is staff: no administration item.
  expect(items.queryByText("Администрирование", { exact: true })).toBeNull();
});

// «Динамика» had no icon, so its label stood left of the others'.
it("gives every menu item its icon, «Динамика» too", async () => {
  app = openApp("/", (api) => api.on("getMe", signedInUser({ role: "admin" })).on("listFacilities", []));
  const nav = await screen.findByRole("navigation", { name: "Главное меню" });
  const links = within(nav).getAllByRole("link");
  expect(links.map((link) => link.textContent)).toContain("Динамика");
  expect(links.filter((link) => !link.querySelector(".shell-nav-icon svg")).map((link) => link.textContent)).toEqual([]);
});

// Moved from tests/e2e/web-reference.test.ts.
it("switches «Справочники» on in the menu", async () => {
  app = openApp("/", (api) =>
    api
      .on("getMe", signedInUser())
      .on("listFacilities", [])
      .on("getDictionary", ({ params }) => referenceDictionary(params.name)),
  );
  await app.user.click((await menu()).getByText("Справочники", { exact: true }));
  await screen.findByRole("heading", { name: "Справочники" });
  expect(window.location.pathname).toBe("/dictionary");
});

it("redirects /login to the landing page while signed in", async () => {
  app = openApp("/login", (api) => api.on("getMe", signedInUser()).on("listFacilities", []));
  await waitFor(() => expect(window.location.pathname).toBe("/"));
  await screen.findByRole("button", { name: "Начать работу" });
});

it("shows the 404 page inside the shell for an unknown path", async () => {
  app = openApp("/no-such-page", (api) => api.on("getMe", signedInUser()).on("listFacilities", []));
  await screen.findByText("Страница не найдена");
  await menu();
});

// Moved from tests/e2e/web-admin.test.ts.
it("shows the operator the admin item; /backend opens /admin", async () => {
  app = openApp("/backend", (api) =>
    api
      .on("getMe", signedInUser({ role: "admin" }))
      .on("listFacilities", [])
      .on("adminListCompanies", { results: [company({ name: "Демо-компания" })], count: 1 })
      .on("adminListUsers", { results: [], count: 0 }),
  );
  await (await menu()).findByText("Администрирование");
  await waitFor(() => expect(window.location.pathname).toBe("/admin"));
  for (const tab of ["Компании", "Пользователи", "Справочники", "Документы", "Видео", "Журнал"]) {
    await screen.findByRole("tab", { name: tab });
  }
  await screen.findByText("Демо-компания", { selector: ".ant-table-row *" });
});

// «Данные АГК» took the screen's name; a link to the old path still opens it.
it("opens «Данные АГК» at /agk-data from its old path /telemetry, the query kept", async () => {
  app = openApp("/facilities/f-1/telemetry?year=2026#offers", (api) =>
    api
      .on("getMe", signedInUser())
      .on("listProjects", { results: [], count: 0 })
      .on("listMonitoringPointChannels", [])
      .on("listMonitoringOffers", []),
  );
  await waitFor(() => expect(window.location.pathname).toBe("/facilities/f-1/agk-data"));
  expect(window.location.search).toBe("?year=2026");
  expect(window.location.hash).toBe("#offers");
  await screen.findByRole("heading", { name: /Данные АГК/ });
});

// Moved from tests/e2e/web-admin.test.ts.
it("keeps a staff user out: no menu item, «Недостаточно прав» on /admin", async () => {
  app = openApp("/admin", (api) => api.on("getMe", signedInUser()).on("listFacilities", []));
  const items = await menu();
  await items.findByText("Нормативные документы", { exact: true });
  expect(items.queryByText("Администрирование")).toBeNull();
  await screen.findByText("Недостаточно прав");
});

// Moved from tests/e2e/web-projects.test.ts.
it("signs out with «Выход», clears local storage and keeps the visitor out of /projects", async () => {
  app = openApp("/", (api) => api.on("getMe", signedInUser()).on("listFacilities", []));
  await app.user.click((await menu()).getByText("Выход"));
  await waitFor(() => expect(window.location.pathname).toBe("/login"));
  expect(localStorage.length).toBe(0);
  // The address typed in the app, as a visitor who knows it.
  act(() => {
    window.history.pushState({}, "", "/projects");
    window.dispatchEvent(new PopStateEvent("popstate"));
  });
  await waitFor(() => expect(window.location.pathname).toBe("/login"));
  await screen.findByRole("button", { name: "Вход" });
});

// «Мониторинг», «События», «Датчики», «Данные АГК» and «Полнота данных датчиков» were
// reached only through «Профиль» › «Площадки»; now the menu lists them per mine, under its name.
it("lists each mine's monitoring pages in the menu, under the mine's name where there are several", async () => {
  const at = "2026-01-01T00:00:00Z";
  const mine = (id: string, name: string, kind: "underground_mine" | "open_pit" = "underground_mine") => ({
    id,
    company: "company-1",
    name,
    kind,
    licence_number: "",
    address: "",
    is_active: true,
    created_at: at,
    updated_at: at,
    version: 1,
  });
  app = openApp("/", (api) =>
    api
      .on("getMe", signedInUser())
      .on("listFacilities", [mine("f-1", "Шахта «Северная»"), mine("f-2", "Шахта «Южная»"), mine("f-3", "Разрез «Восточный»", "open_pit")]),
  );
  const nav = await screen.findByRole("navigation", { name: "Главное меню" });
  await within(nav).findByText("Шахта «Южная»");
  expect(within(nav).getByText("Шахта «Северная»")).toBeTruthy();
  expect(within(nav).queryByText("Разрез «Восточный»")).toBeNull();
  const links = within(nav)
    .getAllByRole("link")
    .map((link) => [link.textContent, link.getAttribute("href")]);
  for (const id of ["f-1", "f-2"]) {
    expect(links.filter(([, href]) => href?.startsWith(`/facilities/${id}/`))).toEqual([
      ["Мониторинг", `/facilities/${id}/monitoring`],
      ["Журнал оператора АГК", `/facilities/${id}/journal`],
      ["Книга учета загазирований", `/facilities/${id}/gassing-book`],
      ["События", `/facilities/${id}/events`],
      ["Датчики", `/facilities/${id}/sensors`],
      ["Данные АГК", `/facilities/${id}/agk-data`],
      ["Полнота данных датчиков", `/facilities/${id}/completeness`],
      ["Проверки датчиков", `/facilities/${id}/sensor-checks`],
    ]);
  }
  expect(links.some(([, href]) => href?.startsWith("/facilities/f-3/"))).toBe(false);
});
