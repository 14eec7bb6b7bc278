// @vitest-environment happy-dom
// The calculations list of one type (docs/user-guide.md): no «Редактировать» for the technology
// recommendation (recycle_technology), a long name cut to 50 characters with the whole name in a
// tooltip.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import { REGISTRY } from "@core/registry";
import type { CalculationView } from "@server/contract";
import CalculationsPage from "../../app/CalculationsRoute";
import { project, referenceDictionary, signedInUser, storedCalculation } from "../../testing/fixtures";
import { closeApp, openPage, type OpenApp } from "../../testing/render-app";

const PROJECT = project();

let app: OpenApp;

beforeAll(async () => {
  await Promise.all([import("./CalculationsWorkspace"), import("./CalculationsTable")]);
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

/** The list of `type` (none: no type chosen) holding `stored`. */
function openList(type: string | null, stored: CalculationView[]) {
  const page = {
    path: `/projects/${PROJECT.id}/calculations${type ? `?type=${type}` : ""}`,
    route: "/projects/:projectId/calculations",
    page: <CalculationsPage />,
  };
  app = openPage(page, (api) =>
    api
      .on("getMe", signedInUser())
      .on("getProject", PROJECT)
      .on("getDictionary", ({ params }) => referenceDictionary(params.name))
      .on("listCalculations", () => ({ results: stored, count: stored.length })),
  );
}

const rowOf = async (text: string) => (await screen.findByText(text)).closest<HTMLElement>(".ant-table-row")!;

// Moved from tests/e2e/web-calculations.test.ts.
it("hides edit for recycle_technology only", async () => {
  const body = { name: "Утилизация: 60 % при 40 м³/мин", project: PROJECT.id, metan: 60, a_metan: 40 };
  openList("recycle_technology", [storedCalculation("recycle_technology", body, { technology: "Мини-ТЭС на шахтном метане" })]);
  const row = await rowOf("Утилизация: 60 % при 40 м³/мин");
  expect(within(row).queryByRole("button", { name: "Редактировать" })).toBeNull();
  expect(within(row).getByRole("button", { name: "В архив" })).toBeTruthy();

  closeApp();
  const torch = { name: "Факел", project: PROJECT.id, volume: 1, koef_transform: 0.67 };
  openList("torch_ch4", [storedCalculation("torch_ch4", torch, { res_ch4: 0.0134, res_ch4_to_co2: 0.335 })]);
  expect(within(await rowOf("Факел")).getByRole("button", { name: "Редактировать" })).toBeTruthy();
});

it("cuts a long name to 50 characters with the full name in a tooltip", async () => {
  const long = "Очень длинное название расчета для проверки обрезки до пятидесяти символов";
  const body = { name: long, project: PROJECT.id, volume: 1, koef_transform: 0.67 };
  openList("torch_ch4", [storedCalculation("torch_ch4", body, { res_ch4: 0.0134, res_ch4_to_co2: 0.335 })]);
  const short = `${Array.from(long).slice(0, 50).join("")}…`;
  await app.user.hover(await screen.findByText(short));
  await waitFor(() => expect(screen.getByRole("tooltip").textContent).toContain(long));
});

// Moved from tests/e2e/web-calculations.test.ts and tests/e2e/web-forecast-series.test.ts (the same
// list checked in both).
it("offers every registry type by its title and shows «Список расчетов пуст» for one", async () => {
  openList(null, []);
  await screen.findByText("Выберите тип расчета, чтобы увидеть список и добавить расчет");
  expect(screen.queryByText("Добавить расчет")).toBeNull();
  await app.user.click(await screen.findByLabelText("Тип расчета"));
  const titles = await waitFor(() => {
    const found = [...document.querySelectorAll(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")];
    if (found.length === 0) throw new Error("the type list is not open");
    return found.map((option) => option.getAttribute("title"));
  });
  // D22: flaring by composition (Order 371) is offered before the IPCC flare types.
  const offered: (keyof typeof REGISTRY)[] = (Object.keys(REGISTRY) as (keyof typeof REGISTRY)[]).filter((t) => t !== "torch_composition");
  offered.splice(offered.indexOf("disposal_co2_torch"), 0, "torch_composition");
  // D18: «Все типы» first, listing the project's calculations of every type.
  expect(titles).toEqual(["Все типы", ...offered.map((t) => REGISTRY[t].title)]);
  const option = [...document.querySelectorAll<HTMLElement>(".ant-select-item-option")].find(
    (el) => el.getAttribute("title") === REGISTRY.underground_emission_ch4.title,
  )!;
  await app.user.click(option);
  await screen.findByText("Список расчетов пуст");
  expect(screen.getByText("Добавить расчет")).toBeTruthy();
});
