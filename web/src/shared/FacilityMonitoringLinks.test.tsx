// @vitest-environment happy-dom
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { expect, it } from "vitest";
import { FacilityMonitoringLinks } from "./FacilityMonitoringLinks";

const linksOf = () => screen.getAllByRole("link").map((a) => [a.textContent, a.getAttribute("href")]);

it("links every other monitoring page of the facility, «Мониторинг» and «События» included", () => {
  render(
    <MemoryRouter>
      <FacilityMonitoringLinks facilityId="f1" current="events" />
    </MemoryRouter>,
  );
  expect(linksOf()).toEqual([
    ["Датчики", "/facilities/f1/sensors"],
    ["Мониторинг", "/facilities/f1/monitoring"],
    ["Схема", "/facilities/f1/scheme"],
    ["Журнал оператора АГК", "/facilities/f1/journal"],
    ["Книга учета загазирований", "/facilities/f1/gassing-book"],
    ["Данные АГК и предложения", "/facilities/f1/agk-data"],
    ["Полнота данных датчиков", "/facilities/f1/completeness"],
    ["Проверки датчиков", "/facilities/f1/sensor-checks"],
    ["Передача смены", "/facilities/f1/handovers"],
    ["Отключения и ручные замеры", "/facilities/f1/readings-audit"],
  ]);
});

it("puts a sensor page's own link first and keeps all eleven", () => {
  render(
    <MemoryRouter>
      <FacilityMonitoringLinks facilityId="f1" before={<a href="/gaps">Пропуски и замещения за месяц</a>} />
    </MemoryRouter>,
  );
  expect(linksOf().map(([text]) => text)).toEqual([
    "Пропуски и замещения за месяц",
    "Датчики",
    "Мониторинг",
    "Схема",
    "Журнал оператора АГК",
    "Книга учета загазирований",
    "События",
    "Данные АГК и предложения",
    "Полнота данных датчиков",
    "Проверки датчиков",
    "Передача смены",
    "Отключения и ручные замеры",
  ]);
  expect(document.body.textContent).toContain("Пропуски и замещения за месяц · Датчики · Мониторинг");
});
