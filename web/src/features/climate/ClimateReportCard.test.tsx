// @vitest-environment happy-dom
// A period's report on implementation on «Климатические проекты» (methodology 13.4): sections 1–15 in
// Order 248's order as the server lays them out (section 13.5 (a)'s period: «15,588» t CO2-eq, 15 units),
// the executor's fields marked «заполняется исполнителем» and editable; «Сохранить» sends only the
// fields changed with the version read, and a stale version's refusal is shown in the server's words.
import { readFileSync } from "node:fs";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { evaluateClimatePeriod, type ClimateInputs } from "@core/climate-project";
import { failure } from "../../testing/contract-api";
import { climateProjectFixture, climateReportFixture } from "../../testing/fixtures";
import { closeApp, openPart, setField, type OpenApp } from "../../testing/render-app";
import type { ClimatePeriod, ClimateProject, ClimateReport } from "./api";
import ClimateReportCard from "./ClimateReportCard";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const AT = "2026-06-02T03:00:00.000Z";
const VECTORS = JSON.parse(
  readFileSync(`${import.meta.dirname}/../../../../tests/fixtures/methodology/climate-project-vectors.json`, "utf8"),
) as { cases: { case: string; inputs: ClimateInputs }[] };
const CASE_A = VECTORS.cases.find((c) => c.case === "a")!.inputs;

const PROJECT: ClimateProject = climateProjectFixture("Факелы шахты Северная");

const result = evaluateClimatePeriod(CASE_A);
const PERIOD = {
  ...(result as unknown as ClimatePeriod),
  id: "per1",
  company: "company-1",
  project: "p1",
  start: "2026-06-01T00:00",
  end: "2026-06-01T06:00",
  start_utc: "2026-05-31T17:00:00.000Z",
  end_utc: "2026-05-31T23:00:00.000Z",
  hours: 6,
  period: { e_own_mwh: 0, deficit_prev_t_co2e: 0 },
  carbon_units: result.totals.carbon_units,
  created_at: AT,
  created_by: "staff@example.test",
  computed_at: AT,
  computed_by: "staff@example.test",
  version: 1,
  approval: null,
  history: [{ action: "compute", by: "staff@example.test", by_name: "Анна Иванова", by_role: "staff", at: AT }],
  readings_changed: null,
} as ClimatePeriod;

/** The report as the server builds it, with the executor's fields and version given. */
const reportOf = (fields: Record<string, string> = {}, version = 0) =>
  climateReportFixture(PROJECT, PERIOD, fields, version) as ClimateReport;

const text = (element: Element) => (element.textContent ?? "").replace(/[\u00a0\u202f]/g, " ");

// The card alone, as the project's view shows it under a chosen period (ClimateProjectsPage.test.tsx
// opens it there): the page around it is not what these tests check.
function open(patch: Parameters<OpenApp["api"]["on"]>[1]) {
  app = openPart(<ClimateReportCard project="p1" period="per1" />, (api) =>
    api.on("getClimateReport", reportOf()).on("patchClimateReport", patch),
  );
}

it("shows sections 1–15 in order with the period's figures, the executor's fields editable, and saves the changed ones with the version", async () => {
  open(({ body }) => {
    const { fields } = body as { fields: Record<string, string> };
    return reportOf(fields, 1);
  });
  const card = await screen.findByTestId("climate-report");
  const titles = [...card.querySelectorAll("h5")].map((h) => text(h));
  expect(titles).toHaveLength(15);
  expect(titles[0]).toBe("1. Общие сведения о климатическом проекте");
  expect(titles[12]).toBe("13. Количество углеродных единиц к выпуску");
  expect(titles[14]).toBe("15. План сбора первичных данных (план мониторинга)");
  const units = within(screen.getByTestId("climate-report-section-13"));
  expect(text(units.getByText("Углеродные единицы к выпуску").closest("tr")!)).toContain("15");
  expect(text(units.getByText("Сокращение выбросов ER, т CO2-экв.").closest("tr")!)).toContain("15,588");
  expect(text(screen.getByTestId("climate-report-section-10"))).toContain("уничтожение не подтверждено");
  expect(text(screen.getByTestId("climate-report-empty"))).toBe("Не заполнено полей исполнителя: 18");
  expect(screen.getAllByText("заполняется исполнителем")).toHaveLength(18);
  const save = screen.getByRole("button", { name: /Сохранить/ });
  expect((save as HTMLButtonElement).disabled).toBe(true);

  // No field here checks a key as it is typed: each is set at once (each key would render the 15 sections again).
  await setField(app.user, screen.getByLabelText(/Описание климатического проекта и его цели/), "Факел Ф-1");
  await setField(app.user, screen.getByLabelText(/Консультации с экспертами/), "не проводились");
  expect(screen.getByText("Несохраненные изменения не попадут в файлы: сохраните отчет перед выгрузкой.")).toBeTruthy();
  await app.user.click(save);
  await waitFor(() => expect(app.api.calls("patchClimateReport")).toHaveLength(1));
  expect(app.api.calls("patchClimateReport")[0].body).toEqual({
    fields: { s2_description: "Факел Ф-1", s14_consultations: "не проводились" },
    version: 0,
  });
  expect(await screen.findByText("Отчет сохранен, версия 1")).toBeTruthy();
  expect(text(screen.getByTestId("climate-report-empty"))).toBe("Не заполнено полей исполнителя: 16");
  expect((screen.getByLabelText(/Описание климатического проекта и его цели/) as HTMLTextAreaElement).value).toBe("Факел Ф-1");
  expect((screen.getByRole("button", { name: /Сохранить/ }) as HTMLButtonElement).disabled).toBe(true);
});

it("shows a stale version's refusal in the server's words and keeps what was typed", async () => {
  const stale = "Отчет о реализации был изменен другим пользователем. Обновите страницу и повторите.";
  open(failure(409, stale));
  await screen.findByTestId("climate-report");
  await setField(app.user, screen.getByLabelText(/Описание климатического проекта и его цели/), "Мой текст");
  await app.user.click(screen.getByRole("button", { name: /Сохранить/ }));
  expect(await screen.findByText(stale)).toBeTruthy();
  expect((screen.getByLabelText(/Описание климатического проекта и его цели/) as HTMLTextAreaElement).value).toBe("Мой текст");
});
