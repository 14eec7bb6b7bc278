// @vitest-environment jsdom
// The converter as a Russian user types into it (issue 14): «1000» m³ CH4 is «0,6680» t, «845,5»
// with a decimal comma is «0,5648» t, the density in the conditions list is written the same way, a
// minus gets its message and no result; with the decimals setting at 3 the answer is «0,668».
import { screen, waitFor } from "@testing-library/react";
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

function openConverter() {
  app = openPage({ path: "/widgets", page: <WidgetsPage /> }, (api) =>
    api.on("getMe", signedInUser()).on("getDictionary", ({ params }) => referenceDictionary(params.name)),
  );
}

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
