// D32, D33 in a real browser: a year in review disables «Добавить расчет» with the reason, the
// review panel says in Russian why an action is not offered, and the rework bypass (a reviewer who
// changed the data presses «Доработка завершена») sends the year for approval, after which the
// screen tells that reviewer why they cannot approve it. The «Отчет направлен» dialog's date checks
// are tested as a component (web/src/features/inventory/ReviewPanel.test.tsx).
// A year's review only goes forward, so each test works in a company of its own, made through the
// API with its staff, reviewer, project and calculation, and takes the year to the step it starts
// from there: any one runs alone, in any order, and a retry starts from that step again.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { screenshot } from "../support/browser";
import { accessToken, apiCaller, navigateInApp, openWebApp, signIn, type Credentials, type WebApp } from "../support/web-page";

describe("web app: why a review step is not offered", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let admin: ReturnType<typeof apiCaller>;
  /** How many companies the file has made, for its reviewers' addresses. */
  let companies = 0;

  type Caller = ReturnType<typeof apiCaller>;
  const as = async (user: Credentials): Promise<Caller> => {
    const token = await accessToken(server.url, user);
    return apiCaller(
      () => server.url,
      () => token,
    );
  };
  const step = async (who: Caller, action: string, extra: Record<string, unknown> = {}) => {
    const { review } = await who<{ review: { version: number } }>("GET", "v1/inventory/?year=2025");
    return who("POST", "v1/inventory/2025/review/", { action, version: review.version, ...extra });
  };

  /** A company of the test's own: its staff user with a project of 2025 holding a flare
   *  calculation, and its reviewer; the year not yet sent for review. */
  async function company() {
    const staffUser = await server.newUser();
    const reviewerUser = { email: `reviewer.reasons.${++companies}@example.com`, password: "reviewer-password-1" };
    const staff = await as(staffUser);
    const me = await staff<{ company: { id: string } }>("GET", "v1/users/get_me/");
    await admin("POST", `v1/admin/companies/${me.company.id}/users/`, { ...reviewerUser, role: "reviewer" });
    const reviewer = await as(reviewerUser);
    const projectId = (
      await staff<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Южная 2025",
        start_date: "2025-01-01",
        end_date: "2025-12-31",
      })
    ).id;
    const calc = await staff<{ id: string; version: number }>("POST", "v1/torch_ch4/", {
      name: "Факел",
      project: projectId,
      volume: 912.25,
      koef_transform: 0.67,
    });
    return { staffUser, staff, reviewerUser, reviewer, projectId, calc };
  }

  beforeAll(async () => {
    server = await startTestServer({ admin: true });
    admin = await as(server.admin!);
    app = await openWebApp(server, { viewport: { width: 1366, height: 900 }, timeout: 15_000 });
    ({ page, pageErrors } = app);
  });

  // Every test's page errors, its own: none.
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("in review: «Добавить расчет» is disabled with the reason, and staff read why they cannot approve", async () => {
    const { staffUser, staff, projectId } = await company();
    await step(staff, "send_to_review");
    await signIn(page, server.url, staffUser, `/projects/${projectId}/calculations?type=torch_ch4`);
    await page.getByTestId("add-locked").waitFor();
    expect(await page.getByRole("button", { name: "Добавить расчет" }).isDisabled()).toBe(true);
    expect(await page.getByTestId("add-locked").innerText()).toMatch(/на проверке.*попросите проверяющего вернуть ее на доработку/);

    await navigateInApp(page, "/inventory?year=2025");
    await page.getByTestId("review-status").getByText("На проверке").waitFor();
    const withheld = page.getByTestId("review-withheld");
    await withheld.waitFor();
    expect(await withheld.innerText()).toContain("«Утвердить» может только проверяющий или администратор");
  });

  it("a printed field changed after the send: the reviewer reads it as «Изменено после отправки» and is offered no «Утвердить»", async () => {
    const { staff, reviewerUser, reviewer } = await company();
    await step(staff, "send_to_review");
    await reviewer("PATCH", "v1/users/company/", { responsible_name: "Петров Сергей Ильич" });

    await signIn(page, server.url, reviewerUser, "/inventory?year=2025");
    await page.getByTestId("review-status").getByText("На проверке").waitFor();
    const changed = page.getByTestId("changed-after-send");
    await changed.waitFor();
    expect(await changed.innerText()).toContain("Изменено после отправки на проверку: эти изменения не войдут в версию");
    expect(await changed.innerText()).toContain("«Ответственный за отчет: ФИО»: было «—», стало «Петров Сергей Ильич»");
    expect(await page.getByRole("button", { name: "Утвердить" }).count()).toBe(0);
    await page.getByRole("button", { name: "Вернуть на доработку" }).waitFor();
    await screenshot(changed, { path: `${process.env.SCREENSHOT_DIR ?? "/tmp"}/review-changed-after-send.png` });
  });

  it("the rework bypass: the reviewer who changed the data finishes the rework, the year goes for approval, and the screen says why they cannot approve", async () => {
    const { staff, reviewerUser, reviewer, calc } = await company();
    await step(staff, "send_to_review");
    await step(reviewer, "approve");
    await step(reviewer, "submit");
    await step(reviewer, "refuse", { reason: "Замечания уведомления", notice_date: "2026-04-01" });
    await reviewer("PATCH", `v1/torch_ch4/${calc.id}/`, { volume: 2000, version: calc.version });

    await signIn(page, server.url, reviewerUser, "/inventory?year=2025");
    await page.getByTestId("review-status").getByText("Отчет возвращен на доработку").waitFor();
    await page.getByRole("button", { name: "Доработка завершена" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText(/год будет направлен на утверждение другому проверяющему/).waitFor();
    await dialog.getByRole("button", { name: "Доработка завершена" }).click();
    await page.getByTestId("review-status").getByText("На проверке").waitFor();
    expect(await page.getByRole("button", { name: "Утвердить" }).count()).toBe(0);
    const withheld = page.getByTestId("review-withheld");
    await withheld.waitFor();
    expect(await withheld.innerText()).toContain(
      "«Утвердить» может только другой проверяющий или администратор: вы сами отправили эту версию на проверку",
    );
    expect(await page.locator(".ant-timeline").innerText()).toMatch(/доработка завершена, направлено на утверждение/);
    // No version was approved by that one person.
    const versions = await reviewer<Array<{ version: number }>>("GET", "v1/inventory/2025/versions/");
    expect(versions.map((v) => v.version)).toEqual([1]);
  });
});
