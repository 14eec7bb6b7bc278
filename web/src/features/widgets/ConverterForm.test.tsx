// @vitest-environment happy-dom
// The converter as a Russian user types into it: «1000» m³ CH4 is «0,6680» t, «845,5»
// with a decimal comma is «0,5648» t, the density in the conditions list is written the same way, a
// minus gets its message and no result; with the decimals setting at 3 the answer is «0,668».
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import { referenceDictionary, signedInUser } from "../../testing/fixtures";
import { closeApp, openPage, type OpenApp } from "../../testing/render-app";
import WidgetsPage from "./WidgetsPage";

let app: OpenApp;

beforeAll(async () => {
  await Promise.all([import("./ConverterForm")]);
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

/** /widgets; `held`: the CO2 densities' dictionary answers once it settles. */
function openConverter(held?: Promise<void>) {
  app = openPage({ path: "/widgets", page: <WidgetsPage /> }, (api) =>
    api.on("getMe", signedInUser()).on("getDictionary", async ({ params }) => {
      if (held && params.name === "get_coeff_co2_density") await held;
      return referenceDictionary(params.name);
    }),
  );
}

/** Opens the select `id` and chooses the option that starts with `option`. */
async function choose(id: string, option: string) {
  await app.user.click(document.getElementById(id)!);
  const item = await waitFor(() => {
    const open = document.querySelectorAll(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option");
    const found = [...open].find((el) => el.textContent?.startsWith(option));
    if (!found) throw new Error(`no option «${option}» in ${id}`);
    return found as HTMLElement;
  });
  await app.user.click(item);
}

const problem = () => document.querySelector(".numeric-input-problem")?.textContent ?? null;

const byId = async (id: string) => {
  await screen.findByLabelText("Количество газа");
  return document.getElementById(id) as HTMLInputElement;
};

it("converts with a decimal comma and answers in the Russian format: 1000 m³ CH4 → 0,6680 t", async () => {
  openConverter();
  const quantity = await byId("converter-quantity");
  const result = await byId("converter-result");
  await app.user.type(quantity, "1000");
  await waitFor(() => expect(result.value).toBe("0,6680"));
  await app.user.clear(quantity);
  await app.user.type(quantity, "845,5");
  await waitFor(() => expect(result.value).toBe("0,5648"));
  // The density in the conditions list is written the same way.
  const conditions = document.getElementById("converter-conditions")!.closest(".ant-select")!;
  expect(conditions.textContent).toContain("0,668 кг/м³");
  await app.user.clear(quantity);
  await app.user.type(quantity, "-1");
  expect(document.querySelector(".numeric-input-problem")?.textContent).toBe("Значение не может быть отрицательным");
  expect(result.value).toBe("");
});

it("rounds by the saved decimals setting, still the Russian way: 3 → 0,668", async () => {
  localStorage.setItem("comma", "3");
  openConverter();
  const quantity = await byId("converter-quantity");
  await app.user.type(quantity, "1000");
  await waitFor(async () => expect((await byId("converter-result")).value).toBe("0,668"));
});

// Moved from tests/e2e/web-reference.test.ts: the converter's form behaviour needs no real browser.
it("shows «Loading ...» in the converter while its dictionary loads", async () => {
  let release!: () => void;
  openConverter(new Promise<void>((resolve) => (release = resolve)));
  await screen.findByRole("heading", { name: "Виджеты" });
  const card = (await screen.findByText("Конвертер")).closest<HTMLElement>(".ant-card")!;
  await within(card).findByText("Loading ...");
  release();
  await screen.findByLabelText("Количество газа");
});

it("converts 1000 m³ of CH4 at 20 °C to 0,6680 t, and of CO2 to 1,8393 t; at 0 °C 1,9768 and 0,7170", async () => {
  openConverter();
  const quantity = await byId("converter-quantity");
  const result = await byId("converter-result");
  expect(document.getElementById("converter-kind")!.closest(".ant-select")!.textContent).toContain("CH4 и CO2 из м³ в тонны");
  expect(screen.getByLabelText<HTMLInputElement>("CH4", { exact: true }).checked).toBe(true);
  expect(document.getElementById("converter-conditions")!.closest(".ant-select")!.textContent).toContain("20 °C");
  await app.user.type(quantity, "1000");
  await waitFor(() => expect(result.value).toBe("0,6680"));
  await app.user.click(screen.getByLabelText("CO2", { exact: true }));
  await waitFor(() => expect(result.value).toBe("1,8393"));
  await choose("converter-conditions", "0 °C, 101,325 кПа (нормальные условия)");
  await waitFor(() => expect(result.value).toBe("1,9768"));
  await app.user.click(screen.getByLabelText("CH4", { exact: true }));
  await waitFor(() => expect(result.value).toBe("0,7170"));
});

it("keeps what is typed and says why it is no quantity: letters, a minus, decimals past the setting", async () => {
  openConverter();
  const quantity = await byId("converter-quantity");
  const result = await byId("converter-result");
  await choose("converter-conditions", "0 °C, 101,325 кПа (нормальные условия)");
  await app.user.type(quantity, "1000");
  await waitFor(() => expect(result.value).toBe("0,7170"));
  await app.user.type(quantity, "abc");
  expect(quantity.value).toBe("1000abc");
  await waitFor(() => expect(problem()).toBe("Введите число, например 845,5"));
  expect(result.value).toBe("");
  await app.user.clear(quantity);
  await app.user.paste("-1000");
  await waitFor(() => expect(problem()).toBe("Значение не может быть отрицательным"));
  await app.user.clear(quantity);
  await app.user.paste("1000,12345");
  await waitFor(() => expect(problem()).toBe("Не больше 4 знаков после запятой"));
  await app.user.clear(quantity);
  await app.user.type(quantity, "1000,5");
  await waitFor(() => expect(problem()).toBeNull());
  await waitFor(() => expect(result.value).toBe("0,7174"));
});

it("clears the result when the quantity is cleared", async () => {
  openConverter();
  const quantity = await byId("converter-quantity");
  const result = await byId("converter-result");
  await app.user.type(quantity, "1000,5");
  await waitFor(() => expect(result.value).toBe("0,6683"));
  await app.user.clear(quantity);
  await waitFor(() => expect(result.value).toBe(""));
});

it("converts 1000 L of winter diesel to 0,84 t, the summer one preselected", async () => {
  openConverter();
  await byId("converter-quantity");
  await choose("converter-kind", "Топливо из литров в тонны через плотность");
  await waitFor(() =>
    expect(document.getElementById("converter-fuel")?.closest(".ant-select")?.textContent).toContain(
      "Дизельное топливо летнее — ρ 0,86 кг/л",
    ),
  );
  await choose("converter-fuel", "Дизельное топливо зимнее");
  const quantity = document.getElementById("converter-quantity") as HTMLInputElement;
  const result = document.getElementById("converter-result") as HTMLInputElement;
  await app.user.type(quantity, "1000");
  await waitFor(() => expect(result.value).toBe("0,8400"));
  await app.user.type(quantity, ",5");
  await waitFor(() => expect(result.value).toBe("0,8404"));
});

it("rounds by the decimals setting at 2: 1000,129 is refused, 1000,12 → 0,67, of CO2 1,84", async () => {
  localStorage.setItem("comma", "2");
  openConverter();
  const quantity = await byId("converter-quantity");
  const result = await byId("converter-result");
  await app.user.type(quantity, "1000,129");
  await waitFor(() => expect(problem()).toBe("Не больше 2 знаков после запятой"));
  expect(result.value).toBe("");
  await app.user.type(quantity, "{Backspace}");
  await waitFor(() => expect(result.value).toBe("0,67"));
  await app.user.click(screen.getByLabelText("CO2", { exact: true }));
  await waitFor(() => expect(result.value).toBe("1,84"));
});
