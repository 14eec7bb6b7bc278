// @vitest-environment happy-dom
// «Климатические проекты» (methodology section 13): the company's projects listed; a project's period
// computed from dates typed «01.06.2026» the Russian way sends the period's whole days on the company's
// clock, and its result — section 13.5 (a) as the core computes it — shows the carbon units, the totals
// as «15,588375», the deviations in Russian and each hour of the device's table on the company's clock.
// The period's «Пакет для верификатора» asks its pack. A new project's form offers each channel only the
// register's sensors of its kind and sends the plan.
// The page's own wiring (the list, a project and its period by the address, the report card under the
// period, a project started from an assessment shown once saved) is opened whole; what a part of it does
// (the computation's job, a period's approval and recomputation, the form's channels) renders that part.
import { readFileSync } from "node:fs";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { evaluateClimatePeriod, type ClimateInputs } from "@core/climate-project";
import { closeApp, openPage, openPart, type OpenApp, setField } from "../../testing/render-app";
import { failure, success } from "../../testing/contract-api";
import { climateProjectFixture, climateReportFixture, referenceDictionary, signedInUser, storedAssessment } from "../../testing/fixtures";
import { type ClimatePeriod, type ClimateProject, type ClimateProjectSummary, useClimatePeriod } from "./api";
import { ClimateProjectForm } from "./ClimateProjectForm";
import ClimateProjectsPage from "./ClimateProjectsPage";
import ClimateProjectView, { PeriodResult } from "./ClimateProjectView";
import { PeriodApproval } from "./PeriodApproval";
import { CLIMATE_REPORT_HAND_KEYS } from "@server/contract/schemas/climate-report";

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

const SUMMARY: ClimateProjectSummary = {
  id: "p1",
  name: "Факелы шахты Северная",
  facility: "f1",
  facility_name: "Шахта Северная",
  start: "2026-06-01",
  end: null,
  archived: false,
  updated_at: AT,
  version: 1,
  devices: 1,
};
const PROJECT: ClimateProject = climateProjectFixture(SUMMARY.name);

function periodOf(start: string, end: string): ClimatePeriod {
  const result = evaluateClimatePeriod(CASE_A);
  return {
    ...(result as unknown as ClimatePeriod),
    id: "per1",
    company: "company-1",
    project: "p1",
    start: `${start}T00:00`,
    end: "2026-06-01T06:00",
    start_utc: "2026-05-31T17:00:00.000Z",
    end_utc: "2026-05-31T23:00:00.000Z",
    hours: 6,
    period: { e_own_mwh: 0, deficit_prev_t_co2e: 0, asked_end: end },
    carbon_units: result.totals.carbon_units,
    created_at: AT,
    created_by: "staff@example.test",
    computed_at: AT,
    computed_by: "staff@example.test",
    version: 1,
    approval: null,
    history: [{ action: "compute", by: "staff@example.test", by_name: "Анна Иванова", by_role: "staff", at: AT }],
    readings_changed: null,
  };
}

/** Every executor's field of the report written: the approval is offered. */
const FILLED = Object.fromEntries(CLIMATE_REPORT_HAND_KEYS.map((key) => [key, "заполнено исполнителем"]));

const text = (element: Element) => (element.textContent ?? "").replace(/[\u00a0\u202f]/g, " ");

/** Period per1 as its view shows it, read again after each write (a write's answer is kept as the
 *  period's read): its whole result, or its approval card alone. */
function ShownPeriod({ whole = false }: { whole?: boolean }) {
  const period = useClimatePeriod("p1", "per1");
  if (!period.data) return null;
  return whole ? <PeriodResult project="p1" period={period.data} /> : <PeriodApproval project="p1" period={period.data} />;
}

/** Sets a date field at once, as a paste: the dates typed key by key are the first test's point. */
async function setDate(user: OpenApp["user"], input: HTMLElement, date: string) {
  await setField(user, input, date);
  await user.tab();
}

it("lists the projects, computes a period from dates typed «01.06.2026» and shows its units, totals, deviations and hours in Russian", async () => {
  let made: ClimatePeriod | undefined;
  app = openPage({ path: "/climate-projects?id=p1", route: "/climate-projects", page: <ClimateProjectsPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser({ email: "staff@example.test" }))
      .on("listClimateProjects", { results: [SUMMARY], count: 1 })
      .on("getClimateProject", PROJECT)
      .on("listClimatePeriods", () => ({ results: made ? [made] : [], count: made ? 1 : 0 }))
      .on("createClimatePeriod", ({ body }) => {
        const { start, end } = body as { start: string; end: string };
        made = periodOf(start, end);
        return made;
      })
      .on("getClimatePeriod", () => made)
      .on("listClimateSignatures", { results: [], count: 0 })
      .on("getClimateReport", () => climateReportFixture(PROJECT, made!)),
  );
  const list = await screen.findByRole("button", { name: "Факелы шахты Северная" });
  expect(text(list.closest("tr")!)).toContain("Шахта Северная");
  expect(text(list.closest("tr")!)).toContain("01.06.2026");
  const project = await screen.findByTestId("climate-project");
  expect(text(project)).toContain("датчик пламени: FL-1");

  for (const [label, value] of [
    ["Начало периода", "01.06.2026"],
    ["Конец периода (включительно)", "01.06.2026"],
  ]) {
    const input = screen.getByLabelText(label);
    await app.user.click(input);
    await app.user.type(input, value);
    await app.user.tab();
  }
  await app.user.click(screen.getByRole("button", { name: "Рассчитать" }));
  await waitFor(() => expect(app.api.calls("createClimatePeriod")).toHaveLength(1));
  expect(app.api.calls("createClimatePeriod")[0].body).toEqual({
    start: "2026-06-01",
    end: "2026-06-02",
    period: { e_grid_aux_mwh: 0, leakage_t_co2e: 0 },
  });

  const result = await screen.findByTestId("climate-period");
  expect(text(result)).toContain("Углеродные единицы15");
  expect(text(result)).toContain("15,588375");
  expect(text(result)).toContain("43,901828");
  const deviations = text(result);
  for (const words of ["нет данных", "уничтожение не подтверждено", "значение по умолчанию"]) expect(deviations).toContain(words);
  const device = within(result).getByText("Ф-1 — Открытый факел").closest(".ant-card")!;
  const rows = within(device as HTMLElement).getAllByRole("row");
  expect(text(rows[1])).toContain("01.06.2026 00:00");
  expect(text(rows[1])).toContain("по умолчанию, пламя 60 мин");
  expect(text(rows[3])).toContain("не подтверждено: нет пламени");
  expect(text(rows[5])).toContain("нет данных");
  // The chosen period's report on implementation is under it (ClimateReportCard.test.tsx tests the card).
  expect(await screen.findByTestId("climate-report")).toBeTruthy();

  // «Пакет для верификатора» asks the period's pack; a refusal is said with the server's words.
  app.api.on("climatePeriodPack", () => failure(409, "Пакет этого периода не собрать"));
  await app.user.click(within(result).getByRole("button", { name: /Пакет для верификатора/ }));
  await waitFor(() => expect(app.api.calls("climatePeriodPack")).toHaveLength(1));
  expect(app.api.calls("climatePeriodPack")[0].params).toEqual({ id: "p1", period: "per1" });
  expect(text(await screen.findByText(/Не удалось скачать пакет для верификатора/))).toContain(
    "Не удалось скачать пакет для верификатора: Пакет этого периода не собрать",
  );
});

it("proposes the project's EF_grid with its source in the period's form and sends them", async () => {
  const grid = { t_per_mwh: 0.62, source: "ОЭС Сибири, расчет по TOOL07" };
  app = openPage({ path: "/climate-projects?id=p1", route: "/climate-projects", page: <ClimateProjectsPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser({ email: "staff@example.test" }))
      .on("listClimateProjects", { results: [SUMMARY], count: 1 })
      .on("getClimateProject", { ...PROJECT, ef_grid: grid })
      .on("listClimatePeriods", { results: [], count: 0 })
      .on("createClimatePeriod", () => failure(400, "period.e_grid_aux_mwh: проверка")),
  );
  const value = (await screen.findByLabelText("EF_grid, т CO2/МВт·ч")) as HTMLInputElement;
  expect(value.value).toBe("0,62");
  expect((screen.getByLabelText("Источник EF_grid") as HTMLInputElement).value).toBe(grid.source);
  await app.user.clear(value);
  await app.user.type(value, "0,64");
  for (const label of ["Начало периода", "Конец периода (включительно)"])
    await setDate(app.user, screen.getByLabelText(label), "01.06.2026");
  await app.user.click(screen.getByRole("button", { name: "Рассчитать" }));
  await waitFor(() => expect(app.api.calls("createClimatePeriod")).toHaveLength(1));
  expect(app.api.calls("createClimatePeriod")[0].body).toMatchObject({
    period: { ef_grid_t_per_mwh: 0.64, ef_grid_source: grid.source },
  });
});

it("shows a long period «вычисляется» while its job computes it, then its figures", async () => {
  let made: ClimatePeriod | undefined;
  let asked = 0;
  // The project's view alone; the period's report is refused (the card is not this test's). A report held
  // unanswered would stay pending into the next files of this worker, which share the app's modules, and
  // keep their «Loading ...» up.
  app = openPage({ path: "/climate-projects?id=p1", route: "/climate-projects", page: <ClimateProjectView id="p1" /> }, (api) =>
    api
      .on("getMe", () => signedInUser({ email: "staff@example.test" }))
      .on("getClimateProject", PROJECT)
      .on("listClimatePeriods", () => ({ results: made ? [made] : [], count: made ? 1 : 0 }))
      .on("createClimatePeriod", () => success(202, { job: "j1.sig", state: "queued", progress: 0, status_url: "v1/export_jobs/j1.sig/" }))
      .on("exportJob", () => {
        asked += 1;
        if (asked < 2) return { job: "j1.sig", state: "running", progress: 10 };
        made = periodOf("2026-06-01", "2026-06-02");
        return { job: "j1.sig", state: "done", progress: 100, period_id: made.id };
      })
      .on("getClimatePeriod", () => made)
      .on("listClimateSignatures", { results: [], count: 0 })
      .on("getClimateReport", () => failure(404, "Отчет еще не составлен")),
  );
  await screen.findByTestId("climate-project");
  for (const label of ["Начало периода", "Конец периода (включительно)"])
    await setDate(app.user, screen.getByLabelText(label), "01.06.2026");
  await app.user.click(screen.getByRole("button", { name: "Рассчитать" }));
  const computing = await screen.findByTestId("climate-period-computing");
  expect(text(computing)).toContain("Отчетный период 01.06.2026 – 01.06.2026 вычисляется");
  expect(screen.queryByTestId("climate-period")).toBeNull();
  const result = await screen.findByTestId("climate-period", {}, { timeout: 10_000 });
  expect(text(result)).toContain("15,588375");
  expect(screen.queryByTestId("climate-period-computing")).toBeNull();
  expect(app.api.calls("exportJob")[0].params).toEqual({ id: "j1.sig" });
  expect(app.api.calls("getClimatePeriod").at(-1)?.params).toEqual({ id: "p1", period: made!.id });
});

it("shows a period's approval: a reviewer who did not compute it approves it, the frozen period offers no recomputation, a withdrawal asks why", async () => {
  let period = periodOf("2026-06-01", "2026-06-02");
  const APPROVED_AT = "2026-06-03T04:00:00.000Z";
  app = openPart(<ShownPeriod whole />, (api) =>
    api
      .on("getMe", () => signedInUser({ email: "reviewer@example.test", role: "reviewer", first_name: "Ирина", last_name: "Проверкина" }))
      .on("getClimatePeriod", () => period)
      .on("getClimateReport", () => climateReportFixture(PROJECT, period, FILLED, 1))
      .on("listClimateSignatures", { results: [], count: 0 })
      .on("reviewClimatePeriod", ({ body }) => {
        const { action, reason } = body as { action: "approve" | "withdraw"; reason?: string };
        const at = action === "approve" ? APPROVED_AT : "2026-06-04T04:00:00.000Z";
        period = {
          ...period,
          version: period.version + 1,
          approval:
            action === "approve"
              ? { number: 1, at, by: "reviewer@example.test", by_name: "Ирина Проверкина", sha256: "ab".repeat(32) }
              : null,
          history: [
            ...period.history,
            { action, by: "reviewer@example.test", by_name: "Ирина Проверкина", by_role: "reviewer", at, ...(reason ? { reason } : {}) },
          ],
          readings_changed: action === "approve" ? { at: "2026-06-03T05:00:00.000Z", sensors: ["Q-1"] } : period.readings_changed,
        };
        return period;
      }),
  );
  const approval = await screen.findByTestId("period-approval");
  expect(text(within(approval).getByTestId("period-state"))).toBe("Не утвержден");
  expect(text(approval)).toContain("рассчитан: Анна Иванова (сотрудник)");
  // The action is offered once the signed-in user's role is known (GET users/get_me/).
  await app.user.click(await within(approval).findByRole("button", { name: "Утвердить" }));
  const dialog = await screen.findByRole("dialog");
  await app.user.click(within(dialog).getByRole("button", { name: "Утвердить" }));
  await waitFor(() => expect(app.api.calls("reviewClimatePeriod")).toHaveLength(1));
  expect(app.api.calls("reviewClimatePeriod")[0].body).toEqual({ action: "approve", version: 1 });
  await waitFor(() => expect(text(within(approval).getByTestId("period-state"))).toBe("Утвержден"));
  expect(text(approval)).toContain("Утвердил Ирина Проверкина 03.06.2026");
  expect(text(approval)).toContain("ab".repeat(32));
  expect(within(approval).queryByRole("button", { name: "Пересчитать" })).toBeNull();
  // Readings written after the approval: flagged, the figures stay.
  expect(text(within(approval).getByTestId("readings-changed"))).toContain("Показания изменились после утверждения");
  expect(text(within(approval).getByTestId("readings-changed"))).toContain("Датчики: Q-1");
  expect(text(screen.getByTestId("climate-period"))).toContain("15,588375");

  await app.user.click(within(approval).getByRole("button", { name: "Отозвать утверждение" }));
  const withdraw = await screen.findByRole("dialog", { name: "Отозвать утверждение период?" });
  const ok = within(withdraw).getByRole("button", { name: "Отозвать утверждение" });
  expect(ok.hasAttribute("disabled")).toBe(true);
  await setField(app.user, within(withdraw).getByLabelText("Причина"), "поправка расхода");
  await app.user.click(ok);
  await waitFor(() => expect(app.api.calls("reviewClimatePeriod")).toHaveLength(2));
  expect(app.api.calls("reviewClimatePeriod")[1].body).toEqual({ action: "withdraw", version: 2, reason: "поправка расхода" });
  await waitFor(() => expect(text(within(approval).getByTestId("period-state"))).toBe("Не утвержден"));
  expect(within(approval).getByRole("button", { name: "Пересчитать" })).toBeTruthy();
  expect(text(approval)).toContain("утверждение отозвано: Ирина Проверкина (проверяющий). Причина: поправка расхода");
});

it("tells the person who computed a period why they may not approve it", async () => {
  const period = periodOf("2026-06-01", "2026-06-02");
  app = openPart(<ShownPeriod />, (api) =>
    api
      .on("getMe", () => signedInUser({ email: "staff@example.test", role: "reviewer" }))
      .on("getClimatePeriod", period)
      .on("getClimateReport", () => climateReportFixture(PROJECT, period, FILLED, 1)),
  );
  const approval = await screen.findByTestId("period-approval");
  await waitFor(() =>
    expect(text(approval)).toContain("«Утвердить» может только другой проверяющий или администратор: период рассчитали вы"),
  );
  expect(within(approval).queryByRole("button", { name: "Утвердить" })).toBeNull();
});

it("shows what the executor has still to write and offers no approval until it is written", async () => {
  const period = periodOf("2026-06-01", "2026-06-02");
  const { s10_explanations: _s10, s1_contact: _s1, ...some } = FILLED;
  const fields: Record<string, string> = some;
  app = openPart(<ShownPeriod />, (api) =>
    api
      .on("getMe", () => signedInUser({ email: "reviewer@example.test", role: "reviewer" }))
      .on("getClimatePeriod", period)
      .on("getClimateReport", () => climateReportFixture(PROJECT, period, fields, 1)),
  );
  const missing = await screen.findByTestId("period-missing");
  expect(text(missing)).toContain("Утвердить нельзя, пока исполнитель не заполнит отчет о реализации");
  expect(text(missing)).toContain(
    "Не заполнены поля (2): «Контактное лицо исполнителя (Ф. И. О., должность, телефон, e-mail)» (раздел 1); «Пояснения к каждой группе отклонений» (раздел 10).",
  );
  expect(text(missing)).toContain(
    "Нет пояснения к группам отклонений (2), раздел 10: Ф-1, 01.06.2026 02:00 – 02:59: уничтожение не подтверждено",
  );
  const approve = screen.getByRole("button", { name: "Утвердить" });
  expect(approve.hasAttribute("disabled")).toBe(true);
  // With every field written (the approval test above) it is offered.
});

const FACILITY = {
  id: "f1",
  company: "company-1",
  name: "Шахта Северная",
  kind: "underground_mine" as const,
  licence_number: "",
  address: "",
  is_active: true,
  created_at: AT,
  updated_at: AT,
  version: 1,
};
const POINT = {
  id: "pt1",
  company: "company-1",
  facility: "f1",
  name: "Дегазационная станция",
  kind: "drainage_station" as const,
  instrument: "",
  frequency: "",
  in_service_from: null,
  in_service_to: null,
  is_active: true,
  created_at: AT,
  updated_at: AT,
  version: 1,
};
const sensor = (id: string, code: string, kind: "flow" | "methane_high" | "flame" | "pressure") => {
  const register = {
    code,
    kind,
    point: "pt1",
    role: "recording" as const,
    working: "",
    section: "",
    place: "drainage_pipeline" as const,
    warning: null,
    alarm: null,
    area_m2: null,
    conditions: "standard" as const,
    in_service_from: null,
    in_service_to: null,
  };
  return {
    id,
    company: "company-1",
    facility: "f1",
    ...register,
    is_active: true,
    revisions: [{ ...register, valid_from: "1970-01-01T00:00:00.000Z" }],
    created_at: AT,
    updated_at: AT,
    version: 1,
  };
};

it("makes a project: each channel offers the register's sensors of its kind, and the plan is sent by their codes", async () => {
  const saved: ClimateProject[] = [];
  app = openPart(<ClimateProjectForm onSaved={(p) => saved.push(p)} onCancel={() => {}} />, (api) =>
    api
      .on("listFacilities", [FACILITY])
      .on("listEmissionPoints", [POINT])
      .on("listSensors", [
        sensor("s1", "Q-1", "flow"),
        sensor("s2", "C-1", "methane_high"),
        sensor("s3", "FL-1", "flame"),
        sensor("s4", "P-1", "pressure"),
      ])
      .on("createClimateProject", ({ body }) => ({ ...PROJECT, ...(body as object), id: "p9", devices: PROJECT.devices })),
  );
  const form = await screen.findByTestId("climate-project-form");
  await setField(app.user, within(form).getAllByLabelText("Название")[0], "Факелы шахты Северная");
  await app.user.click(within(form).getByLabelText("Площадка"));
  await app.user.click(await screen.findByText("Шахта Северная", { selector: ".ant-select-item-option-content" }));
  await setDate(app.user, within(form).getByLabelText("Начало проекта"), "01.06.2026");
  await app.user.click(await within(form).findByLabelText("Источник газа"));
  await app.user.click(await screen.findByText("Дегазационная станция", { selector: ".ant-select-item-option-content" }));
  await app.user.click(within(form).getByLabelText("Расход смеси"));
  // The flow's channel offers the flow meter alone, not the CH4 meter, the flame detector or the pressure gauge.
  const offered = await screen.findAllByText(/^(Q-1|C-1|FL-1|P-1)$/, { selector: ".ant-select-item-option-content" });
  expect(offered.map((o) => o.textContent)).toEqual(["Q-1"]);
  await app.user.click(offered[0]);
  await app.user.click(within(form).getByLabelText("Содержание метана"));
  await app.user.click(await screen.findByText("C-1", { selector: ".ant-select-item-option-content" }));
  await app.user.click(within(form).getByLabelText("Датчик пламени"));
  await app.user.click(await screen.findByText("FL-1", { selector: ".ant-select-item-option-content" }));
  await app.user.click(within(form).getByRole("button", { name: "Сохранить" }));
  await waitFor(() => expect(app.api.calls("createClimateProject")).toHaveLength(1));
  expect(app.api.calls("createClimateProject")[0].body).toEqual({
    name: "Факелы шахты Северная",
    facility: "f1",
    start: "2026-06-01",
    end: null,
    methodology: {
      code: "CDM-ACM0008",
      name: "ACM0008: Abatement of methane from coal mines",
      version: "08.0",
      source: "UNFCCC CDM",
      tools: [{ code: "TOOL06", name: "Project emissions from flaring", version: "04.0" }],
    },
    devices: [
      { point: "pt1", kind: "flare_open", flow_basis: "standard_20C", eta_option: null, sensors: { q: "Q-1", c: "C-1", flame: "FL-1" } },
    ],
    e_own_sensor: null,
  });
  await waitFor(() => expect(saved.map((p) => p.id)).toEqual(["p9"]));
});

it("starts a project from an assessment's stream and shows expected against measured reductions per period", async () => {
  const input = {
    streams: [{ code: "d1", kind: "drainage" as const, q_mix_m3_min: 40, c_ch4_pct: 35 }],
    chosen: { d1: "FLARE_OPEN" },
    params: {
      ef_grid_t_per_mwh: 0.5,
      price_el_rub_per_mwh: 6000,
      price_heat_rub_per_mwh: 1500,
      price_carbon_unit_rub: 1000,
      discount_rate: 0.12,
      lifetime_yr: 10,
    },
  };
  const assessment = await storedAssessment("a1", "Дегазация Северной", input, AT, { created_by: "staff@example.test" });
  const { result } = assessment;
  const option = result.streams[0].options.find((o) => o.option_code === "FLARE_OPEN")!;
  expect(result.streams[0].chosen).toBe("FLARE_OPEN");
  const EXPECTED = {
    assessment: "a1",
    assessment_name: "Дегазация Северной",
    stream: "d1",
    option_code: "FLARE_OPEN",
    option_label: "Открытый факел",
    device_kind: "flare_open" as const,
    er_t_co2e_per_year: option.er_t_co2e,
    carbon_units_per_year: option.carbon_units,
  };
  const ru = (v: number, d: number) =>
    v.toLocaleString("ru-RU", { minimumFractionDigits: d, maximumFractionDigits: d }).replace(/[\u00a0\u202f]/g, " ");
  let made: ClimateProject | undefined;
  app = openPage(
    { path: "/climate-projects?new=1&assessment=a1&stream=d1", route: "/climate-projects", page: <ClimateProjectsPage /> },
    (api) =>
      api
        .on("getMe", () => signedInUser({ email: "staff@example.test" }))
        .on("listClimateProjects", () => ({ results: made ? [SUMMARY] : [], count: made ? 1 : 0 }))
        .on("getDictionary", ({ params }) => referenceDictionary(params.name))
        .on("listClimateSignatures", { results: [], count: 0 })
        .on("getAbatementAssessment", assessment)
        .on("listFacilities", [FACILITY])
        .on("listEmissionPoints", [POINT])
        .on("listSensors", [sensor("s1", "Q-1", "flow"), sensor("s2", "C-1", "methane_high"), sensor("s3", "FL-1", "flame")])
        .on("createClimateProject", ({ body }) => {
          made = { ...PROJECT, expected: EXPECTED };
          return { ...made, ...(body as object), id: "p1", devices: PROJECT.devices, expected: EXPECTED };
        })
        .on("getClimateProject", () => made)
        .on("listClimatePeriods", () => ({ results: [periodOf("2026-06-01", "2026-06-02")], count: 1 })),
  );
  const from = await screen.findByTestId("climate-project-from");
  expect(text(from)).toContain(
    `По оценке «Дегазация Северной», поток «d1»: Открытый факел. Ожидаемое сокращение ${ru(option.er_t_co2e, 3)} т CO2-экв. в год`,
  );
  const form = screen.getByTestId("climate-project-form");
  expect((within(form).getAllByLabelText("Название")[0] as HTMLInputElement).value).toBe("Открытый факел, поток d1");
  await app.user.click(within(form).getByLabelText("Площадка"));
  await app.user.click(await screen.findByText("Шахта Северная", { selector: ".ant-select-item-option-content" }));
  await setDate(app.user, within(form).getByLabelText("Начало проекта"), "01.06.2026");
  await app.user.click(await within(form).findByLabelText("Источник газа"));
  await app.user.click(await screen.findByText("Дегазационная станция", { selector: ".ant-select-item-option-content" }));
  for (const [label, code] of [
    ["Расход смеси", "Q-1"],
    ["Содержание метана", "C-1"],
    ["Датчик пламени", "FL-1"],
  ]) {
    await app.user.click(within(form).getByLabelText(label));
    await app.user.click(await screen.findByText(code, { selector: ".ant-select-item-option-content" }));
  }
  await app.user.click(within(form).getByRole("button", { name: "Сохранить" }));
  await waitFor(() => expect(app.api.calls("createClimateProject")).toHaveLength(1));
  expect(app.api.calls("createClimateProject")[0].body).toMatchObject({
    name: "Открытый факел, поток d1",
    from_assessment: { assessment: "a1", stream: "d1" },
    devices: [{ kind: "flare_open" }],
  });
  // The project's screen: a 6-hour period expects the year's reduction over its 6 of 8 760 hours; measured 15,588.
  const table = await screen.findByTestId("climate-expected");
  await waitFor(() => expect(text(table)).toContain("01.06.2026 00:00 – 01.06.2026 06:00"));
  const row = within(table).getAllByRole("row")[1];
  const planned = (option.er_t_co2e * 6) / 8760;
  expect(text(row)).toContain("01.06.2026 00:00 – 01.06.2026 06:00");
  expect(text(row)).toContain(ru(planned, 3));
  expect(text(row)).toContain("15,588");
  expect(text(row)).toContain(`${ru((15.588375 / planned) * 100, 1)} %`);
});

it("computes a long period again as the server's job: «пересчитывается в фоне», then its next version", async () => {
  const first = periodOf("2026-06-01", "2026-06-02");
  let shown = first;
  let asked = 0;
  app = openPart(<ShownPeriod />, (api) =>
    api
      .on("getMe", () => signedInUser({ email: "reviewer@example.test", role: "reviewer" }))
      .on("getClimatePeriod", () => shown)
      .on("getClimateReport", () => climateReportFixture(PROJECT, shown, FILLED, 1))
      .on("recomputeClimatePeriod", () =>
        success(202, { job: "j2.sig", state: "queued", progress: 0, status_url: "v1/export_jobs/j2.sig/" }),
      )
      .on("exportJob", () => {
        asked += 1;
        if (asked < 2) return { job: "j2.sig", state: "running", progress: 10 };
        shown = {
          ...first,
          version: 2,
          computed_by: "reviewer@example.test",
          history: [...first.history, { action: "recompute", by: "reviewer@example.test", by_role: "reviewer", at: AT }],
        };
        return { job: "j2.sig", state: "done", progress: 100, period_id: "per1" };
      }),
  );
  await app.user.click(await screen.findByRole("button", { name: "Пересчитать" }));
  // asked first, saying what a recomputation does to the КЭП and to who may approve.
  const confirm = await screen.findByTestId("recompute-confirm");
  expect(text(confirm)).toContain("Подписи КЭП, данные к нынешнему файлу периода, перестанут ему соответствовать");
  expect(text(confirm)).toContain("Кто пересчитал период, тот не может его утвердить");
  expect(app.api.calls("recomputeClimatePeriod")).toHaveLength(0);
  await app.user.click(within(screen.getByRole("dialog", { name: "Пересчитать период?" })).getByRole("button", { name: "Пересчитать" }));
  expect(text(await screen.findByTestId("climate-period-recomputing"))).toContain("Период длинный, он пересчитывается в фоне");
  await waitFor(() => expect(screen.queryByTestId("climate-period-recomputing")).toBeNull(), { timeout: 10_000 });
  expect(app.api.calls("recomputeClimatePeriod")[0].body).toEqual({ version: 1 });
  expect(text(await screen.findByTestId("period-approval"))).toContain("пересчитан");
});
