// @vitest-environment happy-dom
// «Проверить расчет»: the day typed «01.06.2026» asks its stored minutes, which the
// page folds and evaluates with the core's code — an open flare's two hours, flame proven in the first
// and lost for 7 minutes in the second, the rest of the day without data — and shows each hour with
// its efficiency and methane destroyed and the deviations in the period's words; a day the server
// refuses is said under the field.
import { screen, waitFor } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import type { ClimateDayMinutes } from "@server/contract";
import { closeApp, openPart, type OpenApp, setField } from "../../testing/render-app";
import { failure } from "../../testing/contract-api";
import { ClimateDayCheck } from "./ClimateDayCheck";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

/** 2026-06-01 00:00 in Novokuznetsk (UTC+7). */
const START = Date.UTC(2026, 4, 31, 17);

/** A meter's reading at :30 of each of the day's first two hours' minutes. */
function meter(code: string, kind: ClimateDayMinutes["meters"][number]["kind"], value: (m: number) => number) {
  const minutes = Array.from({ length: 120 }, (_, m) => m);
  return {
    code,
    kind,
    valid_from_utc: null,
    valid_to_utc: null,
    times: minutes.map((m) => START + m * 60_000 + 30_000),
    values: minutes.map(value),
  };
}

const DAY: ClimateDayMinutes = {
  date: "2026-06-01",
  start_utc: new Date(START).toISOString(),
  hours: 24,
  zone: "Asia/Novokuznetsk",
  devices: [
    {
      name: "Ф-1",
      point: "pt1",
      kind: "flare_open",
      flow_basis: "standard_20C",
      eta_option: null,
      sensors: { q: "Q-1", c: "C-1", flame: "FL-1" },
    },
  ],
  e_own_sensor: null,
  meters: [
    meter("Q-1", "flow", () => 20),
    meter("C-1", "methane_high", () => 40),
    meter("FL-1", "flame", (m) => (m >= 80 && m < 87 ? 0 : 1)),
  ],
};

const text = (element: Element) => (element.textContent ?? "").replace(/[\u00a0\u202f]/g, " ");

it("evaluates the typed day's stored minutes in the page and shows its hours and deviations", async () => {
  app = openPart(<ClimateDayCheck project="p1" />, (api) => api.on("climateDayMinutes", DAY));
  await setField(app.user, screen.getByLabelText("День"), "01.06.2026");
  await app.user.tab();
  await app.user.click(screen.getByRole("button", { name: "Проверить расчет" }));
  const result = await screen.findByTestId("climate-day-check-result");
  expect(app.api.calls("climateDayMinutes")[0].query.get("date")).toBe("2026-06-01");
  // 20 m³/min × 40 % × 60 min = 480 m³ of CH4 an hour, 0,32064 t at 0,668 kg/m³; the open flare's 0,5.
  // The tables' code loads with them (shared/LazyTable.tsx): the hours' rows, then the deviations'.
  await waitFor(() => expect(result.querySelectorAll("tr.ant-table-row").length).toBeGreaterThan(4));
  const rows = [...result.querySelectorAll("tr.ant-table-row")].map((row) => text(row));
  expect(rows[0]).toMatch(/^01\.06\.2026 00:00Ф-11.*0,320640.*0,500.*0,160320/);
  expect(rows[1]).toMatch(/^01\.06\.2026 01:00Ф-11.*0,320640.*0,000.*нет пламени.*0,000000/);
  expect(rows[2]).toMatch(/^01\.06\.2026 02:00 – 23:00Ф-122нет данных/);
  expect(text(result)).toContain("метан, направленный на устройства, 0,641280 т, уничтожен 0,160320 т");
  expect(text(result)).toContain("уничтожение не подтверждено");
  expect(text(result)).toContain("нет пламени; метан 0,321 т");
});

it("says under the field why the server refuses the day", async () => {
  app = openPart(<ClimateDayCheck project="p1" />, (api) =>
    api.on("climateDayMinutes", () => failure(400, [["date", "этот день еще не наступил"]])),
  );
  await setField(app.user, screen.getByLabelText("День"), "01.06.2027");
  await app.user.tab();
  await app.user.click(screen.getByRole("button", { name: "Проверить расчет" }));
  await waitFor(() => expect(screen.getByText("этот день еще не наступил")).toBeTruthy());
  expect(screen.queryByTestId("climate-day-check-result")).toBeNull();
});
