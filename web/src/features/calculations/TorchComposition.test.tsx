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
