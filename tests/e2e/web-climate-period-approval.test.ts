// A climate project's period approved with four eyes in a real browser against the real local server
//: staff compute a period of an open flare from two hours of pushed minutes; a reviewer of the
// company opens it, reads «Не утвержден», approves it in the dialog and reads «Утвержден» with the
// snapshot's SHA-256 and no «Пересчитать»; a corrected minute pushed afterwards shows «Показания
// изменились после утверждения» on the period while its figures stay; the reviewer withdraws the
// approval with a reason. Screenshots (SCREENSHOTS=1) go to SCREENSHOT_DIR (default /tmp). Needs web/dist
// (`npm run build:web`) and Chromium.
import { instantOfWallTime, zoneOf } from "@core/company-clock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, openWebApp, signIn, type Credentials } from "../support/web-page";
import { screenshot } from "../support/browser";
import { FILLED_REPORT } from "../support/climate-case-a";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: a climate period approved by a reviewer (four eyes)", () => {
  let server: TestServer;
  let staff: ReturnType<typeof apiCaller>;
  let reviewerUser: Credentials;
  let facility: string;
  let project: string;
  let period: { id: string; totals: Record<string, number> };
  let start: number;
  const codes = { q: "Q-У1", c: "C-У1", flame: "FL-У1" };
  const ids: string[] = [];

  const as = async (user: Credentials) => {
    const token = await accessToken(server.url, user);
    return apiCaller(
      () => server.url,
      () => token,
    );
  };

  /** Two hours of minutes from 01.06.2026 00:00 on the company's clock (`q` the flow), applied. */
  async function push(q: number, minutes = 120) {
    const readings: { sensor: string; t: string; value: number }[] = [];
    for (let i = 0; i < minutes; i++) {
      const t = new Date(start + i * 60_000 + 30_000).toISOString();
      readings.push({ sensor: codes.q, t, value: q }, { sensor: codes.c, t, value: 38.5 }, { sensor: codes.flame, t, value: 1 });
    }
    const { batch } = await staff<{ batch: string }>("POST", "v1/telemetry/readings/", { facility, readings });
    // A period reads only applied batches (it refuses one still applying): wait for the push's batch to be done.
    const deadline = Date.now() + 90_000;
    while ((await staff<{ state: string }>("GET", `v1/telemetry/batches/${batch}/`)).state !== "done") {
      if (Date.now() > deadline) throw new Error("the pushed batch was not applied in 90 s");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  beforeAll(async () => {
    server = await startTestServer({ admin: true });
    const staffUser = await server.newUser();
    staff = await as(staffUser);
    const me = await staff<{ company: { id: string; time_zone?: string } }>("GET", "v1/users/get_me/");
    reviewerUser = { email: "reviewer.climate@example.com", password: "reviewer-password-1" };
    const admin = await as(server.admin!);
    await admin("POST", `v1/admin/companies/${me.company.id}/users/`, { ...reviewerUser, role: "reviewer" });
    start = instantOfWallTime(2026, 6, 1, 0, 0, zoneOf(me.company));
    facility = (await staff<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «Утверждение»", kind: "underground_mine" })).id;
    const point = await staff<{ id: string }>("POST", `v1/facilities/${facility}/points/`, {
      name: "Дегазационная станция",
      kind: "drainage_station",
      instrument: "АГК",
    });
    for (const [code, kind] of [
      [codes.q, "flow"],
      [codes.c, "methane_high"],
      [codes.flame, "flame"],
    ]) {
      ids.push((await staff<{ id: string }>("POST", `v1/facilities/${facility}/sensors/`, { code, kind, point: point.id })).id);
    }
    await push(21);
    // The readings' consumer applies a push in the background: wait until each meter's day holds them.
    for (const id of ids) {
      const deadline = Date.now() + 90_000;
      while (
        (await staff<{ value: (number | null)[] }>("GET", `v1/facilities/${facility}/sensors/${id}/day/?date=2026-06-01`)).value.filter(
          (v) => v !== null,
        ).length < 120
      ) {
        if (Date.now() > deadline) throw new Error("the pushed readings were not applied in 90 s");
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    project = (
      await staff<{ id: string }>("POST", "v1/climate-projects/", {
        name: "Факел на утверждение",
        facility,
        start: "2026-06-01",
        methodology: { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "UNFCCC CDM", tools: [] },
        devices: [{ name: "Ф-1", point: point.id, kind: "flare_open", flow_basis: "normal_0C", sensors: codes }],
      })
    ).id;
    period = await staff("POST", `v1/climate-projects/${project}/periods/`, { start: "2026-06-01T00:00", end: "2026-06-01T02:00" });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it("groups a 4-hour flame loss into one line and asks before recomputing, at 390 and 1440 px", {
    timeout: 180_000,
  }, async () => {
    // 02:00–06:00: the flame lost the whole time, each hour at its own flow (so each hour's methane differs).
    const readings: { sensor: string; t: string; value: number }[] = [];
    for (let i = 120; i < 360; i++) {
      const t = new Date(start + i * 60_000 + 30_000).toISOString();
      const q = 20 + Math.floor(i / 60);
      readings.push({ sensor: codes.q, t, value: q }, { sensor: codes.c, t, value: 38.5 }, { sensor: codes.flame, t, value: 0 });
    }
    await staff("POST", "v1/telemetry/readings/", { facility, readings });
    // A period whose hours are still being applied is refused (item 3): asked again until it is computed.
    let lost: { id: string } | undefined;
    const deadline = Date.now() + 90_000;
    while (!lost) {
      try {
        lost = await staff("POST", `v1/climate-projects/${project}/periods/`, { start: "2026-06-01T02:00", end: "2026-06-01T06:00" });
      } catch (error) {
        if (Date.now() > deadline || !String(error).includes("еще применяются")) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    for (const width of [390, 1440]) {
      const app = await openWebApp(server, { viewport: { width, height: 900 }, timeout: 30_000 });
      try {
        const { page } = app;
        await signIn(page, server.url, reviewerUser, `/climate-projects?id=${project}&period=${lost.id}`);
        const result = page.getByTestId("climate-period");
        await result.getByRole("heading", { name: "Отклонения" }).waitFor();
        const rows = result.locator(".ant-table-row").filter({ hasText: "уничтожение не подтверждено" });
        expect(await rows.count()).toBe(1);
        const row = (await rows.first().innerText()).replace(/[\u00a0\u202f]/g, " ");
        expect(row).toContain("01.06.2026 02:00 – 05:00");
        expect(row).toMatch(/\b4\b/);
        expect(row).toContain("нет пламени; метан");
        await rows.first().scrollIntoViewIfNeeded();
        await screenshot(page, { path: `${SHOTS}/climate-deviations-grouped-${width}.png` });

        const approval = page.getByTestId("period-approval");
        await approval.getByRole("button", { name: "Пересчитать" }).click();
        const confirm = page.getByTestId("recompute-confirm");
        await confirm.waitFor();
        const words = await confirm.innerText();
        expect(words).toContain("перестанут ему соответствовать");
        expect(words).toContain("Кто пересчитал период, тот не может его утвердить");
        await screenshot(page, { path: `${SHOTS}/climate-recompute-confirm-${width}.png` });
        await page.getByRole("dialog", { name: "Пересчитать период?" }).getByRole("button", { name: "Отмена" }).click();
        await confirm.waitFor({ state: "hidden" });
        expect(app.pageErrors).toEqual([]);
      } finally {
        await app.close();
      }
    }
  });

  it("shows the reviewer what the executor has still to write and offers no approval until it is written, at 390 and 1440 px", {
    timeout: 180_000,
  }, async () => {
    for (const width of [390, 1440]) {
      const app = await openWebApp(server, { viewport: { width, height: 900 }, timeout: 30_000 });
      try {
        const { page } = app;
        await signIn(page, server.url, reviewerUser, `/climate-projects?id=${project}&period=${period.id}`);
        const missing = page.getByTestId("period-missing");
        await missing.getByText("Утвердить нельзя, пока исполнитель не заполнит отчет о реализации").waitFor();
        const words = (await missing.innerText()).replace(/[\u00a0\u202f]/g, " ");
        expect(words).toContain("Не заполнены поля (18)");
        expect(words).toContain("«Пояснения к каждой группе отклонений» (раздел 10)");
        expect(await page.getByTestId("period-approval").getByRole("button", { name: "Утвердить" }).isDisabled()).toBe(true);
        const box = await missing.boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
        await missing.scrollIntoViewIfNeeded();
        await screenshot(page, { path: `${SHOTS}/climate-period-missing-${width}.png` });
        expect(app.pageErrors).toEqual([]);
      } finally {
        await app.close();
      }
    }
    // The executor writes every field: the approval is offered (the next test approves).
    await staff("PATCH", `v1/climate-projects/${project}/periods/${period.id}/report/`, { fields: FILLED_REPORT, version: 0 });
  });

  it("approves the period, shows it frozen and flagged when its readings change, and withdraws the approval with a reason", {
    timeout: 180_000,
  }, async () => {
    const app = await openWebApp(server, { viewport: { width: 1440, height: 900 }, timeout: 30_000 });
    try {
      const { page } = app;
      await signIn(page, server.url, reviewerUser, `/climate-projects?id=${project}&period=${period.id}`);
      const approval = page.getByTestId("period-approval");
      await approval.getByTestId("period-state").getByText("Не утвержден").waitFor();
      await approval.getByRole("button", { name: "Утвердить" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Утвердить" }).click();
      await approval.getByTestId("period-state").getByText("Утвержден", { exact: true }).waitFor();
      expect(await approval.innerText()).toMatch(/SHA-256 снимка: [0-9a-f]{64}/);
      expect(await approval.getByRole("button", { name: "Пересчитать" }).count()).toBe(0);
      await screenshot(page, { path: `${SHOTS}/climate-period-approved-1440.png`, fullPage: true });

      // A corrected flow in the period's hours: flagged on the period, its figures as approved.
      await push(30, 10);
      const deadline = Date.now() + 90_000;
      while (
        !(await staff<{ readings_changed: unknown }>("GET", `v1/climate-projects/${project}/periods/${period.id}/`)).readings_changed
      ) {
        if (Date.now() > deadline) throw new Error("the period was not flagged in 90 s");
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await page.reload();
      await page
        .getByTestId("readings-changed")
        .getByText(/Показания изменились после утверждения/)
        .waitFor();
      const figures = (await page.getByTestId("climate-period").innerText()).replace(/[\u00a0\u202f]/g, " ");
      expect(figures).toContain(
        period.totals.er_t_co2e.toLocaleString("ru-RU", { minimumFractionDigits: 6, maximumFractionDigits: 6 }).replace(/\u00a0/g, " "),
      );
      await screenshot(page, { path: `${SHOTS}/climate-period-flagged-1440.png`, fullPage: true });

      await approval.getByRole("button", { name: "Отозвать утверждение" }).click();
      const withdraw = page.getByRole("dialog");
      await withdraw.getByLabel("Причина").fill("поправка расхода");
      await withdraw.getByRole("button", { name: "Отозвать утверждение" }).click();
      await approval.getByTestId("period-state").getByText("Не утвержден").waitFor();
      await approval.getByRole("button", { name: "Пересчитать" }).waitFor();
      expect(await approval.innerText()).toContain("Причина: поправка расхода");
      expect(app.pageErrors).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
