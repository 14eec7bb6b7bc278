// @vitest-environment jsdom
// The projects page (docs/user-guide.md): the add dialog checks its fields before anything is sent
// and refuses an end date before the start date; the app's «Loading ...» shows while the list is
// pending; the table shows each project's reporting year.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import { project, signedInUser } from "../../testing/fixtures";
import { closeApp, openApp, openPage, type OpenApp } from "../../testing/render-app";
import type { ContractApi } from "../../testing/contract-api";
import ProjectsPage from "./ProjectsPage";

let app: OpenApp;

beforeAll(async () => {
  await Promise.all([import("./ProjectDialog"), import("./ProjectsTable")]);
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const noProjects = (api: ContractApi) =>
  api.on("getMe", signedInUser()).on("listProjects", { results: [], count: 0 }).on("listFacilities", []);

/** Types a date as a user does into antd's picker, then leaves the field. */
async function typeDate(input: HTMLElement, value: string) {
  await app.user.click(input);
  await app.user.clear(input);
  await app.user.type(input, value);
  await app.user.tab();
}

// Moved from tests/e2e/web-projects.test.ts.
it("validates the add dialog before sending anything, and rejects an end date before the start date", async () => {
  app = openPage({ path: "/projects", page: <ProjectsPage /> }, noProjects);
  const add = (await screen.findByText("Добавить проект")).closest("button")!;
  await waitFor(() => expect(add.disabled).toBe(false));
  await app.user.click(add);
  const dialog = within(await screen.findByRole("dialog"));
  await app.user.click((await dialog.findByText("Создать")).closest("button")!);
  await dialog.findByText("Введите название проекта");
  await dialog.findByText("Укажите дату начала");
  await dialog.findByText("Укажите дату окончания");
  // The same dialog, filled in with the dates the wrong way round.
  await app.user.type(dialog.getByLabelText("Название"), "Шахта Северная");
  await typeDate(dialog.getByLabelText("Дата начала"), "2024-03-01");
  await typeDate(dialog.getByLabelText("Дата окончания"), "2024-02-01");
  await app.user.click(dialog.getByText("Создать").closest("button")!);
  await dialog.findByText("Дата окончания раньше даты начала");
  expect(app.api.calls("createProject")).toEqual([]);
  await app.user.click(dialog.getByText("Отмена").closest("button")!);
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
});

it("shows «Loading ...» while a request is pending", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  app = openApp(`/projects?search=${encodeURIComponent("Нет такого")}`, (api) =>
    noProjects(api).on("listProjects", async () => {
      await held;
      return { results: [], count: 0 };
    }),
  );
  await waitFor(() => expect(screen.getByTestId("global-loading").textContent).toContain("Loading ..."));
  release();
  await screen.findByText("Нет проектов с таким названием");
  await waitFor(() => expect(screen.queryByTestId("global-loading")).toBeNull());
});

// Moved from tests/e2e/web-gwp-years.test.ts.
it("shows the reporting year in the projects table", async () => {
  const mine = project({ name: "Шахта 2024", start_date: "2024-01-01", end_date: "2024-12-31", reporting_year: 2024 });
  app = openPage({ path: "/projects", page: <ProjectsPage /> }, (api) => noProjects(api).on("listProjects", { results: [mine], count: 1 }));
  const row = (await screen.findByText("Шахта 2024")).closest<HTMLElement>(".ant-table-row")!;
  expect(within(row).getByRole("cell", { name: "2024" })).toBeTruthy();
  expect(screen.getByRole("columnheader", { name: "Отчетный год" })).toBeTruthy();
});
