// @vitest-environment happy-dom
// Flaring by composition (torch_composition; D11, Order 371 formulas 2.2 and 2.4): contents above
// 100 % vol are impossible, and the dialog says so under its preview, naming the fields. The dialog
// is rendered alone, as «Добавить расчет» opens it.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { REGISTRY, type CalculationType } from "@core/registry";
import { project, referenceDictionary } from "../../testing/fixtures";
import { closeApp, setField, type OpenApp } from "../../testing/render-app";
import { openCalculationDialog, openNewCalculation } from "../../testing/calculation-dialog";

const TYPE = "torch_composition";
const PROJECT = project();

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const labelOf = (name: string) => REGISTRY[TYPE].inputs.find((field) => field.name === name)!.label;

/** «Новый расчет» of `type` in the project, its form shown. */
async function newCalculation(type: CalculationType) {
  app = openCalculationDialog(type, PROJECT.id, (api) =>
    api.on("getProject", PROJECT).on("getDictionary", ({ params }) => referenceDictionary(params.name)),
  );
  await openNewCalculation();
  const title = await screen.findByText("Новый расчет", { selector: ".ant-modal-title" });
  const dialog = within(title.closest<HTMLElement>("[role=dialog]")!);
  await dialog.findByText(REGISTRY[type].title, { exact: true });
  return dialog;
}

// Moved from tests/e2e/web-torch-composition.test.ts.
it("says under the preview that contents above 100 % vol are impossible, naming the fields", async () => {
  const dialog = await newCalculation(TYPE);
  // The volume and the CH4 content set at once; the CO2 content that takes the sum past 100 % typed.
  await setField(app.user, dialog.getByLabelText(labelOf("volume"), { exact: true }), "10");
  await setField(app.user, dialog.getByLabelText(labelOf("w_ch4"), { exact: true }), "90");
  await app.user.type(dialog.getByLabelText(labelOf("w_co2"), { exact: true }), "15,5");
  await waitFor(() =>
    expect(
      dialog.getAllByText(/Сумма содержаний компонентов \(«Содержание CH4 в смеси» \+ «Содержание CO2 в смеси»/).length,
    ).toBeGreaterThan(0),
  );
});

// the boiler's fuel «Каптированный шахтный метан (100 % CH4)» asks its contents
// only as what they are, optional, and says the gas is otherwise taken as 100 % CH4.
it("asks a boiler's drained mine gas for its contents as optional, saying it is otherwise 100 % CH4", async () => {
  const BOILER = "disposal_co2_stat_sources";
  const dialog = await newCalculation(BOILER);
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
