// @vitest-environment happy-dom
// «Фактическое значение» of a coefficient (D10) in the calculation dialog: a value outside the
// plausible band is warned about under its field as it is typed, never refused, and sent with its
// justification. The server's flags for it are tests/integration/calculations.test.ts's («warns
// about a value outside the plausible band instead of refusing it»). The dialog is rendered alone, as
// «Добавить расчет» opens it.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import { loadEmissions, type EmissionsCore } from "@core/emissions-browser";
import { project, referenceDictionary, storedCalculation } from "../../testing/fixtures";
import { closeApp, setField, type OpenApp } from "../../testing/render-app";
import { openCalculationDialog, openNewCalculation } from "../../testing/calculation-dialog";

const TYPE = "underground_emission_ch4";
const PROJECT = project();

let core: EmissionsCore;
let app: OpenApp;

beforeAll(async () => {
  core = await loadEmissions();
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

// Moved from tests/e2e/web-custom-coefficients.test.ts.
it("warns under the field as 60 m³/t is typed (outside 5–50), and still saves it, flagged", async () => {
  app = openCalculationDialog(TYPE, PROJECT.id, (api) =>
    api
      .on("getProject", PROJECT)
      .on("getDictionary", ({ params }) => referenceDictionary(params.name))
      // D107: the mine has kept no own factor yet.
      .on("listOwnFactors", { results: [], count: 0 })
      .on("createCalculation", ({ body }) => {
        const sent = body as { name: string; project: string; volume: number; ef: number };
        const results = core.calculate(TYPE, { volume: sent.volume, ef: sent.ef }, { gwp_ch4: 25 }) as Record<string, number>;
        return storedCalculation(TYPE, { name: sent.name, project: sent.project, volume: sent.volume }, results);
      }),
  );
  const { user } = app;
  await openNewCalculation();
  const dialogElement = (await screen.findByText("Новый расчет", { selector: ".ant-modal-title" })).closest<HTMLElement>("[role=dialog]")!;
  const dialog = within(dialogElement);
  // The name, the volume and the justification are pasted: what is checked here is the coefficient,
  // typed key by key.
  await user.click(await dialog.findByLabelText("Название расчета"));
  await user.paste("Шахта: выбросоопасный пласт");
  await setField(user, dialog.getByLabelText("Объём добычи угля подземным способом", { exact: true }), "1000");
  await user.click(document.getElementById("calc-dictionary-get_underground_emission_ch4")!);
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")].find(
      (el) => el.textContent?.includes("Фактическое значение"),
    );
    if (!found) throw new Error("no «Фактическое значение» option");
    return found as HTMLElement;
  });
  await user.click(option);
  const ef = await waitFor(() => {
    const input = document.getElementById("calc-field-ef") as HTMLInputElement | null;
    if (!input) throw new Error("no ef field");
    return input;
  });
  const item = ef.closest<HTMLElement>(".ant-form-item")!;
  const preview = () => within(dialogElement).queryByTestId("preview-res_ch4")?.textContent ?? "";
  await user.clear(ef);
  await user.type(ef, "14,3");
  await waitFor(() => expect(preview()).toContain("9,58"));
  // «1» on the way to «14,3» is outside the band for a moment; 14,3 itself is inside.
  expect(item.textContent).not.toContain("вне правдоподобного диапазона");
  await user.clear(ef);
  await user.type(ef, "60");
  await waitFor(() => expect(item.textContent).toContain("Значение вне правдоподобного диапазона (5–50 м³/т)"));
  expect(item.classList.contains("ant-form-item-has-warning")).toBe(true);
  await user.click(dialog.getByLabelText("Обоснование: Коэффициент выбросов CH4 при подземной добыче"));
  await user.paste("Выбросоопасный пласт");
  await waitFor(() => expect(preview()).toContain("40,20"));
  await user.click(dialog.getByText("Создать").closest("button")!);
  await waitFor(() => expect(dialogElement.isConnected).toBe(false));
  expect(app.api.calls("createCalculation").map((call) => call.body)).toEqual([
    expect.objectContaining({ name: "Шахта: выбросоопасный пласт", volume: 1000, ef: 60, justifications: { ef: "Выбросоопасный пласт" } }),
  ]);
});
