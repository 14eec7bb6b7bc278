// @vitest-environment happy-dom
// The «Датчики» screens of readings (D58–D62): the completeness heat map by sensor and month, each cell
// saying its percent and «≥ 95 %» or «< 95 %» in words and linking to the month's gaps; the gaps of a
// month with their start and end on the company's clock, «Замещено» or «Нет данных», the D60 rule with
// its figures («(0,44 + 0,46) / 2 = 0,45») and the cause; a sensor's day with its levels, its summary and
// each run of flagged or substituted minutes in words.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { closeApp, leftFor, openPage, type OpenApp } from "../../../testing/render-app";
import SensorCompletenessPage from "./SensorCompletenessPage";
import SensorGapsPage from "./SensorGapsPage";
import SensorDayPage from "./SensorDayPage";
import { DEMO_READINGS_NOTE } from "../DemoReadingsAlert";
import { atPhoneWidth } from "../../../testing/dom-globals";
import { isoDateIn, zoneOf } from "@core/company-clock";
import { signedInUser } from "../../../testing/fixtures";
import { TEST_NOW, onTestClock } from "../../../testing/fakes";
import { failure } from "../../../testing/contract-api";

let app: OpenApp;
onTestClock();
/** Russian numbers group thousands with a no-break space. */
const plain = (text: string | null | undefined) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const head = {
  id: "s1",
  code: "М-12",
  kind: "methane" as const,
  unit: "% об.",
  point: "p1",
  point_name: "Вентиляционный ствол",
  working: "",
  section: "",
  place: "shaft" as const,
  is_active: true,
};
const month = (m: string, valid: number, substituted: number, expected: number, gap: number) => ({
  month: m,
  minutes: { expected, valid, substituted, missing: expected - valid - substituted },
  completeness: (valid + substituted) / expected,
  longest_gap_min: gap,
});

describe("«Полнота данных датчиков»", () => {
  it("says each month's completeness in words and links it to the month's gaps", async () => {
    const year = new Date(TEST_NOW).getFullYear();
    app = openPage(
      { path: "/facilities/f1/completeness", route: "/facilities/:facilityId/completeness", page: <SensorCompletenessPage /> },
      (api) =>
        api.on("listFacilities", []).on("sensorCompleteness", ({ query }) => {
          expect(query.get("year")).toBe(String(year));
          return [
            {
              ...head,
              months: [month(`${year}-03`, 43_000, 200, 44_640, 1_440), month(`${year}-04`, 41_640, 0, 43_200, 1_560)],
              demo: false,
            },
            { ...head, id: "s2", code: "АН-3", kind: "air_velocity" as const, unit: "м/с", is_active: false, months: [], demo: false },
          ];
        }),
    );
    const map = await screen.findByLabelText("Полнота данных датчиков по месяцам");
    const march = within(map).getByLabelText(`М-12, 03.${year}: полнота 96,77 %; пропуски и замещения`);
    expect(march.textContent).toBe("96,77 %✓ ≥ 95 %");
    expect(march.getAttribute("href")).toBe(`/facilities/f1/sensors/s1/gaps?month=${year}-03`);
    const april = within(map).getByLabelText(`М-12, 04.${year}: полнота 96,39 %; пропуски и замещения`);
    expect(april.textContent).toContain("✓ ≥ 95 %");
    expect(within(map).getByLabelText(`М-12, 05.${year}: не в эксплуатации или нет данных`).textContent).toBe("—");
    const retired = within(map).getByText("АН-3").closest("tr")!;
    expect(retired.textContent).toContain("(выведен)");
    expect(retired.textContent).toContain("Скорость воздуха, м/с · Ствол (канал вентилятора) · Вентиляционный ствол");
    await app.user.click(march);
    expect(leftFor()).toBe(`/facilities/f1/sensors/s1/gaps?month=${year}-03`);
  });

  it("marks a month below 95 % with a sign and words, not colour alone", async () => {
    app = openPage(
      { path: "/facilities/f1/completeness", route: "/facilities/:facilityId/completeness", page: <SensorCompletenessPage /> },
      (api) =>
        api
          .on("listFacilities", [])
          .on("sensorCompleteness", ({ query }) => [
            { ...head, months: [month(`${query.get("year")}-02`, 50, 10, 40_320, 30_000)], demo: true },
          ]),
    );
    const cell = await screen.findByLabelText(/М-12, 02\.\d{4}: полнота 0,15 %, ниже 95 %/);
    expect(cell.textContent).toBe("0,15 %! < 95 %");
    // The demo mine's simulated readings say so (demo-readings.ts).
    expect(screen.getByText(DEMO_READINGS_NOTE)).toBeTruthy();
  });
});

describe("«Пропуски и замещения»", () => {
  it("lists the month's gaps with the D60 rule, its figures and the cause, and moves a month back", async () => {
    const gaps = {
      sensor: head,
      month: "2026-03",
      minutes: { expected: 44_640, valid: 50, substituted: 10, missing: 44_580 },
      completeness: 60 / 44_640,
      longest_gap_min: 23_820,
      count: 3,
      demo: false,
      gaps: [
        {
          start: "2026-02-28T17:00:00.000Z",
          end: "2026-03-15T03:00:00.000Z",
          minutes: 20_760,
          state: "missing" as const,
          rule: "too_long" as const,
          before: null,
          after: 0.44,
          value: null,
          flags: { none: 20_760, range: 0, stuck: 0, jump: 0 },
        },
        {
          start: "2026-03-15T03:20:00.000Z",
          end: "2026-03-15T03:30:00.000Z",
          minutes: 10,
          state: "substituted" as const,
          rule: "mean" as const,
          before: 0.44,
          after: 0.46,
          value: 0.45,
          flags: { none: 9, range: 1, stuck: 0, jump: 0 },
        },
        {
          start: "2026-03-15T04:00:00.000Z",
          end: "2026-03-31T17:00:00.000Z",
          minutes: 23_820,
          state: "missing" as const,
          rule: "too_long" as const,
          before: 0.46,
          after: null,
          value: null,
          flags: { none: 23_820, range: 0, stuck: 0, jump: 0 },
        },
      ],
    };
    app = openPage(
      {
        path: "/facilities/f1/sensors/s1/gaps?month=2026-03",
        route: "/facilities/:facilityId/sensors/:sensorId/gaps",
        page: <SensorGapsPage />,
      },
      (api) => api.on("sensorGaps", ({ query }) => ({ ...gaps, month: query.get("month")!, count: 3 })),
    );
    const row = (await screen.findByText("(0,44 + 0,46) / 2 = 0,45", { exact: false })).closest("tr")!;
    // 03:20 UTC is 10:20 in Kemerovo (the company's clock).
    expect(row.textContent).toContain("15.03.2026 10:20");
    expect(row.textContent).toContain("15.03.2026 10:30");
    expect(row.textContent).toContain("Замещено");
    expect(row.textContent).toContain("нет показаний: 9 мин; вне физического диапазона: 1 мин");
    const last = [...document.querySelectorAll("tbody tr")].find((r) => plain(r.textContent).includes("01.04.2026 00:00"))!;
    expect(plain(last.textContent)).toContain("23 820Нет данных");
    expect(last.textContent).toContain("не замещается: пропуск длиннее 24 ч");
    expect(document.body.textContent).toContain("среднее достоверных значений непосредственно до и после пропуска");
    expect(plain(document.body.textContent)).toContain("Наибольший пропуск23 820 мин");
    expect(document.body.textContent).toContain("0,13 % (ниже 95 %)");
    expect(within(row).getByText("Сутки").getAttribute("href")).toBe("/facilities/f1/sensors/s1/day?date=2026-03-15");
    await app.user.click(screen.getByText("‹ Предыдущий месяц").closest("button")!);
    await waitFor(() => expect(screen.getByTestId("gaps-month").textContent).toBe("02.2026"));
    await waitFor(() => expect(app.api.calls("sensorGaps").map((c) => c.query.get("month"))).toContain("2026-02"));
    expect(app.api.calls("sensorGaps")[0].query.get("limit")).toBe("50");
  });
});

describe("«Пропуски и замещения» on a phone", () => {
  it("shows each gap as a block of lines, its rule, cause and day in sight (the table showed only its start and end)", async () => {
    atPhoneWidth();
    const gap = {
      start: "2026-03-15T03:20:00.000Z",
      end: "2026-03-15T03:30:00.000Z",
      minutes: 10,
      state: "substituted" as const,
      rule: "mean" as const,
      before: 0.44,
      after: 0.46,
      value: 0.45,
      flags: { none: 10, range: 0, stuck: 0, jump: 0 },
    };
    const minutes = { expected: 44_640, valid: 44_630, substituted: 10, missing: 0 };
    app = openPage(
      {
        path: "/facilities/f1/sensors/s1/gaps?month=2026-03",
        route: "/facilities/:facilityId/sensors/:sensorId/gaps",
        page: <SensorGapsPage />,
      },
      (api) =>
        api.on("sensorGaps", {
          sensor: head,
          month: "2026-03",
          minutes,
          completeness: 1,
          longest_gap_min: 10,
          count: 1,
          demo: false,
          gaps: [gap],
        }),
    );
    const block = (await screen.findByText("(0,44 + 0,46) / 2 = 0,45", { exact: false })).closest<HTMLElement>(
      "[data-testid=stacked-rows]",
    )!;
    expect(block.querySelector("table")).toBeNull();
    for (const shown of ["Начало", "15.03.2026 10:20", "Конец", "15.03.2026 10:30", "Замещено", "нет показаний: 10 мин"]) {
      expect(block.textContent).toContain(shown);
    }
    expect(within(block).getByText("Сутки").getAttribute("href")).toBe("/facilities/f1/sensors/s1/day?date=2026-03-15");
  });
});

describe("«Сутки датчика»", () => {
  it("gives the day's summary, levels and each run of flagged or substituted minutes in words", async () => {
    const n = 1440;
    const value: (number | null)[] = Array(n).fill(null);
    const flag: number[] = Array(n).fill(4);
    const used: (number | null)[] = Array(n).fill(null);
    const state: number[] = Array(n).fill(2);
    for (let m = 600; m < 660; m++) {
      const v = m < 620 ? 0.44 : m < 630 ? null : 0.46;
      value[m] = v;
      flag[m] = v === null ? 4 : 0;
      used[m] = v ?? 0.45;
      state[m] = v === null ? 1 : 0;
    }
    value[640] = 2;
    flag[640] = 3;
    used[640] = 0.46;
    state[640] = 1;
    const day = {
      sensor: head,
      date: "2026-03-15",
      start: "2026-03-14T17:00:00.000Z",
      window: { from: 0, to: n },
      levels: { pre_warning: 0.9, warning: 1, alarm: 1.5 },
      value,
      flag,
      used,
      state,
      summary: {
        minutes: { expected: n, valid: 49, substituted: 11, missing: 1380 },
        flagged: { range: 0, stuck: 0, jump: 1 },
        mean_with_substituted: 0.451833,
        mean_valid: 0.452,
        min: 0.44,
        max: 0.46,
        above_pre_warning: 0,
        above_warning: 0,
        above_alarm: 0,
      },
      demo: false,
    };
    app = openPage(
      {
        path: "/facilities/f1/sensors/s1/day?date=2026-03-15",
        route: "/facilities/:facilityId/sensors/:sensorId/day",
        page: <SensorDayPage />,
      },
      (api) => api.on("getMe", () => signedInUser()).on("sensorDay", ({ query }) => ({ ...day, date: query.get("date")! })),
    );
    await screen.findByText("Сутки датчика М-12: 15.03.2026");
    const text = () => plain(document.body.textContent);
    expect(text()).toContain("Минут в эксплуатации1 440Достоверных49Замещенных11Нет данных1 380");
    expect(text()).toContain("Вне диапазона (D58)0Залипание (D58)0Скачок (D58)1");
    // each mean named for what it is (both read «Среднее»).
    expect(text()).toContain(
      "Среднее с замещенными минутами, % об.0,451833Среднее достоверных минут (как в журнале), % об.0,452Минимум, % об.0,44Максимум, % об.0,46",
    );
    expect(text()).toContain("0,9·W = 0,9; W = 1; A = 1,5");
    expect(text()).toContain("Минут ≥ 0,9·W0Минут ≥ W0Минут ≥ A0");
    expect(await screen.findByRole("figure", { name: "М-12: минутные значения" })).toBeTruthy();
    const runs = await screen.findByText("Отметки качества и замещения: 4");
    const table = runs.closest(".ant-card")!;
    const rows = [...table.querySelectorAll("tbody tr")].map((r) => plain(r.textContent));
    expect(rows).toEqual([
      "00:00–09:59 (600 мин)нет показаний — нет данных",
      "10:20–10:29 (10 мин)нет показаний — замещено: 0,45",
      "10:40 (1 мин)скачок больше допустимого за минуту — замещено: 0,46",
      "11:00–23:59 (780 мин)нет показаний — нет данных",
    ]);
    await app.user.click(screen.getByText("Следующие сутки ›").closest("button")!);
    await waitFor(() => expect(app.api.calls("sensorDay").map((c) => c.query.get("date"))).toContain("2026-03-16"));
  });

  // «Следующие сутки» led to a day not yet begun.
  it("offers no day that has not begun on the company's clock", async () => {
    const today = isoDateIn(new Date(TEST_NOW), zoneOf(undefined));
    app = openPage(
      {
        path: `/facilities/f1/sensors/s1/day?date=${today}`,
        route: "/facilities/:facilityId/sensors/:sensorId/day",
        page: <SensorDayPage />,
      },
      (api) => api.on("getMe", () => signedInUser()).on("sensorDay", () => failure(404, "Датчик не найден")),
    );
    const next = (await screen.findByText("Следующие сутки ›")).closest("button")!;
    expect(next.disabled).toBe(true);
    expect(screen.getByText("‹ Предыдущие сутки").closest("button")!.disabled).toBe(false);
  });
});
