// @vitest-environment happy-dom
// The projects page (docs/user-guide.md): the add dialog checks its fields before anything is sent
// and refuses an end date before the start date; the app's «Loading ...» shows while the list is
// pending; the table shows each project's reporting year. The dialog's checks render the dialog alone,
// the reporting year and the paging the table alone; editing, archiving and the global «Loading ...»
// the page, and the way from the landing page the whole app.
import { act, screen, waitFor, within } from "@testing-library/react";
import { useAtomValue } from "jotai";
import { afterEach, expect, it } from "vitest";
import { project, signedInUser } from "../../testing/fixtures";
import { closeApp, openApp, openPage, openPart, type OpenApp, setField } from "../../testing/render-app";
import { failure, type ContractApi } from "../../testing/contract-api";
import { appStore } from "../../app/store";
import type { Project } from "@server/contract";
import { projectDialogAtom } from "./atoms";
import { ProjectDialog } from "./ProjectDialog";
import ProjectsPage from "./ProjectsPage";
import { ProjectsTable } from "./ProjectsTable";

let app: OpenApp;
const ME = signedInUser();

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

/** Puts a date in antd's picker at once (its keys are not what the test checks), then leaves the field. */
async function setDate(input: HTMLElement, value: string) {
  await app.user.click(input);
  await setField(app.user, input, value);
  await app.user.tab();
}

/** The project dialog alone, shown while open as the page shows it. */
function OpenDialog() {
  return useAtomValue(projectDialogAtom) && <ProjectDialog owner={{ company: ME.company.id, user: ME.id }} />;
}

/** The projects table alone, at /projects. */
const tableAlone = { path: "/projects", page: <ProjectsTable companyId={ME.company.id} archived={false} /> };

// Moved from tests/e2e/web-projects.test.ts.
it("validates the add dialog before sending anything, and rejects an end date before the start date", async () => {
  app = openPart(<OpenDialog />, noProjects);
  // As «Добавить проект» opens it.
  act(() => appStore.set(projectDialogAtom, { mode: "create" }));
  const dialog = within(await screen.findByRole("dialog"));
  await app.user.click((await dialog.findByText("Создать")).closest("button")!);
  await dialog.findByText("Введите название проекта");
  await dialog.findByText("Укажите дату начала");
  await dialog.findByText("Укажите дату окончания");
  // The same dialog, filled in with the dates the wrong way round.
  await setField(app.user, dialog.getByLabelText("Название"), "Шахта Северная");
  await setDate(dialog.getByLabelText("Дата начала"), "2024-03-01");
  await setDate(dialog.getByLabelText("Дата окончания"), "2024-02-01");
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
  app = openPage(tableAlone, (api) => noProjects(api).on("listProjects", { results: [mine], count: 1 }));
  const row = (await screen.findByText("Шахта 2024")).closest<HTMLElement>(".ant-table-row")!;
  expect(within(row).getByRole("cell", { name: "2024" })).toBeTruthy();
  expect(screen.getByRole("columnheader", { name: "Отчетный год" })).toBeTruthy();
});

/** The company's projects as the server keeps them (the first the newest): lists by archive flag,
 *  search and page; creates; patches at the version held, refusing an older one with 409. */
function projectsServer(api: ContractApi, names: string[]) {
  const stored: Project[] = names.map((name, n) => project({ id: `project-${n + 1}`, name }));
  return noProjects(api)
    .on("listProjects", ({ query }) => {
      const deleted = query.get("is_deleted") === "true";
      const search = (query.get("search") ?? "").toLowerCase();
      const matching = stored.filter((p) => p.is_deleted === deleted && p.name.toLowerCase().includes(search));
      const offset = Number(query.get("offset") ?? 0);
      return { results: matching.slice(offset, offset + Number(query.get("limit") ?? 10)), count: matching.length };
    })
    .on("createProject", ({ body }) => {
      const { name, start_date, end_date } = body as Project;
      const made = project({
        id: `project-${stored.length + 1}`,
        name,
        start_date,
        end_date,
        reporting_year: Number(end_date.slice(0, 4)),
      });
      stored.unshift(made);
      return made;
    })
    .on("patchProject", ({ params, body }) => {
      const { version, ...changes } = body as Partial<Project>;
      const found = stored.find((p) => p.id === params.id)!;
      if (version !== found.version) return failure(409, "Проект был изменен другим пользователем. Обновите страницу и повторите.");
      Object.assign(found, changes, { version: found.version + 1 });
      return found;
    });
}

const rowOf = async (text: string) => (await screen.findByText(text)).closest<HTMLElement>(".ant-table-row")!;
const tableRows = () => document.querySelectorAll(".ant-table-row");
/** The button `name` in `scope`, its icon's label beside its text or not. */
const buttonIn = (scope: HTMLElement, name: string) => within(scope).getByRole("button", { name: new RegExp(`${name}$`) });
/** Replaces a field's text at once (the name's keys are not what these tests check). */
async function replaceText(field: HTMLElement, text: string) {
  await app.user.clear(field);
  await app.user.paste(text);
}

// Moved from tests/e2e/web-projects.test.ts.
it("opens the empty project list from the landing page and creates a project there", async () => {
  app = openApp("/", (api) => projectsServer(api, []));
  await app.user.click(await screen.findByRole("button", { name: "Начать работу" }));
  await screen.findByText("Проектов пока нет");
  expect(window.location.pathname).toBe("/projects");
  const add = (await screen.findByText("Добавить проект")).closest("button")!;
  await waitFor(() => expect(add.disabled).toBe(false));
  await app.user.click(add);
  const dialog = within(await screen.findByRole("dialog"));
  await app.user.click(dialog.getByLabelText("Название"));
  await app.user.paste("Шахта Северная");
  // ДД.ММ.ГГГГ as Russian documents write dates; the field shows what it read the same way.
  await typeDate(dialog.getByLabelText("Дата начала"), "01.03.2024");
  await typeDate(dialog.getByLabelText("Дата окончания"), "31.12.2024");
  expect((dialog.getByLabelText("Дата окончания") as HTMLInputElement).value).toBe("31.12.2024");
  await app.user.click(dialog.getByRole("button", { name: "Создать" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  // The confirmation, shown by the message host.
  await screen.findByText("Проект создан");
  const cells = [...(await rowOf("Шахта Северная")).querySelectorAll("td")].map((cell) => cell.textContent);
  expect(cells.slice(0, 3)).toEqual(["Шахта Северная", "01.03.2024", "31.12.2024"]);
  expect(cells[3]).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
  expect(app.api.calls("createProject").map((call) => call.body)).toEqual([
    expect.objectContaining({ name: "Шахта Северная", start_date: "2024-03-01", end_date: "2024-12-31" }),
  ]);
});

// Moved from tests/e2e/web-projects.test.ts.
it("edits a project, cutting a long name to 25 characters, and refuses to save over a newer version", async () => {
  let server!: ContractApi;
  app = openPage({ path: "/projects", page: <ProjectsPage /> }, (api) => (server = projectsServer(api, ["Шахта Северная"])));
  await app.user.click(buttonIn(await rowOf("Шахта Северная"), "Редактировать"));
  const dialog = within(await screen.findByRole("dialog"));
  await dialog.findByText("Редактирование проекта");
  const name = () => dialog.getByLabelText("Название") as HTMLInputElement;
  expect(name().value).toBe("Шахта Северная");
  await replaceText(name(), "Разрез Восточный, участок номер 2");
  await app.user.click(dialog.getByRole("button", { name: "Сохранить" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  await rowOf("Разрез Восточный, участок…");

  // Opened again, the project is saved by someone else first (same version number we hold): the dialog says so.
  await app.user.click(buttonIn(await rowOf("Разрез Восточный, участок…"), "Редактировать"));
  const again = within(await screen.findByRole("dialog"));
  await again.findByText("Редактирование проекта");
  const [held] = server.calls("patchProject").map((call) => call.body as { version: number });
  expect(held.version).toBe(1);
  const patch = await fetch(`/api/v1/projects/project-1/`, {
    method: "PATCH",
    body: JSON.stringify({ end_date: "2025-06-30", version: 2 }),
  });
  expect(patch.status).toBe(200);
  const field = again.getByLabelText("Название") as HTMLInputElement;
  await replaceText(field, "Разрез Восточный (мой вариант)");
  await app.user.click(again.getByRole("button", { name: "Сохранить" }));
  await waitFor(() => expect(again.getByRole("alert").textContent).toContain("изменен другим пользователем"));
  await app.user.click(again.getByRole("button", { name: "Отмена" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  // The list was reloaded and shows the other user's change, not ours.
  await rowOf("30.06.2025");
  expect(screen.queryByText(/мой вариант/)).toBeNull();
});

// Moved from tests/e2e/web-projects.test.ts.
it("archives a project after confirmation, lists it in the archive and restores it", async () => {
  app = openPage({ path: "/projects", page: <ProjectsPage /> }, (api) => projectsServer(api, ["Разрез Восточный"]));
  await app.user.click(buttonIn(await rowOf("Разрез Восточный"), "В архив"));
  await screen.findByText("Переместить проект в архив?");
  await app.user.click(screen.getByRole("button", { name: "Переместить" }));
  await screen.findByText("Проектов пока нет");
  await app.user.click(screen.getByText("Архив", { exact: true }));
  await app.user.click(buttonIn(await rowOf("Разрез Восточный"), "Восстановить"));
  await screen.findByText("В архиве нет проектов");
  await app.user.click(screen.getByText("Активные", { exact: true }));
  await rowOf("Разрез Восточный");
  expect(app.api.calls("patchProject").map((call) => call.body)).toEqual([
    { is_deleted: true, is_active: false, version: 1 },
    { is_deleted: false, is_active: true, version: 2 },
  ]);
});

// Moved from tests/e2e/web-projects.test.ts.
it("pages through more than 10 projects with limit and offset", async () => {
  // «Участок 11» … «Участок 01» and «Разрез Восточный», the first the newest.
  const twelve = [...Array.from({ length: 11 }, (_, n) => `Участок ${String(11 - n).padStart(2, "0")}`), "Разрез Восточный"];
  app = openPage(tableAlone, (api) => projectsServer(api, twelve));
  await rowOf("Участок 11");
  expect(tableRows()).toHaveLength(10);
  await app.user.click(document.querySelector(".ant-pagination-item-2")!);
  await rowOf("Разрез Восточный");
  expect(tableRows()).toHaveLength(2);
  await app.user.click(document.querySelector(".ant-pagination-item-1")!);
  await rowOf("Участок 11");
  expect(app.api.calls("listProjects").map((call) => [call.query.get("limit"), call.query.get("offset")])).toEqual([
    ["10", "0"],
    ["10", "10"],
  ]);
});
