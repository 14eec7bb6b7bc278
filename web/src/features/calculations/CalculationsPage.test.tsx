// @vitest-environment happy-dom
// A project's calculations (docs/user-guide.md; methodology D19) against a stand-in server that keeps
// what is sent, per type: a project's row opens its calculations with no type chosen; the quarter
// chosen in the dialog is the calculation's period; editing brings the stored entries back and
// sends the new volume at the version held; a save over a newer version is refused and the dialog
// offers to load it again; archive and restore after a confirmation; 10 a page, page 1 again when
// the type changes. Moved from tests/e2e/web-calculations.test.ts: what the server computes and
// stores is tests/integration's, the preview equal to the stored result stays in the browser tier.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import { REGISTRY, type FormulaType } from "@core/registry";
import { loadEmissions, type EmissionsCore } from "@core/emissions-browser";
import type { CalculationView } from "@server/contract";
import { failure, type ContractApi } from "../../testing/contract-api";
import { project, referenceDictionary, signedInUser, storedCalculation } from "../../testing/fixtures";
import { closeApp, leftFor, openPage, setField, type OpenApp } from "../../testing/render-app";
import CalculationsPage from "../../app/CalculationsRoute";
import { ProjectsTable } from "../projects/ProjectsTable";

const PROJECT = project({ name: "Шахта Расчетная", start_date: "2024-01-01", end_date: "2024-12-31", reporting_year: 2024 });
const VOLUME = "Объём добычи угля подземным способом";
const CONFLICT = "Расчет был изменен другим пользователем. Обновите страницу и повторите.";

let core: EmissionsCore;
let app: OpenApp;

// The page's lazy chunks, loaded once before the tests.
beforeAll(async () => {
  [core] = await Promise.all([
    loadEmissions(),
    import("./CalculationsWorkspace"),
    import("./CalculationsTable"),
    import("./CalculationDialog"),
    import("./ResultsDialog"),
  ]);
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

/** The results the core computes for a body's inputs (the server's kernel is the same core). */
function resultsOf(type: FormulaType, body: Record<string, unknown>): Record<string, number | string> {
  const { name: _name, project: _project, period: _period, version: _version, ...inputs } = body;
  return core.calculate(type, inputs as Record<string, number>, { gwp_ch4: 25 }) as Record<string, number | string>;
}

/** A server keeping each type's calculations (the first the newest): lists by archive flag and page,
 *  creates, answers one, patches at the version held (409 otherwise). */
function calculationsServer(api: ContractApi, stored: CalculationView[]) {
  return api
    .on("getMe", signedInUser())
    .on("getProject", PROJECT)
    .on("getDictionary", ({ params }) => referenceDictionary(params.name))
    .on("listCalculations", ({ params, query }) => {
      const deleted = query.get("is_deleted") === "true";
      const matching = stored.filter((c) => c.type === params.type && c.is_deleted === deleted);
      const offset = Number(query.get("offset") ?? 0);
      return { results: matching.slice(offset, offset + Number(query.get("limit") ?? 10)), count: matching.length };
    })
    .on("singleCalculation", ({ params }) => stored.find((c) => c.id === params.id))
    .on("getCalculation", ({ params }) => stored.find((c) => c.id === params.id))
    .on("createCalculation", ({ params, body }) => {
      const sent = body as Record<string, unknown>;
      const type = params.type as FormulaType;
      const made = storedCalculation(type, sent, resultsOf(type, sent), { id: `calculation-${stored.length + 1}` });
      stored.unshift(made);
      return made;
    })
    .on("patchCalculation", ({ params, body }) => {
      const { version, ...changes } = body as Record<string, unknown>;
      const found = stored.find((c) => c.id === params.id)!;
      if (version !== found.version) return failure(409, CONFLICT);
      const inputs = { ...found, ...changes };
      const results = "volume" in changes ? resultsOf(params.type as FormulaType, { volume: inputs.volume, ef: inputs.ef }) : {};
      Object.assign(found, changes, results, { version: found.version + 1 });
      return found;
    });
}

function openCalculations(type: FormulaType | null, stored: CalculationView[] = []) {
  const page = {
    path: `/projects/${PROJECT.id}/calculations${type ? `?type=${type}` : ""}`,
    route: "/projects/:projectId/calculations",
    page: <CalculationsPage />,
  };
  app = openPage(page, (api) => calculationsServer(api, stored));
  return stored;
}

/** Underground mining at 18 m³/t, as the dialog stores it. */
function mining(name: string, volume: number, changes: Partial<CalculationView> = {}): CalculationView {
  const body = { name, project: PROJECT.id, volume, ef: 18 };
  return storedCalculation("underground_emission_ch4", body, resultsOf("underground_emission_ch4", body), changes);
}

const rowOf = async (text: string | RegExp) => (await screen.findByText(text)).closest<HTMLElement>(".ant-table-row")!;
const buttonIn = (scope: HTMLElement, name: string) => within(scope).getByRole("button", { name: new RegExp(`${name}$`) });
const button = (label: HTMLElement) => label.closest("button")!;
/** The open dialog titled `title`. */
const dialogTitled = async (title: string) =>
  (await screen.findByText(title, { selector: ".ant-modal-title, .ant-modal-title *" })).closest<HTMLElement>("[role=dialog]")!;
const closed = (dialog: HTMLElement) => waitFor(() => expect(dialog.isConnected).toBe(false));

/** Chooses `option` in the open antd Select list. */
async function pickOption(select: HTMLElement, option: string) {
  await app.user.click(select);
  const found = await waitFor(() => {
    const shown = [
      ...document.querySelectorAll<HTMLElement>(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option"),
    ];
    const match = shown.find((el) => el.getAttribute("title") === option || el.textContent === option);
    if (!match) throw new Error(`no option «${option}» open`);
    return match;
  });
  await app.user.click(found);
}

it("opens a project's calculations from its row, with no type chosen: no list, no add button", async () => {
  // The projects' table alone: its row is the way in.
  app = openPage({ path: "/projects", page: <ProjectsTable companyId={signedInUser().company.id} archived={false} /> }, (api) =>
    api
      .on("getMe", signedInUser())
      .on("listFacilities", [])
      .on("listProjects", { results: [PROJECT], count: 1 }),
  );
  await app.user.click((await rowOf(PROJECT.name)).querySelector("td")!);
  await waitFor(() => expect(leftFor()).toBe(`/projects/${PROJECT.id}/calculations`));
  closeApp();

  openCalculations(null);
  await screen.findByRole("heading", { name: `Расчеты — ${PROJECT.name}` });
  await screen.findByText("Выберите тип расчета, чтобы увидеть список и добавить расчет");
  expect(screen.queryByText("Добавить расчет")).toBeNull();
});

it("stores the quarter chosen in the dialog as the calculation's period and shows it in the results (D19)", async () => {
  const stored = openCalculations("handling_underground_ch4");
  await app.user.click(button(await screen.findByText("Добавить расчет")));
  const dialog = await dialogTitled("Новый расчет");
  const inside = within(dialog);
  await inside.findByText(REGISTRY.handling_underground_ch4.title, { exact: true });
  await app.user.click(inside.getByLabelText("Название расчета"));
  await app.user.paste("Обработка, 2 квартал");
  // The quarter is what this test checks: the volume is set at once.
  await setField(app.user, inside.getByLabelText(VOLUME), "250000");
  await app.user.click(inside.getByText("Квартал", { exact: true }));
  await pickOption(inside.getByLabelText("Квартал расчета"), "2 квартал 2024");
  await inside.findByText(/01\.04\.2024–30\.06\.2024/);
  await app.user.click(button(inside.getByText("Создать")));
  await closed(dialog);
  expect(stored.find((c) => c.name === "Обработка, 2 квартал")!.period).toEqual({ from: "2024-04-01", to: "2024-06-30" });

  await app.user.click(await screen.findByText("Обработка, 2 квартал"));
  const results = await dialogTitled("Обработка, 2 квартал");
  await within(results).findByTestId("results-dialog");
  await within(results).findByText("01.04.2024–30.06.2024", { exact: true });
  await app.user.click(within(results).getAllByRole("button", { name: /Закрыть/ })[0]);
  await closed(results);
});

it("edits a calculation: stored entries come back, a new volume gives a new stored result", async () => {
  const stored = openCalculations("underground_emission_ch4", [mining("Подземная добыча, 18 м³/т", 1_000_000)]);
  await app.user.click(buttonIn(await rowOf("Подземная добыча, 18 м³/т"), "Редактировать"));
  const dialog = await dialogTitled("Редактирование расчета");
  const inside = within(dialog);
  const volume = (await inside.findByLabelText(VOLUME)) as HTMLInputElement;
  await waitFor(() => expect(volume.value).toBe("1 000 000"));
  expect((inside.getByLabelText("Название расчета") as HTMLInputElement).value).toBe("Подземная добыча, 18 м³/т");
  await inside.findByText("Подземная добыча, среднее значение МГЭИК");
  await app.user.clear(volume);
  await app.user.paste("2000000");
  await waitFor(() => expect(inside.getByTestId("preview-res_ch4").textContent).toBe("24\u00a0120,00"));
  await app.user.click(button(inside.getByText("Сохранить")));
  await closed(dialog);
  await rowOf(/603\s000,00/);
  expect(app.api.calls("patchCalculation").map((call) => call.body)).toEqual([expect.objectContaining({ volume: 2_000_000, version: 1 })]);
  expect(stored[0]).toMatchObject({ volume: 2_000_000, res_ch4: 24120, version: 2 });
});

it("refuses to save over a newer version and offers to load it again", async () => {
  const stored = openCalculations("underground_emission_ch4", [mining("Подземная добыча", 2_000_000, { version: 2 })]);
  await app.user.click(buttonIn(await rowOf("Подземная добыча"), "Редактировать"));
  const dialog = await dialogTitled("Редактирование расчета");
  const inside = within(dialog);
  const volume = (await inside.findByLabelText(VOLUME)) as HTMLInputElement;
  await waitFor(() => expect(volume.value).toBe("2 000 000"));
  // A colleague saves first.
  Object.assign(stored[0], { name: "Изменено коллегой", version: 3 });
  await app.user.clear(volume);
  await app.user.paste("3000000");
  await app.user.click(button(inside.getByText("Сохранить")));
  await waitFor(() =>
    expect(inside.getAllByRole("alert").some((alert) => alert.textContent?.includes("изменен другим пользователем"))).toBe(true),
  );
  await app.user.click(button(inside.getByText("Загрузить заново")));
  await waitFor(() => expect((inside.getByLabelText("Название расчета") as HTMLInputElement).value).toBe("Изменено коллегой"));
  expect((inside.getByLabelText(VOLUME) as HTMLInputElement).value).toBe("2 000 000");
  await app.user.click(button(inside.getByText("Отмена")));
  await closed(dialog);
});

it("archives a calculation after confirmation, lists it in the archive and restores it", async () => {
  const stored = openCalculations("underground_emission_ch4", [mining("Изменено коллегой", 2_000_000)]);
  const archive = async () => {
    await app.user.click(buttonIn(await rowOf("Изменено коллегой"), "В архив"));
    await screen.findByText("Переместить расчет в архив?");
    await app.user.click(screen.getByRole("button", { name: "Переместить" }));
    await screen.findByText("Список расчетов пуст");
  };
  await archive();
  await app.user.click(screen.getByText("Архив", { exact: true }));
  await app.user.click(buttonIn(await rowOf("Изменено коллегой"), "Восстановить"));
  await screen.findByText("В архиве нет расчетов");
  await app.user.click(screen.getByText("Активные", { exact: true }));
  await rowOf("Изменено коллегой");
  // Archived for good: the type shows the empty list again.
  await archive();
  expect(stored.filter((c) => c.is_deleted)).toHaveLength(1);
});

it("pages 10 a page and goes back to page 1 when the type changes", async () => {
  const trucks = Array.from({ length: 11 }, (_, n) => {
    const name = n === 10 ? "Карьерная техника: бензин" : `Самосвал ${String(10 - n).padStart(2, "0")}`;
    const body = { name, project: PROJECT.id, volume: n + 1, ef: 3.149 };
    return storedCalculation("open_mining_co2", body, { res_co2: (n + 1) * 3.149 }, { id: `truck-${n}` });
  });
  const torch = storedCalculation(
    "torch_ch4",
    { name: "Факел: несгоревший метан", project: PROJECT.id, volume: 1000, koef_transform: 0.67 },
    { res_ch4: 13.4, res_ch4_to_co2: 375.2 },
    { id: "torch-1" },
  );
  openCalculations("open_mining_co2", [...trucks, torch]);
  await rowOf("Самосвал 10");
  expect(document.querySelectorAll(".ant-table-row")).toHaveLength(10);
  await app.user.click(document.querySelector(".ant-pagination-item-2")!);
  await rowOf("Карьерная техника: бензин");
  expect(document.querySelectorAll(".ant-table-row")).toHaveLength(1);
  await pickOption(screen.getByLabelText("Тип расчета"), REGISTRY.torch_ch4.title);
  await rowOf("Факел: несгоревший метан");
  await pickOption(screen.getByLabelText("Тип расчета"), REGISTRY.open_mining_co2.title);
  await rowOf("Самосвал 10");
  expect(document.querySelector(".ant-pagination-item-active")!.textContent).toBe("1");
});
