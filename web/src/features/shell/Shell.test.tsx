// @vitest-environment jsdom
// The signed-in shell around every page (docs/user-guide.md): the menu lists the built screens (an
// operator's administration item not for staff) and opens each («Справочники»), an unknown path is the 404 page inside the shell,
// and /login while signed in leads to the landing page.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import { referenceDictionary, signedInUser } from "../../testing/fixtures";
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
  app = openApp("/", (api) => api.on("getMe", signedInUser()));
  const items = await menu();
  for (const label of ["Профиль", "Проекты", "Справочники", "Нормативные документы", "Экспорт", "Виджеты", "Настройки", "Выход"]) {
    await items.findByText(label, { exact: true });
  }
  // The user is staff: no administration item.
  expect(items.queryByText("Администрирование", { exact: true })).toBeNull();
});

// Moved from tests/e2e/web-reference.test.ts.
it("switches «Справочники» on in the menu", async () => {
  app = openApp("/", (api) => api.on("getMe", signedInUser()).on("getDictionary", ({ params }) => referenceDictionary(params.name)));
  await app.user.click((await menu()).getByText("Справочники", { exact: true }));
  await screen.findByRole("heading", { name: "Справочники" });
  expect(window.location.pathname).toBe("/dictionary");
});

it("redirects /login to the landing page while signed in", async () => {
  app = openApp("/login", (api) => api.on("getMe", signedInUser()));
  await waitFor(() => expect(window.location.pathname).toBe("/"));
  await screen.findByRole("button", { name: "Начать работу" });
});

it("shows the 404 page inside the shell for an unknown path", async () => {
  app = openApp("/no-such-page", (api) => api.on("getMe", signedInUser()));
  await screen.findByText("Страница не найдена");
  await menu();
});
