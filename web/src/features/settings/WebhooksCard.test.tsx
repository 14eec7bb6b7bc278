// @vitest-environment happy-dom
// «Вебхуки» of /settings: a receiver's URL typed key by key and added; its secret shown once
// in a dialog, then listed by its first characters only; its delivery log with each state in words and
// the next attempt on the company's clock; removed after a confirmation. The advisory note is shown.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { ADVISORY_NOTE } from "@core/monitoring";
import { closeApp, openPage, setField, type OpenApp } from "../../testing/render-app";
import { WebhooksCard } from "./WebhooksCard";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const SECRET = "whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";
const delivery = (changes: Record<string, unknown>) => ({
  key: "f1.s1.t.alarm.x.closed",
  event: "f1.s1.t.alarm.x",
  event_start: "2026-03-01T17:05:00.000Z",
  event_state: "closed",
  state: "delivered",
  attempts: 1,
  last_status: 204,
  last_error: "",
  created_at: "2026-03-01T17:08:00.000Z",
  next_at: null,
  delivered_at: "2026-03-01T17:08:01.000Z",
  ...changes,
});

it("adds a webhook, shows its secret once, lists its deliveries and removes it", async () => {
  const hooks: unknown[] = [];
  app = openPage({ path: "/settings", route: "/settings", page: <WebhooksCard /> }, (api) =>
    api
      .on("listWebhooks", () => hooks)
      .on("createWebhook", ({ body }) => {
        const { url, label } = body as { url: string; label: string };
        const made = {
          id: "w1",
          url,
          label,
          secret_prefix: SECRET.slice(0, 12),
          created_at: "2026-03-01T03:00:00.000Z",
          created_by: "demo@example.com",
        };
        hooks.push(made);
        return { ...made, secret: SECRET };
      })
      .on("listWebhookDeliveries", [
        delivery({
          key: "f1.s1.s.none.y.open",
          event_start: "2026-03-01T17:40:00.000Z",
          event_state: "open",
          state: "pending",
          attempts: 1,
          last_status: 0,
          last_error: "connect ECONNREFUSED",
          delivered_at: null,
          next_at: "2026-03-01T17:41:10.000Z",
        }),
        delivery({}),
      ])
      .on("deleteWebhook", () => hooks.pop()),
  );
  await screen.findByText("Вебхуков пока нет");
  expect(screen.getByText(ADVISORY_NOTE)).toBeTruthy();
  await app.user.type(screen.getByLabelText("Адрес приемника"), "https://agk.example.ru/events");
  // The URL's typing is the point; the name is set at once.
  await setField(app.user, screen.getByLabelText("Название вебхука"), "Диспетчерская");
  await app.user.click(screen.getByText("Добавить вебхук").closest("button")!);
  await waitFor(() => expect(app.api.calls("createWebhook")).toHaveLength(1));
  expect(app.api.calls("createWebhook")[0].body).toEqual({ url: "https://agk.example.ru/events", label: "Диспетчерская" });
  const dialog = (await screen.findByText("Вебхук «Диспетчерская»", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  expect(dialog.textContent).toContain(SECRET);
  expect(dialog.textContent).toContain("показывается один раз");
  await app.user.click(within(dialog).getByText("Я сохранил секрет").closest("button")!);
  await waitFor(() => expect(document.body.textContent).not.toContain(SECRET));
  const row = (await screen.findByText("https://agk.example.ru/events")).closest("tr")!;
  expect(row.textContent).toContain(`${SECRET.slice(0, 12)}…`);

  await app.user.click(within(row).getByText("Журнал").closest("button")!);
  const waiting = (await screen.findByText("Ожидает повтора")).closest("tr")!;
  expect(waiting.textContent).toContain("02.03.2026 00:40");
  expect(waiting.textContent).toContain("открыто");
  expect(waiting.textContent).toContain("нет ответа: connect ECONNREFUSED");
  expect(waiting.textContent).toContain("следующая попытка 02.03.2026 00:41");
  const done = screen.getByText("Доставлено").closest("tr")!;
  expect(done.textContent).toContain("HTTP 204");
  expect(done.textContent).toContain("закрыто");
  expect(done.textContent).not.toContain("f1.s1");

  await app.user.click(within(row).getByText("Удалить").closest("button")!);
  const confirm = await screen.findByText("Удалить вебхук «Диспетчерская»?");
  await app.user.click(within(confirm.closest<HTMLElement>(".ant-popover")!).getByText("Удалить").closest("button")!);
  await waitFor(() => expect(app.api.calls("deleteWebhook")).toHaveLength(1));
  expect(app.api.calls("deleteWebhook")[0].params).toEqual({ id: "w1" });
  await screen.findByText("Вебхуков пока нет");
});
