// @vitest-environment happy-dom
// an emission point's CO2 content is entered on its card with where it came from
// («0,35» typed as a user writes it, sent as 0,35 % vol. with its source); a cleared content is sent as
// null with no source. The months «по данным АГК» take it (domain/monitoring/minutes/offers-accept.test.ts).
// The profile's card of facilities is rendered alone; the point's name and the source are set at once.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { signedInUser } from "../../testing/fixtures";
import { closeApp, openPage, setField, type OpenApp } from "../../testing/render-app";
import { FacilitiesCard } from "./FacilitiesCard";

let app: OpenApp;
const AT = "2026-03-01T03:00:00.000Z";
const FACILITY = {
  id: "f1",
  company: "company-1",
  name: "Шахта «Распадская»",
  kind: "underground_mine" as const,
  licence_number: "",
  address: "",
  is_active: true,
  created_at: AT,
  updated_at: AT,
  version: 1,
};

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

it("sends the CO2 content typed with a decimal comma and its source with a new point", async () => {
  app = openPage({ path: "/profile", page: <FacilitiesCard /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [FACILITY])
      .on("listEmissionPoints", [])
      .on("createEmissionPoint", ({ body }) => ({
        ...(body as object),
        id: "p1",
        company: "company-1",
        facility: "f1",
        instrument: "",
        frequency: "",
        in_service_from: null,
        in_service_to: null,
        is_active: true,
        created_at: AT,
        updated_at: AT,
        version: 1,
      })),
  );
  await app.user.click((await screen.findByText("Источники выбросов")).closest("button")!);
  await app.user.click((await screen.findByText("Добавить источник")).closest("button")!);
  const form = (await screen.findByText("Новый источник выбросов", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(form);
  await setField(app.user, inside.getByLabelText("Название"), "Ствол № 2");
  expect(form.textContent).toContain("АГК не измеряет CO2");
  await app.user.type(inside.getByLabelText("Содержание CO2 в газе источника"), "0,35");
  await setField(app.user, inside.getByLabelText("Откуда содержание CO2"), "анализ проб, протокол № 7");
  await app.user.click(inside.getByText("Добавить").closest("button")!);
  await waitFor(() => expect(app.api.calls("createEmissionPoint")).toHaveLength(1));
  expect(app.api.calls("createEmissionPoint")[0].body).toMatchObject({
    name: "Ствол № 2",
    co2_content_pct: 0.35,
    co2_content_source: "анализ проб, протокол № 7",
  });
});

it("marks a drainage station's meter placed after a take-off, and only a drainage station's (D92)", async () => {
  app = openPage({ path: "/profile", page: <FacilitiesCard /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [FACILITY])
      .on("listEmissionPoints", [])
      .on("createEmissionPoint", ({ body }) => ({
        ...(body as object),
        id: "p1",
        company: "company-1",
        facility: "f1",
        instrument: "",
        frequency: "",
        in_service_from: null,
        in_service_to: null,
        is_active: true,
        created_at: AT,
        updated_at: AT,
        version: 1,
      })),
  );
  await app.user.click((await screen.findByText("Источники выбросов")).closest("button")!);
  await app.user.click((await screen.findByText("Добавить источник")).closest("button")!);
  const form = (await screen.findByText("Новый источник выбросов", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(form);
  // A ventilation shaft (the default kind) has no such meter.
  expect(inside.queryByText("Счетчик стоит после отбора газа на использование")).toBeNull();
  await setField(app.user, inside.getByLabelText("Название"), "ВДУ-1");
  await app.user.click(inside.getByLabelText("Вид источника"));
  await app.user.click(await screen.findByText("Дегазационная установка", { selector: ".ant-select-item-option-content" }));
  await app.user.click(await inside.findByText("Счетчик стоит после отбора газа на использование"));
  await app.user.click(inside.getByText("Добавить").closest("button")!);
  await waitFor(() => expect(app.api.calls("createEmissionPoint")).toHaveLength(1));
  expect(app.api.calls("createEmissionPoint")[0].body).toMatchObject({
    name: "ВДУ-1",
    kind: "drainage_station",
    meter_after_takeoff: true,
  });
});
