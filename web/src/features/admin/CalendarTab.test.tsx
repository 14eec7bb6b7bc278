// @vitest-environment happy-dom
// The production calendar on /admin (docs/user-guide.md): the operator adds a year key by key; a day
// of another year and a weekday listed as a working weekend day are named at their fields before
// anything is sent, each message gone as it is fixed; the year saved is listed with its decree and
// its count of days off. The server's side (the same rules, the deadline counted by the year) is
// tests/e2e/web-production-calendar.test.ts's and the integration tier's.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { closeApp, openPart, setField, type OpenApp } from "../../testing/render-app";
import { CalendarTab } from "./CalendarTab";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

interface Year {
  year: number;
  decree: { title: string; number: string; date: string };
  days_off: string[];
  working_days: string[];
}

const stored = (year: Year) => ({ ...year, version: 1, updated_at: "2027-02-01T09:00:00.000Z", updated_by: "system" });
const seeded = [2024, 2025, 2026].map((year) =>
  stored({
    year,
    decree: { title: `Постановление на ${year} год`, number: "1", date: `${year - 1}-09-01` },
    days_off: [],
    working_days: [],
  }),
);

// Moved from tests/e2e/web-production-calendar.test.ts.
it("lets the operator add 2027 key by key, refusing a day of another year at its field", async () => {
  const years = [...seeded];
  app = openPart(<CalendarTab />, (api) =>
    api
      .on("adminListCalendar", () => ({ results: years, count: years.length }))
      .on("adminCreateCalendarYear", ({ body }) => {
        const year = stored(body as Year);
        years.push(year);
        return year;
      }),
  );
  const { user } = app;
  await screen.findByText("Постановление на 2026 год");
  expect(document.querySelectorAll(".ant-table-row")).toHaveLength(3);
  await user.click(screen.getByText("Добавить год").closest("button")!);
  const title = await screen.findByText("Новый год производственного календаря");
  const dialog = within(title.closest<HTMLElement>("[role=dialog]")!);
  await user.type(dialog.getByLabelText("Год", { exact: true }), "2027");
  // The decree's title is pasted: its 68 keys, each one a new measure of the auto-sized text area,
  // were most of the test, and no message depends on it.
  await user.click(dialog.getByLabelText("Постановление о переносе выходных дней"));
  await user.paste("Постановление Правительства РФ «О переносе выходных дней в 2027 году»");
  await setField(user, dialog.getByLabelText("Номер"), "1234");
  await user.click(dialog.getByLabelText("Дата постановления"));
  await user.type(dialog.getByLabelText("Дата постановления"), "15.09.2026");
  await user.tab();
  const daysOff = dialog.getByLabelText("Нерабочие дни");
  // The days of 2027 set at once; the day of another year typed key by key, its message at the field.
  await setField(user, daysOff, "01.01.2027, 04.01.2027, 05.01.2027, 06.01.2027, 07.01.2027, ");
  await user.type(daysOff, "08.01.2028");
  await dialog.findByText("08.01.2028 не относится к 2027 году");
  await user.type(daysOff, "{Backspace}7");
  await waitFor(() => expect(dialog.queryByText("08.01.2028 не относится к 2027 году")).toBeNull());
  await user.paste(", 23.02.2027, 08.03.2027");
  const working = dialog.getByLabelText("Рабочие выходные дни");
  await user.type(working, "03.11.2027");
  await dialog.findByText("03.11.2027 — среда: будний день и так рабочий");
  await user.clear(working);
  await waitFor(() => expect(dialog.queryByText("03.11.2027 — среда: будний день и так рабочий")).toBeNull());
  await user.click(dialog.getByText("Добавить").closest("button")!);
  await screen.findByText("Производственный календарь на 2027 год сохранен");
  const row = (await screen.findByText("№ 1234 от 15.09.2026")).closest<HTMLElement>(".ant-table-row")!;
  expect(row.textContent).toContain("Нерабочие дни: 8");
  expect(app.api.calls("adminCreateCalendarYear").map((call) => call.body)).toEqual([
    {
      year: 2027,
      decree: { title: "Постановление Правительства РФ «О переносе выходных дней в 2027 году»", number: "1234", date: "2026-09-15" },
      days_off: ["2027-01-01", "2027-01-04", "2027-01-05", "2027-01-06", "2027-01-07", "2027-01-08", "2027-02-23", "2027-03-08"],
      working_days: [],
    },
  ]);
});
