// @vitest-environment happy-dom
// «Данные АГК» (D61–D63): the completeness heat map by point and month, the month's figures in Russian
// numbers, «Принять» into a project of the facility — below 95 % only once a reason is typed, which is
// sent with it — and an accepted month whose readings moved it flagged. the month still running
// says «месяц идет: N из M минут» with no «Принять»; a changed month is offered «Принять заново» into its
// project with a reason, or said to wait for the year's reopening when the year is frozen; 94,62 % is
// never shown as «95»; with no project of the month's year the dialog says to create one.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { signedInUser, project } from "../../../testing/fixtures";
import { closeApp, openPage, setField, type OpenApp } from "../../../testing/render-app";
import { atPhoneWidth } from "../../../testing/dom-globals";
import { TEST_NOW, onTestClock } from "../../../testing/fakes";
import AgkDataPage from "./AgkDataPage";

let app: OpenApp;
onTestClock();

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const AT = "2026-03-01T03:00:00.000Z";
/** each point's own channels, and a point lacking them. */
const CHANNELS = [
  {
    point: "p1",
    point_name: "Ствол № 2",
    channels: [
      { code: "ВС2-CH4", kind: "methane", place: "shaft" },
      { code: "ВС2-V", kind: "air_velocity", place: "shaft" },
    ],
    lacks: [],
  },
  { point: "p3", point_name: "Ствол № 3", channels: [], lacks: ["расхода газовой смеси или скорости воздуха (анемометра)", "метана"] },
];
const offer = (month: string, completeness: number, accepted: unknown = null) => ({
  point: "p1",
  point_name: "Ствол № 2",
  month,
  volume_thousand_m3: 720,
  ef_ch4: 0.4516666667,
  ch4_t: 2.172336,
  minutes: { expected: 44640, valid: 50, substituted: 10, missing: 44580 },
  completeness,
  longest_gap_min: 10,
  readings_sha256: "a".repeat(64),
  demo: false,
  in_progress: false,
  month_minutes: 44640,
  basis_asked: false,
  doubt: null,
  accepted,
});
const acceptedMonth = (changes: Record<string, unknown> = {}) => ({
  calculation: "c1",
  project: "pr1",
  ch4_t: 2.1,
  accepted_at: AT,
  accepted_by: "a@b.ru",
  reason: "",
  changed: true,
  difference_pct: 1.62,
  version: 1,
  again_reason: "",
  history: [],
  calculation_archived: false,
  year_frozen: false,
  ...changes,
});
const page = { path: "/facilities/f1/agk-data", route: "/facilities/:facilityId/agk-data", page: <AgkDataPage /> };

it("shows the heat map and the figures, asks for a reason below 95 % and sends it with the project", async () => {
  const year = new Date(TEST_NOW).getFullYear();
  const changed = acceptedMonth();
  app = openPage({ path: "/facilities/f1/agk-data", route: "/facilities/:facilityId/agk-data", page: <AgkDataPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [])
      .on("listProjects", {
        results: [
          project({ id: "pr1", name: "Замеры", facility: "f1", reporting_year: year }),
          project({ id: "pr2", name: "Чужой", facility: "f2", reporting_year: year }),
        ],
        count: 2,
      })
      .on("listMonitoringPointChannels", CHANNELS)
      .on("listMonitoringOffers", [offer(`${year}-03`, 0.0013), offer(`${year}-04`, 0.9639, changed)])
      .on("acceptMonitoringOffers", ({ body }) => [
        { ...offer(`${year}-03`, 0.0013), accepted: { ...changed, changed: false, reason: (body as { reason: string }).reason } },
      ]),
  );
  const map = await screen.findByLabelText("Полнота данных");
  // each point's own channels named, and what a point without them lacks.
  const channels = await screen.findAllByTestId("point-channels");
  expect(channels.map((c) => c.textContent)).toEqual([
    "Ствол №\u00a02Каналы: ВС2-CH4 (Метан (0–4 % об.); Ствол (канал вентилятора)), ВС2-V (Скорость воздуха, м/с; Ствол (канал вентилятора))",
    "Ствол №\u00a03Своих каналов нетМесяц не считается: нет канала расхода газовой смеси или скорости воздуха (анемометра), метана",
  ]);
  // «№ 2» kept on one line (a no-break space).
  expect(map.textContent).toContain("Ствол №\u00a02");
  expect(map.textContent).toContain("96");
  // The months scroll inside the card, not the page; the offers' table sizes its columns to their
  // content (no column fixed, no fixed layout that clipped «Принять» to «Пр»).
  expect(screen.getByTestId("offers-heat-map").style.overflowX).toBe("auto");
  const row = (await screen.findByText(`03.${year}`)).closest("tr")!;
  expect(row.closest("table")!.style.tableLayout).toBe("auto");
  expect(document.querySelector(".ant-table-cell-fix-left, .ant-table-cell-fix-right")).toBeNull();
  expect(row.textContent).toContain("720,00");
  expect(row.textContent).toContain("0,4517");
  expect(row.textContent).toContain("2,172");
  expect(row.textContent?.replace(/\s/g, " ")).toContain("50 / 10 / 44 580");
  expect(screen.getByText(`04.${year}`).closest("tr")!.textContent?.replace(/\s/g, " ")).toContain(
    "Данные АГК изменились после принятия: +1,62 %",
  );

  await app.user.click(within(row).getByText("Принять").closest("button")!);
  const dialog = (await screen.findByText(`Принять: Ствол № 2, 03.${year}`, { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(dialog);
  expect(dialog.textContent).toContain("ниже 95\u00a0%");
  await app.user.click(inside.getByLabelText("Проект"));
  await app.user.click(await screen.findByText("Замеры"));
  const ok = inside
    .getAllByText("Принять")
    .map((e) => e.closest("button")!)
    .find((b) => b.className.includes("primary"))!;
  expect(ok.disabled).toBe(true);
  // The reason's keys are not what is checked: it is put in at once.
  await setField(app.user, inside.getByLabelText("Причина"), "Пробный замер");
  await waitFor(() => expect(ok.disabled).toBe(false));
  // while the year's offers are read again (held here), the month shows as accepted
  // from the accept's answer, not in its old state.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const acceptedMarch = { ...offer(`${year}-03`, 0.0013), accepted: { ...changed, changed: false, reason: "Пробный замер" } };
  app.api.on("listMonitoringPointChannels", CHANNELS).on("listMonitoringOffers", async () => {
    await held;
    return [acceptedMarch, offer(`${year}-04`, 0.9639, changed)];
  });
  await app.user.click(ok);
  await waitFor(() => expect(app.api.calls("acceptMonitoringOffers")).toHaveLength(1));
  await waitFor(() => expect(within(screen.getByText(`03.${year}`).closest("tr")!).getByText("Принят")).toBeTruthy());
  release();
  expect(app.api.calls("acceptMonitoringOffers")[0].body).toEqual({
    facility: "f1",
    point: "p1",
    months: [`${year}-03`],
    project: "pr1",
    reason: "Пробный замер",
  });
});

it("on a phone shows each offer as a block of lines with its figures and «Принять», the heat map scrolling inside its card", async () => {
  atPhoneWidth();
  const year = new Date(TEST_NOW).getFullYear();
  app = openPage({ path: "/facilities/f1/agk-data", route: "/facilities/:facilityId/agk-data", page: <AgkDataPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [])
      .on("listProjects", { results: [project({ id: "pr1", name: "Замеры", facility: "f1", reporting_year: year })], count: 1 })
      .on("listMonitoringPointChannels", CHANNELS)
      .on("listMonitoringOffers", [offer(`${year}-03`, 0.0013)]),
  );
  const block = (await screen.findByText(`03.${year}`)).closest<HTMLElement>("[data-testid=stacked-rows]")!;
  expect(block.querySelector("table")).toBeNull();
  for (const shown of [
    "Источник",
    "Ствол №\u00a02",
    "Объём смеси, тыс. м³",
    "720,00",
    "CH4, т",
    "2,172",
    "Полнота",
    "Наибольший пропуск, мин",
  ]) {
    expect(block.textContent).toContain(shown);
  }
  expect(screen.getByTestId("offers-heat-map").style.overflowX).toBe("auto");
  await app.user.click(within(block).getByText("Принять").closest("button")!);
  await screen.findByText(`Принять: Ствол № 2, 03.${year}`, { selector: ".ant-modal-title" });
});

it("shows the month still running with its minutes so far and no «Принять», and 94,62 % never as «95»", async () => {
  const year = new Date(TEST_NOW).getFullYear();
  const running = {
    ...offer(`${year}-11`, 1),
    in_progress: true,
    month_minutes: 43200,
    minutes: { expected: 38237, valid: 38237, substituted: 0, missing: 0 },
  };
  app = openPage(page, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [])
      .on("listMonitoringPointChannels", CHANNELS)
      .on("listMonitoringOffers", [offer(`${year}-10`, 0.94621), running]),
  );
  const map = await screen.findByLabelText("Полнота данных");
  const cells = [...map.querySelectorAll("td")].map((td) => td.textContent);
  expect(cells).toContain("94");
  expect(cells).not.toContain("95");
  expect(cells).toContain("идет");
  expect(screen.getByText(/Полнота здесь считается за весь месяц/)).toBeTruthy();
  const october = (await screen.findByText(`10.${year}`)).closest("tr")!;
  expect(october.textContent).toContain("94,62 %");
  const november = screen.getByText(`11.${year}`).closest("tr")!;
  expect(november.textContent?.replace(/\s/g, " ")).toContain("месяц идет: 38 237 из 43 200 минут");
  expect(within(november).queryByText("Принять")).toBeNull();
});

it("offers «Принять заново» for a changed month into its project with a reason, and waits for a frozen year's reopening", async () => {
  const year = new Date(TEST_NOW).getFullYear();
  app = openPage(page, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [])
      .on("listProjects", {
        results: [
          project({ id: "pr1", name: "Замеры", facility: "f1", reporting_year: year }),
          project({ id: "pr3", name: "Еще проект", facility: "f1", reporting_year: year }),
        ],
        count: 2,
      })
      .on("listMonitoringPointChannels", CHANNELS)
      .on("listMonitoringOffers", [
        offer(`${year}-09`, 0.99, acceptedMonth({ year_frozen: true })),
        offer(`${year}-10`, 0.99, acceptedMonth({ difference_pct: 5.56 })),
      ])
      .on("acceptMonitoringOffers", () => [offer(`${year}-10`, 0.99, acceptedMonth({ changed: false, version: 2 }))]),
  );
  const frozen = (await screen.findByText(`09.${year}`)).closest("tr")!;
  expect(frozen.textContent).toContain("Год утвержден: месяц примут заново после того, как год откроют для изменений");
  expect(within(frozen).queryByText("Принять заново")).toBeNull();
  const row = screen.getByText(`10.${year}`).closest("tr")!;
  expect(row.textContent?.replace(/\s/g, " ")).toContain("Данные АГК изменились после принятия: +5,56 %");
  await app.user.click(within(row).getByText("Принять заново").closest("button")!);
  const dialog = (await screen.findByText(`Принять заново: Ствол № 2, 10.${year}`, { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  expect(dialog.textContent).toContain("Расчет месяца получит новую версию");
  const ok = within(dialog)
    .getAllByText("Принять заново")
    .map((e) => e.closest("button")!)
    .find((b) => b?.className.includes("primary"))!;
  expect(ok.disabled).toBe(true);
  await setField(app.user, within(dialog).getByLabelText("Почему месяц принимается заново"), "Второй файл");
  await waitFor(() => expect(ok.disabled).toBe(false));
  await app.user.click(ok);
  await waitFor(() => expect(app.api.calls("acceptMonitoringOffers")).toHaveLength(1));
  expect(app.api.calls("acceptMonitoringOffers")[0].body).toEqual({
    facility: "f1",
    point: "p1",
    months: [`${year}-10`],
    project: "pr1",
    reason: "Второй файл",
  });
});

it("says to create a project of the month's year when the facility has none, offering only that year's", async () => {
  const year = new Date(TEST_NOW).getFullYear();
  app = openPage(page, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [])
      .on("listProjects", { results: [project({ id: "pr0", name: "Прошлый год", facility: "f1", reporting_year: year - 1 })], count: 1 })
      .on("listMonitoringPointChannels", CHANNELS)
      .on("listMonitoringOffers", [offer(`${year}-03`, 0.99)]),
  );
  const row = (await screen.findByText(`03.${year}`)).closest("tr")!;
  await app.user.click(within(row).getByText("Принять").closest("button")!);
  const dialog = (await screen.findByText(`Принять: Ствол № 2, 03.${year}`, { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  await within(dialog).findByText(`Нет проекта этой площадки на ${year} год: создайте проект площадки на ${year} год`);
  expect(within(dialog).queryByLabelText("Проект")).toBeNull();
  expect(dialog.textContent).not.toContain("Прошлый год");
});

it("asks what a drainage meter placed after a take-off measures, and sends the answer (D92)", async () => {
  const year = new Date(TEST_NOW).getFullYear();
  app = openPage(page, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [])
      .on("listProjects", { results: [project({ id: "pr1", name: "Замеры", facility: "f1", reporting_year: year })], count: 1 })
      .on("listMonitoringPointChannels", CHANNELS)
      .on("listMonitoringOffers", [{ ...offer(`${year}-03`, 0.99), basis_asked: true }])
      .on("acceptMonitoringOffers", () => [
        { ...offer(`${year}-03`, 0.99), basis_asked: true, accepted: acceptedMonth({ changed: false }) },
      ]),
  );
  const row = (await screen.findByText(`03.${year}`)).closest("tr")!;
  await app.user.click(within(row).getByText("Принять").closest("button")!);
  const dialog = (await screen.findByText(`Принять: Ствол № 2, 03.${year}`, { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(dialog);
  expect(dialog.textContent).toContain("Счетчик установки стоит после отбора газа на использование");
  await app.user.click(inside.getByLabelText("Проект"));
  await app.user.click(await screen.findByText("Замеры"));
  const ok = inside
    .getAllByText("Принять")
    .map((e) => e.closest("button")!)
    .find((b) => b.className.includes("primary"))!;
  // Not without the answer.
  expect(ok.disabled).toBe(true);
  await app.user.click(inside.getByLabelText("весь каптированный газ (валовый)"));
  await waitFor(() => expect(ok.disabled).toBe(false));
  await app.user.click(ok);
  await waitFor(() => expect(app.api.calls("acceptMonitoringOffers")).toHaveLength(1));
  expect(app.api.calls("acceptMonitoringOffers")[0].body).toEqual({
    facility: "f1",
    point: "p1",
    months: [`${year}-03`],
    project: "pr1",
    basis: "gross",
  });
});

it("says a month's minutes «под сомнением» and takes a reason before accepting it (D94)", async () => {
  const year = new Date(TEST_NOW).getFullYear();
  const doubt = {
    text: `ВС2-CH4: показания под сомнением: датчик не прошел проверку 03.03.${year} — 2\u00a0880 мин`,
    sensors: [{ code: "ВС2-CH4", minutes: 2880, why: [`датчик не прошел проверку 03.03.${year}`] }],
  };
  app = openPage(page, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [])
      .on("listProjects", { results: [project({ id: "pr1", name: "Замеры", facility: "f1", reporting_year: year })], count: 1 })
      .on("listMonitoringPointChannels", CHANNELS)
      .on("listMonitoringOffers", [{ ...offer(`${year}-03`, 0.99), doubt }])
      .on("acceptMonitoringOffers", () => [{ ...offer(`${year}-03`, 0.99), doubt, accepted: acceptedMonth({ changed: false }) }]),
  );
  const row = (await screen.findByText(`03.${year}`)).closest("tr")!;
  expect(row.textContent).toContain(doubt.text);
  await app.user.click(within(row).getByText("Принять").closest("button")!);
  const dialog = (await screen.findByText(`Принять: Ствол № 2, 03.${year}`, { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(dialog);
  expect(dialog.textContent).toContain("Показания сохранены и учтены, не замещены: укажите причину");
  await app.user.click(inside.getByLabelText("Проект"));
  await app.user.click(await screen.findByText("Замеры"));
  const ok = inside
    .getAllByText("Принять")
    .map((e) => e.closest("button")!)
    .find((b) => b.className.includes("primary"))!;
  // 99 % complete, yet not without a reason.
  expect(ok.disabled).toBe(true);
  await app.user.type(inside.getByLabelText("Причина"), "Датчик заменен 05.03");
  await waitFor(() => expect(ok.disabled).toBe(false));
  await app.user.click(ok);
  await waitFor(() => expect(app.api.calls("acceptMonitoringOffers")).toHaveLength(1));
  expect(app.api.calls("acceptMonitoringOffers")[0].body).toMatchObject({ months: [`${year}-03`], reason: "Датчик заменен 05.03" });
});
