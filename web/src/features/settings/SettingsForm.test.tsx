// @vitest-environment happy-dom
// The decimals setting as the user types it: a value out of 0..4 or not an integer is
// refused with its message under the field and nothing is kept; «3» is saved and said so.
import { screen } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { noVideos, signedInUser } from "../../testing/fixtures";
import { closeApp, openPage, type OpenApp } from "../../testing/render-app";
import SettingsPage from "./SettingsPage";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

it("refuses 7 decimal places with a message and keeps the stored setting; saves 3", async () => {
  app = openPage({ path: "/settings", page: <SettingsPage /> }, (api) =>
    api.on("getMe", signedInUser()).on("listMedia", noVideos()).on("listWebhooks", []),
  );
  const { user } = app;
  const decimals = await screen.findByLabelText("Количество знаков после запятой");
  expect(decimals).toHaveProperty("value", "4");
  await user.clear(decimals);
  await user.type(decimals, "7");
  expect(await screen.findByText("Введите целое число от 0 до 4")).toBeTruthy();
  await user.click(screen.getByRole("button", { name: "Сохранить" }));
  expect(screen.queryByText("Настройки сохранены")).toBeNull();
  expect(localStorage.getItem("comma")).toBeNull();

  await user.clear(decimals);
  await user.type(decimals, "2,5");
  expect(await screen.findByText("Введите целое число, например 3")).toBeTruthy();
  await user.clear(decimals);
  await user.type(decimals, "3");
  await user.click(screen.getByRole("button", { name: "Сохранить" }));
  expect(await screen.findByText("Настройки сохранены")).toBeTruthy();
  expect(localStorage.getItem("comma")).toBe("3");
});
