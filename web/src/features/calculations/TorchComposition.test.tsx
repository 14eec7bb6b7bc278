// @vitest-environment happy-dom
// Flaring by composition (torch_composition; D11, Order 371 formulas 2.2 and 2.4): contents above
// 100 % vol are impossible, and the dialog says so under its preview, naming the fields.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import { REGISTRY } from "@core/registry";
import CalculationsPage from "../../app/CalculationsRoute";
import { project, referenceDictionary, signedInUser } from "../../testing/fixtures";
import { closeApp, openPage, type OpenApp } from "../../testing/render-app";

const TYPE = "torch_composition";
const PROJECT = project();

let app: OpenApp;

beforeAll(async () => {
  await Promise.all([import("./CalculationsWorkspace"), import("./CalculationDialog")]);
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const labelOf = (name: string) => REGISTRY[TYPE].inputs.find((field) => field.name === name)!.label;

// Moved from tests/e2e/web-torch-composition.test.ts.
it("says under the preview that contents above 100 % vol are impossible, naming the fields", async () => {
  const page = {
    path: `/projects/${PROJECT.id}/calculations?type=${TYPE}`,
    route: "/projects/:projectId/calculations",
    page: <CalculationsPage />,
  };
  app = openPage(page, (api) =>
    api
      .on("getMe", signedInUser())
      .on("getProject", PROJECT)
      .on("getDictionary", ({ params }) => referenceDictionary(params.name))
      .on("listCalculations", { results: [], count: 0 }),
  );
  await app.user.click((await screen.findByText("Добавить расчет")).closest("button")!);
  const title = await screen.findByText("Новый расчет", { selector: ".ant-modal-title" });
  const dialog = within(title.closest<HTMLElement>("[role=dialog]")!);
  await dialog.findByText(REGISTRY[TYPE].title, { exact: true });
  await app.user.type(dialog.getByLabelText(labelOf("volume"), { exact: true }), "10");
  await app.user.type(dialog.getByLabelText(labelOf("w_ch4"), { exact: true }), "90");
  await app.user.type(dialog.getByLabelText(labelOf("w_co2"), { exact: true }), "15,5");
  await waitFor(() =>
    expect(
      dialog.getAllByText(/Сумма содержаний компонентов \(«Содержание CH4 в смеси» \+ «Содержание CO2 в смеси»/).length,
    ).toBeGreaterThan(0),
  );
});

// Issue 75, item 6: the boiler's fuel «Каптированный шахтный метан (100 % CH4)» asks its contents
// only as what they are, optional, and says the gas is otherwise taken as 100 % CH4.
it("asks a boiler's drained mine gas for its contents as optional, saying it is otherwise 100 % CH4", async () => {
  const BOILER = "disposal_co2_stat_sources";
  const page = {
    path: `/projects/${PROJECT.id}/calculations?type=${BOILER}`,
    route: "/projects/:projectId/calculations",
    page: <CalculationsPage />,
  };
  app = openPage(page, (api) =>
    api
      .on("getMe", signedInUser())
      .on("getProject", PROJECT)
      .on("getDictionary", ({ params }) => referenceDictionary(params.name))
      .on("listCalculations", { results: [], count: 0 }),
  );
  await app.user.click((await screen.findByText("Добавить расчет")).closest("button")!);
  const title = await screen.findByText("Новый расчет", { selector: ".ant-modal-title" });
  const dialog = within(title.closest<HTMLElement>("[role=dialog]")!);
  await dialog.findByText(REGISTRY[BOILER].title, { exact: true });
  const fuel = referenceDictionary("get_disposal_co2_stat_sources").results.find((e) => e.id === 8)!;
  expect(fuel.name).toMatch(/Каптированный шахтный метан \(100 % CH4\)/);
  const select = dialog
    .getAllByRole("combobox")
    .find((box) => box.closest(".ant-form-item")?.textContent?.includes("Стационарное сжигание"))!;
  await app.user.click(select);
  await app.user.click(await screen.findByTitle(fuel.name));
  const ch4 = await dialog.findByLabelText("Содержание CH4 в смеси", { exact: true });
  const item = ch4.closest<HTMLElement>(".ant-form-item")!;
  expect(item.textContent).toContain("Необязательно: без содержаний газ принят за 100 % CH4, как в названии топлива");
});
