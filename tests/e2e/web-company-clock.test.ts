// The company's clock in a real browser: a company in Kemerovo (UTC+7, «Asia/Novokuznetsk»)
// whose reviewer approves its year at 01:24 on 26.11.2026 local time — still 25.11 in UTC — on a
// computer set to that zone. The screen, the xlsx and PDF passports downloaded from the inventory,
// the verification pack (its files' stamps and its passport), the project's export from /export all
// read 26.11.2026, never 25.11.2026. The server's clock and the browser's are both held at that moment.
// Needs web/dist (`npm run build:web`), Debian Chromium and pdftotext.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createUser } from "@server/domain/company/users";
import { openWebApp, signIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
// 01:24 on 26.11.2026 in Kemerovo; 18:24 on 25.11.2026 in UTC.
const NOW = new Date("2026-11-25T18:24:00.000Z");
const ZONE = "Asia/Novokuznetsk";
const REVIEWER = { email: "reviewer@clock.example", password: "reviewer-password" };
const PROJECT = "Разрез «Часовой» 2025";

async function cellsOf(bytes: Buffer, sheet: string): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const cells: string[] = [];
  workbook.getWorksheet(sheet)!.eachRow((row) => cells.push((row.values as unknown[]).slice(1).map(String).join(" | ")));
  return cells.join("\n");
}

function pdfText(bytes: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), "clock-")), "passport.pdf");
  writeFileSync(file, bytes);
  const out = spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.replace(/\s+/g, " ");
}

describe("web app: a year approved at 01:24 local time in a company at UTC+7", () => {
  const file = browserFile({ clock: { now: () => NOW } });
  let app: WebApp;
  let page: Page;

  const { call } = file;

  /** Clicks the button `name` and returns the file it saves. */
  async function save(name: string): Promise<{ name: string; bytes: Buffer }> {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name }).click()]);
    return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
  }

  beforeAll(async () => {
    const me = await call<{ company: { id: string; time_zone: string } }>("GET", "v1/users/get_me/");
    expect(me.company.time_zone).toBe(ZONE);
    await createUser(file.server.deps, {
      companyId: me.company.id,
      ...REVIEWER,
      role: "reviewer",
      first_name: "Мария",
      last_name: "Проверяющая",
    });
    const pit = await call<{ id: string }>("POST", "v1/facilities/", { name: "Разрез «Часовой»", kind: "open_pit" });
    const project = await call<{ id: string }>("POST", "v1/projects/create_project/", {
      name: PROJECT,
      start_date: "2025-01-01",
      end_date: "2025-12-31",
      facility: pit.id,
    });
    await call("POST", "v1/open_mining_ch4/", {
      name: "Метан разреза",
      project: project.id,
      volume: 3_100_000,
      dictionary_items: { get_open_mining_ch4: 1 },
    });
    const { review } = await call<{ review: { version: number } }>("GET", "v1/inventory/?year=2025");
    await call("POST", "v1/inventory/2025/review/", { action: "send_to_review", version: review.version });
    app = await openWebApp(file.server, { timezoneId: ZONE, timeout: 20_000 });
    page = app.page;
    // The computer's clock at that moment too: the screens' «today» is the company's 26.11.
    await page.clock.setFixedTime(NOW);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("approves the year in the browser and reads 26.11.2026 on the screen and in both passports", async () => {
    await signIn(page, file.server.url, REVIEWER, "/inventory?year=2025");
    await page.getByTestId("review-status").waitFor();
    // Approved here unless a try before did it.
    if ((await page.getByTestId("review-status").innerText()) !== "Утверждена") {
      await page.getByRole("button", { name: "Утвердить" }).first().click();
      await page.getByRole("dialog").getByRole("button", { name: "Утвердить" }).click();
    }
    await page.getByTestId("review-status").getByText("Утверждена").waitFor();
    // The review's trail dates each step by the company's calendar.
    const trail = (await page.getByTestId("review-history-entry").allInnerTexts()).join("\n");
    expect(trail).toContain("26.11.2026");
    expect(trail).not.toContain("25.11.2026");
    expect(await page.locator("body").innerText()).not.toContain("25.11.2026");
    await screenshot(page, { path: `${SHOTS}/web-company-clock-approved.png`, fullPage: true });

    const xlsx = await save("Скачать паспорт отчета (xlsx)");
    const passport = await cellsOf(xlsx.bytes, "Паспорт");
    expect(passport).toContain("Утверждена 26.11.2026, Мария Проверяющая");
    expect(passport).toContain("Дата подписания | 26.11.2026 (утверждение версии 1)");
    expect(passport).not.toContain("25.11.2026");

    const pdf = pdfText((await save("Скачать паспорт отчета (PDF)")).bytes);
    expect(pdf).toContain("Утверждена 26.11.2026");
    expect(pdf).toContain("Дата подписания: 26.11.2026");
    expect(pdf).not.toContain("25.11.2026");
  }, 90_000);

  it("stamps the version's verification pack at 01:24 on 26.11.2026 and puts the local-dated passport in it", async () => {
    await signIn(page, file.server.url, REVIEWER, "/inventory?year=2025");
    const pack = page
      .getByTestId("inventory-versions")
      .locator(".ant-list-item", { hasText: "Версия 1:" })
      .getByRole("button", { name: "Пакет для верификатора" });
    await pack.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), pack.click()]);
    expect(download.suggestedFilename()).toBe("Пакет верификации 2025 версия 1.zip");
    const dir = mkdtempSync(join(tmpdir(), "clock-pack-"));
    // The zip's own stamps are the company's wall clock; its passport prints the company's date.
    const read = spawnSync(
      "python3",
      [
        "-c",
        "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(set(i.date_time[:5] for i in z.infolist())); z.extractall(sys.argv[2])",
        await download.path(),
        dir,
      ],
      { encoding: "utf8" },
    );
    expect(read.status, read.stderr).toBe(0);
    expect(read.stdout.trim()).toBe("{(2026, 11, 26, 1, 24)}");
    const passport = await cellsOf(readFileSync(join(dir, "passport.xlsx")), "Паспорт");
    expect(passport).toContain("Дата подписания | 26.11.2026 (утверждение версии 1)");
    expect(passport).not.toContain("25.11.2026");
  }, 60_000);

  it("reads 26.11.2026 in the project's export from /export", async () => {
    await signIn(page, file.server.url, file.server.demo, "/export?format=xlsx");
    await page.getByRole("heading", { name: "Экспорт" }).waitFor();
    await page.getByRole("table", { name: "Проекты" }).locator(".ant-table-row", { hasText: PROJECT }).click();
    const exported = await save("Экспорт данных");
    const project = await cellsOf(exported.bytes, "Проект");
    expect(project).toContain("Дата создания | 26.11.2026");
    expect(project).toContain("Дата выгрузки | 26.11.2026");
    expect(project).not.toContain("25.11.2026");
  }, 60_000);
});
