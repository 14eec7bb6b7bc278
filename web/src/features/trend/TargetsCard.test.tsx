// @vitest-environment happy-dom
// «Динамика» › «Цели»: the reduction is typed key by key as it reads — no «30»
// prefilled for a click and «30» to make «3030» — and one over 100 % is said so under the field and
// not sent (it was cut to 100 and saved as −100 %); a target is deleted only once confirmed.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { TrendSettings } from "./api";
import { signedInUser } from "../../testing/fixtures";
import { closeApp, openPart, setField, type OpenApp } from "../../testing/render-app";
import { TargetsCard } from "./TrendSettingsCards";

let app: OpenApp;
afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const TARGET: TrendSettings["targets"][number] = {
  id: "target-1",
  name: "Метан −20 %",
  gas: "CH4",
  scope: "company",
  facility: null,
  kind: "absolute",
  base_year: 2024,
  target_year: 2030,
  percent: 20,
  created_at: "2026-01-10T03:00:00.000Z",
  created_by: "user@example.com",
  progress: { note: "Нет данных базового года" },
} as TrendSettings["targets"][number];

function settings(targets: TrendSettings["targets"]): TrendSettings {
  return { base_year: null, significance_pct: 5, targets, version: 3, base_year_check: null } as TrendSettings;
}

function open(targets: TrendSettings["targets"] = []) {
  app = openPart(<TargetsCard settings={settings(targets)} facilities={[]} />, (api) =>
    api
      .on("getMe", signedInUser())
      .on("inventoryAddTarget", settings([TARGET]))
      .on("inventoryRemoveTarget", settings([])),
  );
  return app;
}

const card = () => within(screen.getByTestId("targets"));
const problem = () => document.querySelector(".numeric-input-problem")?.textContent ?? null;

async function fill(percent: string) {
  const { user } = app;
  // The name and the years are set at once: the reduction's typing is what these tests check.
  await setField(user, card().getByPlaceholderText("Название цели"), "Метан −20 %");
  await setField(user, card().getByLabelText("Базовый год цели"), "2024");
  await setField(user, card().getByLabelText("Год цели"), "2030");
  const field = card().getByLabelText("Снижение") as HTMLInputElement;
  await user.click(field);
  await user.type(field, percent);
  return field;
}

describe("a reduction target", () => {
  it("starts empty, so «30» typed after a click is 30 and is sent as 30", async () => {
    open();
    const field = await fill("30");
    expect(field.value).toBe("30");
    await app.user.click(card().getByRole("button", { name: "Добавить цель" }));
    await waitFor(() => expect(app.api.calls("inventoryAddTarget")).toHaveLength(1));
    expect(app.api.calls("inventoryAddTarget")[0].body).toMatchObject({ name: "Метан −20 %", percent: 30, base_year: 2024, version: 3 });
  });

  it("says a reduction over 100 % or a letter is refused, under the field, and sends nothing", async () => {
    open();
    const field = await fill("150");
    expect(field.value).toBe("150");
    await app.user.click(card().getByRole("button", { name: "Добавить цель" }));
    await card().findByText("Снижение — больше 0 и не более 100 %");
    await app.user.clear(field);
    await app.user.type(field, "2о");
    expect(problem()).toBe("Введите число, например 845,5");
    await app.user.click(card().getByRole("button", { name: "Добавить цель" }));
    await app.user.clear(field);
    await app.user.type(field, "12,5");
    expect(problem()).toBeNull();
    expect(app.api.calls("inventoryAddTarget")).toEqual([]);
    await app.user.click(card().getByRole("button", { name: "Добавить цель" }));
    await waitFor(() => expect(app.api.calls("inventoryAddTarget")).toHaveLength(1));
    expect(app.api.calls("inventoryAddTarget")[0].body).toMatchObject({ percent: 12.5 });
  });

  it("is deleted only once the question is answered «Удалить»", async () => {
    open([TARGET]);
    await app.user.click(card().getByRole("button", { name: "Удалить цель Метан −20 %" }));
    const question = await screen.findByText("Удалить цель «Метан −20 %»?");
    expect(app.api.calls("inventoryRemoveTarget")).toEqual([]);
    const popup = question.closest<HTMLElement>(".ant-popover")!;
    await app.user.click(within(popup).getByRole("button", { name: "Отмена" }));
    expect(app.api.calls("inventoryRemoveTarget")).toEqual([]);
    await app.user.click(card().getByRole("button", { name: "Удалить цель Метан −20 %" }));
    await app.user.click(
      within((await screen.findByText("Удалить цель «Метан −20 %»?")).closest<HTMLElement>(".ant-popover")!).getByRole("button", {
        name: "Удалить",
      }),
    );
    await waitFor(() => expect(app.api.calls("inventoryRemoveTarget")).toHaveLength(1));
  });
});
