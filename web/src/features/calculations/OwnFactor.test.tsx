// @vitest-environment happy-dom
// The mine's own factor in the calculation dialog (methodology D107): a value typed as «Фактическое
// значение» with its own uncertainty and justification is offered to be kept («Сохранить как
// собственный коэффициент шахты», sent as POST v1/company/factors/); a kept one is offered in the next
// calculation, which takes its value, uncertainty and justification as they were kept and sends them, so
// the server groups it with the calculations that typed the same. The browser's look of both is
// tests/e2e/web-own-factors.test.ts.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import { loadEmissions, type EmissionsCore } from "@core/emissions-browser";
import { project, referenceDictionary, storedCalculation } from "../../testing/fixtures";
import type { ContractApi } from "../../testing/contract-api";
import { closeApp, type OpenApp } from "../../testing/render-app";
import { openCalculationDialog, openNewCalculation } from "../../testing/calculation-dialog";

const TYPE = "underground_emission_ch4";
const PROJECT = project();
const WHY = "Газоносность пласта по пластовым испытаниям 2024 г., протокол № 5";
const KEPT = {
  id: "0193a3f0-0000-7000-8000-000000000001",
  type: TYPE,
  type_label: "Подземная добыча: CH4",
  field: "ef",
  field_label: "Коэффициент выбросов CH4 при подземной добыче",
  value: 19.85,
  unit: "м³/т",
  uncertainty: { lower_pct: 10, upper_pct: 10, distribution: "normal" as const },
  justification: WHY,
  created_at: "2026-11-20T09:00:00.000Z",
  created_by: "engineer@mine.example",
  created_by_name: "Ирина Петрова",
};

let core: EmissionsCore;
let app: OpenApp;

beforeAll(async () => {
  core = await loadEmissions();
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const server = (kept: (typeof KEPT)[]) => (api: ContractApi) =>
  api
    .on("getProject", PROJECT)
    .on("getDictionary", ({ params }) => referenceDictionary(params.name))
    .on("listOwnFactors", () => ({ results: kept, count: kept.length }))
    .on("createOwnFactor", ({ body }) => {
      const entry = { ...KEPT, id: "0193a3f0-0000-7000-8000-000000000002", ...(body as object) };
      kept.unshift(entry as typeof KEPT);
      return entry;
    })
    .on("createCalculation", ({ body }) => {
      const sent = body as { name: string; project: string; volume: number; ef: number };
      const results = core.calculate(TYPE, { volume: sent.volume, ef: sent.ef }, { gwp_ch4: 25 }) as Record<string, number>;
      return storedCalculation(TYPE, { name: sent.name, project: sent.project, volume: sent.volume }, results);
    });

/** «Новый расчет» with «Фактическое значение» chosen for the CH4 factor; the dialog and the factor's form item. */
async function typedFactor() {
  await openNewCalculation();
  const dialogElement = (await screen.findByText("Новый расчет", { selector: ".ant-modal-title" })).closest<HTMLElement>("[role=dialog]")!;
  const dialog = within(dialogElement);
  await app.user.click(await dialog.findByLabelText("Название расчета"));
  await app.user.paste("Оценка по своей газоносности");
  await app.user.click(dialog.getByLabelText("Объём добычи угля подземным способом", { exact: true }));
  await app.user.paste("100000");
  await app.user.click(document.getElementById("calc-dictionary-get_underground_emission_ch4")!);
  const custom = await waitFor(() => {
    const found = [...document.querySelectorAll(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")].find(
      (el) => el.textContent?.includes("Фактическое значение"),
    );
    if (!found) throw new Error("no «Фактическое значение» option");
    return found as HTMLElement;
  });
  await app.user.click(custom);
  const ef = await waitFor(() => document.getElementById("calc-field-ef") as HTMLInputElement);
  return { dialogElement, dialog, ef, item: ef.closest<HTMLElement>(".ant-form-item")! };
}

it("offers to keep a value typed with its own uncertainty and justification, and sends it as the mine's own", async () => {
  const kept: (typeof KEPT)[] = [];
  app = openCalculationDialog(TYPE, PROJECT.id, server(kept));
  const { dialog, ef, item } = await typedFactor();
  const keep = () => within(item).getByRole("button", { name: "Сохранить как собственный коэффициент шахты" });
  await waitFor(() => expect(keep()).toBeTruthy());
  // Nothing to keep yet: the button says what is missing.
  expect(keep().hasAttribute("disabled")).toBe(true);
  await app.user.clear(ef);
  await app.user.type(ef, "19,85");
  expect(item.textContent).toContain("Чтобы сохранить для следующих расчетов: введите обоснование");
  await app.user.click(dialog.getByLabelText("Обоснование: Коэффициент выбросов CH4 при подземной добыче"));
  await app.user.paste(WHY);
  expect(item.textContent).toContain("укажите свою неопределенность значения");
  await app.user.click(within(item).getByText("Своя неопределенность значения", { exact: false }));
  await app.user.type(document.getElementById("uncertainty-ef-lower")!, "10");
  await app.user.type(document.getElementById("uncertainty-ef-upper")!, "10");
  await waitFor(() => expect(keep().hasAttribute("disabled")).toBe(false));
  await app.user.click(keep());
  await waitFor(() => expect(item.textContent).toContain("Собственный коэффициент шахты: сохранен 20.11.2026"));
  expect(app.api.calls("createOwnFactor").map((c) => c.body)).toEqual([
    {
      type: TYPE,
      field: "ef",
      value: 19.85,
      unit: "м³/т",
      uncertainty: { lower_pct: 10, upper_pct: 10, distribution: "normal" },
      justification: WHY,
    },
  ]);
});

it("offers the kept entry to a new calculation, which takes its value, uncertainty and justification as kept", async () => {
  app = openCalculationDialog(TYPE, PROJECT.id, server([KEPT]));
  const { dialog, dialogElement, ef, item } = await typedFactor();
  const own = await waitFor(() => {
    const select = document.getElementById("calc-field-ef-own");
    if (!select) throw new Error("no own factors offered");
    return select;
  });
  expect(within(item).getByLabelText("Собственный коэффициент шахты: Коэффициент выбросов CH4 при подземной добыче")).toBe(own);
  await app.user.click(own);
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")].find(
      (el) => el.textContent?.includes(WHY),
    );
    if (!found) throw new Error("no kept entry in the list");
    return found as HTMLElement;
  });
  expect(option.textContent).toBe(`19,85 м³/т ±10 % — ${WHY} (20.11.2026)`);
  await app.user.click(option);
  await waitFor(() => expect(ef.value).toBe("19,85"));
  expect((dialog.getByLabelText("Обоснование: Коэффициент выбросов CH4 при подземной добыче") as HTMLTextAreaElement).value).toBe(WHY);
  expect((document.getElementById("uncertainty-ef-lower") as HTMLInputElement).value).toBe("10");
  // It is the kept entry now: no offer to keep it again.
  expect(item.textContent).toContain("Собственный коэффициент шахты: сохранен 20.11.2026, Ирина Петрова");
  expect(within(item).queryByRole("button", { name: "Сохранить как собственный коэффициент шахты" })).toBeNull();
  await app.user.click(dialog.getByText("Создать").closest("button")!);
  await waitFor(() => expect(dialogElement.isConnected).toBe(false));
  expect(app.api.calls("createCalculation").map((call) => call.body)).toEqual([
    expect.objectContaining({
      ef: 19.85,
      dictionary_items: expect.objectContaining({ get_underground_emission_ch4: null }),
      justifications: { ef: WHY },
      uncertainty: { ef: { lower_pct: 10, upper_pct: 10, distribution: "normal" } },
    }),
  ]);
});
