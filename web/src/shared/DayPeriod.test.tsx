// @vitest-environment happy-dom
// The period of company days of the monitoring records' pages (the gassing book, the sensor checks, the
// handovers): «С» from the page's first day and «По» today on the company's clock (UTC+7: 10:00 of
// 16.11.2026), as ДД.ММ.ГГГГ; a date that does not read as one marks its field, says «Даты в виде
// ДД.ММ.ГГГГ» and disables the files; a file is saved for the typed ends (ISO), and a refusal is said.
import { screen, waitFor } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import { signedInUser } from "../testing/fixtures";
import { onTestClock } from "../testing/fakes";
import { closeApp, openPart, type OpenApp } from "../testing/render-app";
import { type DayPeriod, DayPeriodHeader, daysBefore, monthStart, useDayPeriod } from "./DayPeriod";

let app: OpenApp;
onTestClock();
afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

function Page({ first, save }: { first: (today: string) => string; save?: (from: string, to: string) => Promise<void> }) {
  const period: DayPeriod = useDayPeriod(first);
  return (
    <>
      <DayPeriodHeader period={period} files={save ? [{ label: "Книга (xlsx)", save }] : []} />
      <output data-testid="period">{`${period.from ?? "—"} ${period.to ?? "—"}`}</output>
    </>
  );
}

const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);

it("reads the first day the page chooses to today, and saves a file for the typed ends", async () => {
  const save = vi.fn(async () => {});
  app = openPart(<Page first={daysBefore(7)} save={save} />, (api) => api.on("getMe", signedInUser()));
  expect(field("С").value).toBe("09.11.2026");
  expect(field("По").value).toBe("16.11.2026");
  expect(screen.getByTestId("period").textContent).toBe("2026-11-09 2026-11-16");
  await app.user.click(screen.getByRole("button", { name: "Книга (xlsx)" }));
  expect(save).toHaveBeenCalledWith("2026-11-09", "2026-11-16");
  expect(screen.queryByText("Даты в виде ДД.ММ.ГГГГ")).toBeNull();
});

it("starts a month's period on its first day", () => {
  app = openPart(<Page first={monthStart} />, (api) => api.on("getMe", signedInUser()));
  expect(field("С").value).toBe("01.11.2026");
  expect(screen.queryByRole("button")).toBeNull();
});

it("says a date that does not read as one, and sends no file for it", async () => {
  const save = vi.fn(async () => {});
  app = openPart(<Page first={daysBefore(30)} save={save} />, (api) => api.on("getMe", signedInUser()));
  await app.user.clear(field("По"));
  await app.user.type(field("По"), "31.02.2026");
  await screen.findByText("Даты в виде ДД.ММ.ГГГГ");
  expect(screen.getByTestId("period").textContent).toBe("2026-10-17 —");
  expect(screen.getByRole("button", { name: "Книга (xlsx)" }).hasAttribute("disabled")).toBe(true);
  expect(save).not.toHaveBeenCalled();
});

it("says why a file was refused", async () => {
  const save = vi.fn(async () => {
    throw new ApiError(400, "Период не длиннее 92 дней");
  });
  app = openPart(<Page first={daysBefore(7)} save={save} />, (api) => api.on("getMe", signedInUser()));
  await app.user.click(screen.getByRole("button", { name: "Книга (xlsx)" }));
  await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("Период не длиннее 92 дней"));
});
