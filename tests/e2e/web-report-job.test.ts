// A large company's report passport in a real browser (docs/user-guide.md, «Инвентаризация»): from
// JOB_PASSPORT_LINES calculations on, the PDF is made as a job. After the click the page shows the
// job's state and progress («Файл в очереди…», «Файл формируется: N %»), saves the file when it is
// ready and offers it again («Скачать еще раз»). The calculations beyond the first are copied through
// the repository (tests/support/large-inventory.ts).
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { JOB_PASSPORT_LINES } from "@server/domain/heavy-work";
import { copyCalculation } from "../support/large-inventory";
import { openWebApp, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: a large company's report passport", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    const demo = file.call;
    const me = await demo<{ company: { id: string } }>("GET", "v1/users/get_me/");
    const project = await demo<{ id: string }>("POST", "v1/projects/create_project/", {
      name: "Северная 2025",
      start_date: "2025-01-01",
      end_date: "2025-12-31",
    });
    const first = await demo<{ id: string }>("POST", "v1/underground/", {
      name: "Измерения 2025",
      project: project.id,
      volume: 40_000,
      p_co2: 1.8393,
      p_ch4: 0.668,
      ef_co2: 1,
      ef_ch4: 60,
    });
    await copyCalculation(file.server.deps, me.company.id, "underground", first.id, JOB_PASSPORT_LINES.pdf);
    // The passport is a job once the company's counts, kept by the table stream, reach the bound.
    await file.server.settled();
    app = await openWebApp(file.server, { viewport: { width: 1366, height: 900 }, timeout: 15_000, user: file.server.demo });
    ({ page, pageErrors } = app);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("shows the job's state and progress, saves the PDF when it is ready and offers it again", async () => {
    await page.goto(`${file.server.url}/inventory?year=2025`);
    const button = page.getByRole("button", { name: "Скачать паспорт отчета (PDF)" });
    await button.waitFor();
    const downloaded = page.waitForEvent("download", { timeout: 120_000 });
    await button.click();
    // The 202's state at once, then the server's progress.
    const status = page.getByRole("status").filter({ hasText: /Файл (в очереди на формирование|формируется: \d+ %)/ });
    // The 202 comes once the job is queued, behind other work on a loaded machine: the page's own bound
    // (15 s) is not the request's.
    await status.waitFor({ timeout: 60_000 });
    await screenshot(page, { path: `${SHOTS}/web-report-job-progress.png` });
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe("Паспорт отчета 2025.pdf");
    expect(
      readFileSync(await download.path())
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
    const ready = page.getByRole("alert").filter({ hasText: "Паспорт отчета готов: «Паспорт отчета 2025.pdf»" });
    await ready.waitFor();
    await screenshot(page, { path: `${SHOTS}/web-report-job-ready.png` });
    const again = page.waitForEvent("download");
    await ready.getByRole("button", { name: "Скачать еще раз" }).click();
    expect((await again).suggestedFilename()).toBe("Паспорт отчета 2025.pdf");
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
