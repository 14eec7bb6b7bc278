// @vitest-environment happy-dom
// «Отчет направлен» on an approved year (D32): a date typed key by key in the future or before the
// year stays in the field and says what is wrong, «Отчет направлен» waits for a right one, and the
// step then sends that date.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import type { InventoryReview } from "@server/contract";
import { COMPANY_ID, signedInUser } from "../../testing/fixtures";
import { TEST_NOW, onTestClock } from "../../testing/fakes";
import { closeApp, openPart, type OpenApp } from "../../testing/render-app";
import { ReviewPanel } from "./ReviewPanel";

let app: OpenApp;
onTestClock();

beforeAll(async () => {
  await import("../../shared/MessageHost");
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const REVIEWER = signedInUser({ id: "user-2", email: "reviewer@example.com", role: "reviewer" });

/** 2024 approved by another reviewer (version 1). */
const approved2024: InventoryReview = {
  company: COMPANY_ID,
  year: 2024,
  status: "approved",
  snapshot: { version: 1, sha256: "0".repeat(64) },
  approved_at: "2025-02-10T09:00:00.000Z",
  approved_by: "chief@example.com",
  history: [
    { action: "send_to_review", from: "draft", to: "in_review", by: "demo@example.com", at: "2025-02-01T09:00:00.000Z" },
    { action: "approve", from: "in_review", to: "approved", by: "chief@example.com", at: "2025-02-10T09:00:00.000Z" },
  ],
  comments: [],
  updated_at: "2025-02-10T09:00:00.000Z",
  version: 2,
};

it("«Отчет направлен»: a date typed in the future or before the year stays in the field and says what is wrong; a right one is sent", async () => {
  app = openPart(<ReviewPanel review={approved2024} />, (api) =>
    api
      .on("getMe", REVIEWER)
      .on("inventoryComments", { results: [], count: 0 })
      .on("inventoryVersions", [
        {
          version: 1,
          sha256: "0".repeat(64),
          approved_at: "2025-02-10T09:00:00.000Z",
          approved_by: "chief@example.com",
          total_t_co2e: 912.25,
        },
      ])
      .on("inventoryTransition", () => ({ ...approved2024, status: "submitted", version: 3 })),
  );
  const { user } = app;
  await user.click((await screen.findByText("Отчет направлен", { selector: "button *" })).closest("button")!);
  const dialog = (await screen.findByText("Отчет направлен", { selector: ".ant-modal-title" })).closest<HTMLElement>("[role=dialog]")!;
  const inside = within(dialog);
  const date = inside.getByLabelText("Дата", { exact: true }) as HTMLInputElement;
  const ok = inside.getAllByText("Отчет направлен", { selector: "button *" }).at(-1)!.closest("button")!;
  const problem = () => inside.queryByTestId("review-date-problem")?.textContent ?? null;
  const typeDate = async (value: string) => {
    await user.clear(date);
    await user.type(date, value);
    await waitFor(() => expect(date.value).toBe(value));
    await user.tab();
  };

  const future = `01.01.${new Date(TEST_NOW).getFullYear() + 2}`;
  await typeDate(future);
  await waitFor(() => expect(problem()).toBe("Дата не может быть в будущем"));
  expect(date.value).toBe(future);
  expect(ok.disabled).toBe(true);
  await typeDate("31.12.2023");
  await waitFor(() => expect(problem()).toBe("Дата не может быть раньше 2024 года, за который отчет"));
  expect(ok.disabled).toBe(true);
  await typeDate("15.03.2025");
  await waitFor(() => expect(problem()).toBeNull());
  expect(ok.disabled).toBe(false);
  await user.click(ok);
  await waitFor(() => expect(app.api.calls("inventoryTransition")).toHaveLength(1));
  expect(app.api.calls("inventoryTransition")[0].body).toEqual({ action: "submit", version: 2, date: "2025-03-15" });
});

it("in review with printed fields changed after the send: the reviewer reads them and is offered no «Утвердить»", async () => {
  const inReview: InventoryReview = {
    company: COMPANY_ID,
    year: 2024,
    status: "in_review",
    history: [{ action: "send_to_review", from: "draft", to: "in_review", by: "demo@example.com", at: "2025-02-01T09:00:00.000Z" }],
    comments: [],
    changed_after_send: ["Площадка «Шахта «Северная»», «Номер лицензии»: было «КЕМ 01234 ТЭ», стало «КЕМ 99999 ТЭ»"],
    updated_at: "2025-02-01T09:00:00.000Z",
    version: 1,
  };
  app = openPart(<ReviewPanel review={inReview} />, (api) =>
    api.on("getMe", REVIEWER).on("inventoryComments", { results: [], count: 0 }).on("inventoryVersions", []),
  );
  const alert = await screen.findByTestId("changed-after-send");
  expect(alert.textContent).toContain("Изменено после отправки на проверку: эти изменения не войдут в версию");
  expect(alert.textContent).toContain("«Номер лицензии»: было «КЕМ 01234 ТЭ», стало «КЕМ 99999 ТЭ»");
  expect(alert.textContent).toContain("верните инвентаризацию на доработку, чтобы ее отправили снова");
  await screen.findByText("Вернуть на доработку", { selector: "button *" });
  expect(screen.queryByText("Утвердить", { selector: "button *" })).toBeNull();
  expect((await screen.findByTestId("review-withheld")).textContent).toContain(
    "«Утвердить» невозможно: после отправки на проверку изменено то, что печатает версия",
  );
});

it("names each accepted month the mine's readings moved since, for the reviewer (D63)", async () => {
  const change =
    "Данные АГК изменились после принятия: «Вентиляционный ствол», 03.2024 — принято 2,172 т CH4, по показаниям сейчас 2,208 т (+1,63 %); год утвержден: его показатели не меняются";
  app = openPart(<ReviewPanel review={approved2024} readingsChanges={[change]} />, (api) =>
    api.on("getMe", REVIEWER).on("inventoryComments", { results: [], count: 0 }).on("inventoryVersions", []),
  );
  const alert = await screen.findByTestId("readings-changed");
  expect(alert.textContent).toContain("Данные АГК изменились после принятия");
  expect(within(alert).getByText(change)).toBeTruthy();
});
