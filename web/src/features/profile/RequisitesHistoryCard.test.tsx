// @vitest-environment happy-dom
// Профиль, «История изменений реквизитов» (RequisitesHistoryCard.tsx): each change says when on the
// company's clock (05:00 UTC is 12:00 in Kemerovo), who, what by its Russian name («Новый датчик
// «М-7»», «Вебхук «Диспетчерская»», a base year by its label) and each field from what to what, an
// empty value as absent; a company without changes says so; a refusal is shown.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { signedInUser } from "../../testing/fixtures";
import { failure } from "../../testing/contract-api";
import { closeApp, openPart, type OpenApp } from "../../testing/render-app";
import { RequisitesHistoryCard } from "./RequisitesHistoryCard";

let app: OpenApp;
afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const change = (over: Record<string, unknown>) => ({
  id: "c1",
  at: "2026-03-02T05:00:00.000Z",
  actor_email: "agk@example.com",
  target_type: "sensor",
  target_label: "М-7",
  created: false,
  changes: [],
  ...over,
});

it("says when, who, what and each field from what to what", async () => {
  app = openPart(<RequisitesHistoryCard />, (api) =>
    api.on("getMe", signedInUser()).on("companyAudit", {
      results: [
        change({
          id: "c1",
          created: true,
          changes: [{ field: "warning", label: "Предупредительный уровень, % об.", before: "", after: "1,25" }],
        }),
        change({
          id: "c2",
          at: "2026-03-01T18:30:00.000Z",
          target_type: "webhook",
          target_label: "Диспетчерская",
          changes: [{ field: "removed", label: "Удален", before: "нет", after: "да" }],
        }),
        change({
          id: "c3",
          target_type: "base_year",
          target_label: "Базовый год 2023",
          changes: [{ field: "t_co2e", label: "Выбросы базового года", before: "2 600", after: "2 662,48" }],
        }),
        change({
          id: "c4",
          target_type: "company",
          target_label: "ООО «А»",
          changes: [{ field: "name", label: "Название", before: "ООО «А»", after: "ООО «Б»" }],
        }),
      ],
      count: 4,
    }),
  );
  // The rows once the changes have come (the table shows its empty row before).
  await screen.findByText("Новый датчик «М-7»");
  const rows = screen.getAllByRole("row");
  const text = rows.slice(1).map((row) => row.textContent);
  expect(text[0]).toContain("02.03.2026 12:00");
  expect(text[0]).toContain("agk@example.com");
  expect(text[0]).toContain("Новый датчик «М-7»Предупредительный уровень, % об.");
  expect(text[0]).toContain("Отсутствует → 1,25");
  expect(text[1]).toContain("02.03.2026 01:30");
  expect(text[1]).toContain("Вебхук «Диспетчерская»Удален");
  expect(text[1]).toContain("нет → да");
  expect(text[2]).toContain("Базовый год 2023Выбросы базового года");
  expect(text[2]).toContain("2 600 → 2 662,48");
  expect(within(rows[4]).getByText("Реквизиты компании")).toBeTruthy();
  expect(text.join(" ")).not.toContain("c1");
});

it("says when nothing was changed, and shows a refusal", async () => {
  app = openPart(<RequisitesHistoryCard />, (api) => api.on("getMe", signedInUser()).on("companyAudit", { results: [], count: 0 }));
  await waitFor(() => expect(app.api.calls("companyAudit")).toHaveLength(1));
  expect(await screen.findByText("Реквизиты и площадки еще не изменялись")).toBeTruthy();
  closeApp();
  app = openPart(<RequisitesHistoryCard />, (api) =>
    api
      .on("getMe", signedInUser())
      .on("companyAudit", () => failure(403, "Недостаточно прав: историю изменений реквизитов видят проверяющий и администратор")),
  );
  expect(await screen.findByText("Недостаточно прав: историю изменений реквизитов видят проверяющий и администратор")).toBeTruthy();
});

it("names a drainage month whose basis the platform corrected as such, by «система» (D92)", async () => {
  app = openPart(<RequisitesHistoryCard />, (api) =>
    api.on("getMe", signedInUser()).on("companyAudit", {
      results: [
        change({
          actor_email: "system",
          target_type: "accepted_month_basis",
          target_label: "Дегазационная установка, 03.2026 (по данным АГК) (Шахта «Замер»)",
          changes: [{ field: "basis", label: "Основа учета", before: "чистый", after: "валовый" }],
        }),
      ],
      count: 1,
    }),
  );
  await screen.findByText("Основа месяца по данным АГК исправлена: Дегазационная установка, 03.2026 (по данным АГК) (Шахта «Замер»)");
  const [row] = screen.getAllByRole("row").slice(1);
  expect(row.textContent).toContain("система");
  expect(row.textContent).not.toContain("system");
  expect(row.textContent).not.toContain("принят заново");
  expect(row.textContent).toContain("чистый → валовый");
});
