// @vitest-environment happy-dom
// «События» of a facility (D64, D65): a date typed key by key and the first shift chosen ask for the
// events overlapping 00:00–08:00 on the company's clock (UTC+7: 17:00–01:00 UTC); each shown with
// its times on that clock, its level in words, its peak the Russian way, a stale channel as «нет
// данных N»; one acknowledged with a comment typed into the dialog, then shown with who and when;
// the advisory note on the screen and in the dialog; the shift's report offered once a shift is chosen.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { ADVISORY_NOTE } from "@core/monitoring";
import { methaneLimitsInForce, signedInUser } from "../../../testing/fixtures";
import { closeApp, openPage, type OpenApp, setField } from "../../../testing/render-app";
import EventsPage from "./EventsPage";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const AT = "2026-03-01T03:00:00.000Z";
const register = {
  code: "М-7",
  kind: "methane" as const,
  point: null,
  role: "cut_off" as const,
  working: "Лава 12-1",
  section: "Выемочный участок 12-1",
  place: "longwall_return" as const,
  warning: 1,
  alarm: 2,
  area_m2: null,
  conditions: "standard" as const,
  in_service_from: null,
  in_service_to: null,
};
const SENSOR = {
  id: "s1",
  company: "company-1",
  facility: "f1",
  ...register,
  is_active: true,
  revisions: [{ ...register, valid_from: "1970-01-01T00:00:00.000Z" }],
  created_at: AT,
  updated_at: AT,
  version: 1,
};
const event = (changes: Record<string, unknown>) => ({
  id: "f1.s1.t.alarm.x",
  facility: "f1",
  sensor: "s1",
  sensor_code: "М-7",
  working: "Лава 12-1",
  kind: "threshold",
  level: "alarm",
  threshold: 2,
  start: "2026-03-01T17:05:00.000Z",
  end: "2026-03-01T17:07:00.000Z",
  peak: 2.2,
  peak_at: "2026-03-01T17:05:00.000Z",
  minutes_above: 2,
  shift: { date: "2026-03-02", number: 1 },
  forecast: null,
  fault: null,
  acknowledged_by: null,
  acknowledged_at: null,
  comment: "",
  ...changes,
});
const ALARM = event({});
const NO_GASSINGS = {
  facility: "f1",
  facility_name: "",
  from: "",
  to: "",
  zone: "Asia/Novokuznetsk",
  results: [],
  processing: null,
  issued_at: AT,
};
const STALE = event({
  id: "f1.s1.s.none.y",
  kind: "stale",
  level: null,
  threshold: null,
  start: "2026-03-01T17:40:00.000Z",
  end: null,
  peak: null,
  peak_at: null,
  minutes_above: 1250,
});

it("asks for the shift's events on the company's clock, shows them in words and acknowledges one with a comment", async () => {
  let acknowledged: unknown = null;
  app = openPage({ path: "/facilities/f1/events", route: "/facilities/:facilityId/events", page: <EventsPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listMethaneLimits", methaneLimitsInForce())
      .on("listFacilities", [])
      .on("listSensors", [SENSOR])
      .on("listSensorEvents", () => ({ results: [acknowledged ?? ALARM, STALE], count: 2, demo: false }))
      .on("listMonitoringGassings", NO_GASSINGS)
      .on("acknowledgeSensorEvent", ({ body }) => {
        acknowledged = {
          ...ALARM,
          acknowledged_by: "demo@example.com",
          acknowledged_at: "2026-03-01T17:30:00.000Z",
          comment: (body as { comment: string }).comment,
        };
        return acknowledged;
      }),
  );
  expect(await screen.findByText(ADVISORY_NOTE)).toBeTruthy();
  // The events' card loads with its table (EventCells.tsx, lazy): its buttons are in once it is.
  expect((await screen.findByText("Отчет смены (xlsx)")).closest("button")!.disabled).toBe(true);
  const date = screen.getByLabelText("Дата");
  await app.user.clear(date);
  await app.user.type(date, "02.03.2026");
  await app.user.click(screen.getByLabelText("Смена"));
  // the third shift read «3-я (16:00–00:00)» here, «3-я (16:00–24:00)» on the journal
  // and «Смена 3 (16:00–00:00)» in the files: one name everywhere (shiftName).
  expect(await screen.findByText("Смена 3 (16:00–24:00)", { selector: ".ant-select-item-option-content" })).toBeTruthy();
  await app.user.click(await screen.findByText("Смена 1 (00:00–08:00)"));
  await waitFor(() => expect(app.api.calls("listSensorEvents").at(-1)?.query.get("from")).toBe("2026-03-01T17:00:00.000Z"));
  expect(app.api.calls("listSensorEvents").at(-1)?.query.get("to")).toBe("2026-03-02T01:00:00.000Z");
  expect(screen.getByText("Отчет смены (xlsx)").closest("button")!.disabled).toBe(false);

  const alarm = (await screen.findByText("Аварийный (A)")).closest("tr")!;
  expect(alarm.textContent).toContain("02.03.2026 00:05");
  expect(alarm.textContent).toContain("02.03.2026 00:07");
  expect(alarm.textContent).toContain("Смена 1 (00:00–08:00), 02.03");
  expect(alarm.textContent).toContain("2,20");
  expect(alarm.textContent).not.toContain("s1");
  const stale = screen.getByText("нет данных 1 250").closest("tr")!;
  expect(stale.textContent).toContain("продолжается");

  await app.user.click(within(alarm).getByText("Квитировать").closest("button")!);
  const dialog = (await screen.findByText("Квитировать: М-7, 02.03.2026 00:05", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  expect(dialog.textContent).toContain("Превышение: Аварийный (A), Лава 12-1, пик 2,20 % об.");
  expect(dialog.textContent).toContain(ADVISORY_NOTE);
  await setField(app.user, within(dialog).getByLabelText("Комментарий"), "Проветривание усилено");
  const ok = within(dialog)
    .getAllByText("Квитировать")
    .map((e) => e.closest("button")!)
    .find((b) => b.className.includes("primary"))!;
  await app.user.click(ok);
  await waitFor(() => expect(app.api.calls("acknowledgeSensorEvent")).toHaveLength(1));
  expect(app.api.calls("acknowledgeSensorEvent")[0].body).toEqual({ comment: "Проветривание усилено" });
  const row = (await screen.findByText("«Проветривание усилено»")).closest("tr")!;
  expect(row.textContent).toContain("demo@example.com, 02.03.2026 00:30");
});

it("filters by working and level, and says a date that is none", async () => {
  app = openPage({ path: "/facilities/f1/events", route: "/facilities/:facilityId/events", page: <EventsPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listMethaneLimits", methaneLimitsInForce())
      .on("listFacilities", [])
      .on("listSensors", [SENSOR])
      .on("listSensorEvents", { results: [], count: 0, demo: false })
      .on("listMonitoringGassings", NO_GASSINGS),
  );
  await screen.findByText("Событий нет");
  await app.user.click(screen.getByLabelText("Выработка"));
  await app.user.click(await screen.findByText("Лава 12-1", { selector: ".ant-select-item-option-content" }));
  await app.user.click(screen.getByLabelText("Уровень"));
  await app.user.click(await screen.findByText("Предупредительный (W)"));
  await waitFor(() => expect(app.api.calls("listSensorEvents").at(-1)?.query.get("level")).toBe("warning"));
  expect(app.api.calls("listSensorEvents").at(-1)?.query.get("working")).toBe("Лава 12-1");
  // The date typed key by key is the first test's; here it is set at once.
  await setField(app.user, screen.getByLabelText("Дата"), "31.02.2026");
  expect(await screen.findByText("Дата в виде ДД.ММ.ГГГГ")).toBeTruthy();
});

it("shows a forecast event's horizon, probability and whether it came true (D65)", async () => {
  const FORECAST = event({
    id: "f1.s1.f.alarm.z.h30",
    kind: "forecast",
    peak: null,
    peak_at: null,
    minutes_above: 4,
    forecast: { horizon_min: 30, probability: 0.7, came_true: true },
  });
  const PENDING = event({
    ...FORECAST,
    id: "f1.s1.f.alarm.w.h60",
    start: "2026-03-01T17:40:00.000Z",
    end: null,
    forecast: { horizon_min: 60, probability: 0.55, came_true: null },
  });
  app = openPage({ path: "/facilities/f1/events", route: "/facilities/:facilityId/events", page: <EventsPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listMethaneLimits", methaneLimitsInForce())
      .on("listFacilities", [])
      .on("listSensors", [SENSOR])
      .on("listSensorEvents", { results: [FORECAST, PENDING], count: 2, demo: false })
      .on("listMonitoringGassings", NO_GASSINGS),
  );
  const came = (await screen.findByText("на 30 мин, P 0,70, сбылся: да")).closest("tr")!;
  expect(came.textContent).toContain("Прогноз превышения");
  expect(came.textContent).toContain("Аварийный (A)");
  expect(screen.getByText("на 60 мин, P 0,55, сбылся: еще неизвестно")).toBeTruthy();
});

// a reading out of the meter's range is a sensor fault of its own, not a level's crossing.
it("shows a sensor's fault with what its minutes were set aside for, and lets one filter by it", async () => {
  const FAULT = event({
    id: "f1.s1.q.none.v",
    kind: "fault",
    level: null,
    threshold: null,
    peak: null,
    peak_at: null,
    minutes_above: 5,
    fault: { range_minutes: 3, jump_minutes: 2 },
  });
  app = openPage({ path: "/facilities/f1/events", route: "/facilities/:facilityId/events", page: <EventsPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listMethaneLimits", methaneLimitsInForce())
      .on("listFacilities", [])
      .on("listSensors", [SENSOR])
      .on("listSensorEvents", { results: [FAULT], count: 1, demo: false })
      .on("listMonitoringGassings", NO_GASSINGS),
  );
  const row = (await screen.findByText("Неисправность датчика")).closest("tr")!;
  expect(row.textContent).toContain("вне диапазона датчика 3 мин, скачки больше допустимого 2 мин");
  expect(row.textContent).toContain("отбраковано 5");
  expect(row.textContent).not.toContain("Аварийный");
  await app.user.click(screen.getByLabelText("Вид"));
  await app.user.click(await screen.findByText("Неисправность датчика", { selector: ".ant-select-item-option-content" }));
  await waitFor(() => expect(app.api.calls("listSensorEvents").at(-1)?.query.get("kind")).toBe("fault"));
});

// a dispatcher acknowledges several events at once with one comment; one acknowledged
// but still going stays listed and says so.
it("acknowledges the events ticked at once with one comment, and marks one acknowledged while it goes on", async () => {
  const WARNING = event({ id: "f1.s1.t.warning.x", level: "warning", threshold: 1, start: "2026-03-01T17:03:00.000Z" });
  let acknowledged: string[] = [];
  const ack = (e: ReturnType<typeof event>, comment: string) =>
    acknowledged.includes(e.id as string)
      ? { ...e, acknowledged_by: "demo@example.com", acknowledged_at: "2026-03-01T17:30:00.000Z", comment }
      : e;
  app = openPage({ path: "/facilities/f1/events", route: "/facilities/:facilityId/events", page: <EventsPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listMethaneLimits", methaneLimitsInForce())
      .on("listFacilities", [])
      .on("listSensors", [SENSOR])
      .on("listSensorEvents", () => ({
        results: [ack(ALARM, "Бригада выведена"), ack(WARNING, "Бригада выведена"), ack(STALE, "Бригада выведена")],
        count: 3,
        demo: false,
      }))
      .on("listMonitoringGassings", NO_GASSINGS)
      .on("acknowledgeSensorEvents", ({ body }) => {
        acknowledged = (body as { events: string[] }).events;
        return [ALARM, STALE].map((e) => ack(e, "Бригада выведена"));
      }),
  );
  const many = await screen.findByText("Квитировать выбранные (0)");
  expect(many.closest("button")!.disabled).toBe(true);
  await app.user.click(screen.getByLabelText("Выбрать: М-7, 02.03.2026 00:05"));
  await app.user.click(screen.getByLabelText("Выбрать: М-7, 02.03.2026 00:40"));
  await app.user.click(screen.getByText("Квитировать выбранные (2)").closest("button")!);
  const dialog = (await screen.findByText("Квитировать события: 2", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  expect(dialog.textContent).toContain("М-7, 02.03.2026 00:05: Превышение: Аварийный (A)");
  expect(dialog.textContent).toContain("М-7, 02.03.2026 00:40: Нет данных");
  await setField(app.user, within(dialog).getByLabelText("Комментарий"), "Бригада выведена");
  const ok = within(dialog)
    .getAllByText("Квитировать")
    .map((e) => e.closest("button")!)
    .find((b) => b.className.includes("primary"))!;
  await app.user.click(ok);
  await waitFor(() => expect(app.api.calls("acknowledgeSensorEvents")).toHaveLength(1));
  expect(app.api.calls("acknowledgeSensorEvents")[0].body).toEqual({ events: [ALARM.id, STALE.id], comment: "Бригада выведена" });
  // The stale channel, acknowledged and still going, stays listed and says so; the warning is still open.
  const stale = (await screen.findByText("квитировано, продолжается")).closest("tr")!;
  expect(stale.textContent).toContain("«Бригада выведена»");
  expect(screen.getAllByText("«Бригада выведена»")).toHaveLength(2);
  expect(screen.getByLabelText("Выбрать: М-7, 02.03.2026 00:03")).toBeTruthy();
  expect(screen.queryByLabelText("Выбрать: М-7, 02.03.2026 00:05")).toBeNull();
});

// D94: a gassing on a sensor «под сомнением» says so beside its sensors.
const DOUBT = "М-7: показания под сомнением: датчик не прошел проверку 01.03.2026 — 20 мин";
/** The day's general gassing as the list gives it. */
const listedGassing = (changes: Record<string, unknown> = {}) => ({
  id: "f1.g1",
  facility: "f1",
  start: "2026-03-01T20:10:00.000Z",
  end: "2026-03-01T20:30:00.000Z",
  max: 2.601,
  over_span: null,
  sudden: false,
  max_at: "2026-03-01T20:17:00.000Z",
  sensors: ["М-7", "М-8"],
  places: ["", ""],
  doubt: DOUBT,
  limits: [2, 2],
  working: "Лава 12-1",
  section: "Лава 12-1",
  kind: "общее",
  carried_over: false,
  duration_min: 20,
  found_at: "2026-03-01T20:11:00.000Z",
  corrections: [],
  split_entries: [],
  correction_reason: "",
  registered_by: null,
  registered_at: null,
  notified: { chief_engineer: null, head_ab: null, head_section: null, rostekhnadzor: null },
  comment: "",
  cause: "",
  type: null,
  onset: null,
  losses: { development_m: null, coal_t: null },
  cleared_by: "",
  cleared_at: null,
  resumed_at: null,
  investigated_by: "",
  measures: "",
  closed: false,
  closed_by: null,
  closed_at: null,
  confirmations: { head_section: null, head_ab: null, chief_engineer: null },
  ...changes,
});
const openGassings = (gassing: ReturnType<typeof listedGassing>, me = signedInUser(), processing: unknown = null) =>
  openPage({ path: "/facilities/f1/events", route: "/facilities/:facilityId/events", page: <EventsPage /> }, (api) =>
    api
      .on("getMe", () => me)
      .on("listMethaneLimits", methaneLimitsInForce())
      .on("listFacilities", [])
      .on("listSensors", [SENSOR])
      .on("listSensorEvents", { results: [], count: 0, demo: false })
      .on("listMonitoringGassings", { ...NO_GASSINGS, results: [gassing], processing }),
  );

it("says beside a gassing its sensors' minutes «под сомнением»", async () => {
  app = openGassings(listedGassing());
  await setField(app.user, screen.getByLabelText("Дата"), "02.03.2026");
  const row = (await screen.findByText(DOUBT)).closest("tr")!;
  expect(row.textContent).toContain("М-7, М-8");
  expect(screen.queryByTestId("processing")).toBeNull();
});

// The processing notice: the day's gassings beside the events say the book may be short of batches not yet read.
it("says beside the day's gassings that the book may be short while the facility's data is processed", async () => {
  const processing = { batches: 2, since: "2026-03-01T20:30:00.000Z", minutes: 3, text: "данные обрабатываются: 3 мин" };
  app = openGassings(listedGassing(), signedInUser(), processing);
  await setField(app.user, screen.getByLabelText("Дата"), "02.03.2026");
  expect((await screen.findByTestId("processing")).textContent).toContain("Книга может быть неполной: данные обрабатываются: 3 мин");
  expect(screen.getByText(DOUBT)).toBeTruthy();
});

// D102–D105: a reading questioned is listed with its sentence and answered only with what was done.
it("shows a questioned reading naming both meters and asks what was done before it is acknowledged", async () => {
  const SUSPECT = event({
    id: "f1.s1.u.airway.v",
    kind: "suspect",
    level: null,
    threshold: null,
    peak: null,
    peak_at: null,
    end: null,
    minutes_above: 75,
    suspect: {
      reason: "airway",
      text: "на исходящей меньше метана, чем приносит воздух с ДМ-2: проверьте ручным замером оба датчика",
      other_sensor: "s2",
      other_code: "ДМ-2",
      asks_hand_measurement: true,
    },
  });
  app = openPage({ path: "/facilities/f1/events", route: "/facilities/:facilityId/events", page: <EventsPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listMethaneLimits", methaneLimitsInForce())
      .on("listFacilities", [])
      .on("listSensors", [SENSOR])
      .on("listSensorEvents", { results: [SUSPECT], count: 1, demo: false })
      .on("listMonitoringGassings", NO_GASSINGS)
      .on("acknowledgeSensorEvent", ({ body }) => ({
        ...SUSPECT,
        acknowledged_by: "user@example.com",
        acknowledged_at: AT,
        comment: (body as { comment: string }).comment,
      })),
  );
  const row = (await screen.findByText("Показания под сомнением")).closest("tr")!;
  expect(row.textContent).toContain("на исходящей меньше метана, чем приносит воздух с ДМ-2");
  expect(row.textContent).toContain("под сомнением 75");
  await app.user.click(within(row).getByText("Квитировать").closest("button")!);
  const dialog = (await screen.findByText(/^Квитировать: М-7/, { selector: ".ant-modal-title" })).closest<HTMLElement>("[role=dialog]")!;
  const ok = within(dialog)
    .getAllByText("Квитировать")
    .map((e) => e.closest("button")!)
    .find((b) => b.className.includes("primary"))!;
  // Nothing typed: the button stays off and says what is asked.
  expect(ok.disabled).toBe(true);
  expect(dialog.textContent).toContain("укажите, что сделано");
  await setField(app.user, within(dialog).getByLabelText("Комментарий"), "проверен ШИ-11: 0,62 %, датчик исправен");
  expect(ok.disabled).toBe(false);
  await app.user.click(ok);
  await waitFor(() => expect(app.api.calls("acknowledgeSensorEvent")).toHaveLength(1));
  expect(app.api.calls("acknowledgeSensorEvent")[0].body).toEqual({ comment: "проверен ШИ-11: 0,62 %, датчик исправен" });
});

// D89, four eyes: the one who closed an entry is refused its confirmation, so is offered no button for it.
const closedEntry = listedGassing({ closed: true, closed_by: "Иванова А.", closed_at: "2026-03-01T21:00:00.000Z" });
it("offers the closer of an entry no confirmation he would be refused", async () => {
  app = openGassings(closedEntry, signedInUser({ duty: "chief_engineer" }));
  await setField(app.user, screen.getByLabelText("Дата"), "02.03.2026");
  await screen.findByTestId("four-eyes");
  expect(screen.queryByRole("button", { name: "Подтвердить как главный инженер" })).toBeNull();
});

it("offers another holder of the duty the confirmation of an entry he did not close", async () => {
  app = openGassings(closedEntry, signedInUser({ duty: "chief_engineer", first_name: "Игорь Петрович", last_name: "Семенов" }));
  await setField(app.user, screen.getByLabelText("Дата"), "02.03.2026");
  await screen.findByRole("button", { name: "Подтвердить как главный инженер" });
  expect(screen.queryByTestId("four-eyes")).toBeNull();
});
