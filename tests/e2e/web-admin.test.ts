// /admin, /documents and the settings videos in a real browser against the real local server
// (the menu's admin item, /backend and a staff user kept out are web/src/features/shell/Shell.test.tsx's):
// a platform operator creates a company and a user (who then signs in),
// changes a coefficient (stored calculations keep the old value, new ones take the new), uploads a
// PDF and a video (straight to storage: upload-url → PUT → complete, with progress; a file that is
// not a PDF is refused with its reason shown); everyone sees the documents catalogue and plays the
// video in /settings.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { pdfBytes } from "../support/admin";
import { accessToken, openWebApp, signIn, type Credentials, type WebApp } from "../support/web-page";
import type { CalculationOf } from "@server/contract";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: administration, documents and settings videos", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  // Every page's uncaught errors, a retry's new page's included.
  const pageErrors: string[] = [];
  // A retried step makes what it creates under a name of its own: its failed try may have made it.
  const COMPANY_NAMES = ["АО «Шахта Тестовая»", "АО «Шахта Повторная»"];
  let company = COMPANY_NAMES[0];
  const NEW_USER = { email: "new.miner@example.com", password: "new-miner-pass" };
  const pdf = pdfBytes(20_000, "296-FZ");
  let calculationBefore: CalculationOf<"underground_emission_ch4">;

  const at = (path: string) => `${server.url}${path}`;
  const menu = () => page.getByRole("navigation", { name: "Главное меню" });
  const row = (text: string) => page.locator(".ant-table-row", { hasText: text });

  async function signOut() {
    await menu().getByText("Выход").click();
    await page.waitForURL(at("/login"));
  }

  /** The API as a script would use it (for calculations, which this issue does not change). */
  async function apiAs(email: string, password: string) {
    const access = await accessToken(server.url, { email, password });
    return async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
      const res = await fetch(at(path), {
        method,
        headers: { Authorization: `Bearer ${access}`, ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as T };
    };
  }

  async function choose(label: string, option: string) {
    await page.getByRole("combobox", { name: label }).click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: option }).first().click();
  }

  async function openPage() {
    app = await openWebApp(server, { viewport: { width: 1366, height: 860 }, timeout: 15_000 });
    page = app.page;
  }

  /** A retried step starts on a new page, signed in as `user` at `path`: its failed try may have left
   *  a dialog open, a request held, or the page itself no longer answering (seen once on a loaded
   *  machine, and every later step failed with it). A first try goes on from where the step before
   *  left the page. */
  async function retryFrom({ task }: TestContext, user: Credentials, path: string): Promise<boolean> {
    if (!task.result?.retryCount) return false;
    const failed = app;
    pageErrors.push(...failed.pageErrors);
    await Promise.race([failed.close(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    await openPage();
    await signIn(page, server.url, user, path);
    return true;
  }

  beforeAll(async () => {
    server = await startTestServer({ admin: true, own: true });
    await openPage();
  });

  // Each test's own uncaught errors in the page, checked after it: none.
  afterEach(() => expect([...pageErrors.splice(0), ...app.pageErrors.splice(0)], "uncaught errors in the page").toEqual([]));

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("creates a company, checking the ОГРН in the form", async (context) => {
    if (await retryFrom(context, server.admin!, "/admin")) company = COMPANY_NAMES[1];
    else await signIn(page, server.url, server.admin!, "/admin");
    await page.getByRole("button", { name: "Добавить компанию" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Название").fill(company);
    await dialog.getByLabel("E-mail", { exact: true }).fill("info@test-mine.example");
    await dialog.getByLabel("ОГРН / ОГРНИП").fill("1027700132194");
    await dialog.getByLabel("ОКВЭД").fill("05.10");
    await dialog.getByLabel("Регион").fill("Кемеровская область — Кузбасс");
    await dialog.getByLabel("Почтовый адрес").fill("650000, г. Кемерово, ул. Шахтерская, д. 2");
    await dialog.getByRole("button", { name: "Создать" }).click();
    await dialog.getByText("ОГРН — 13 цифр, ОГРНИП — 15 цифр, с верной контрольной цифрой").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-admin-company-dialog.png` });
    await dialog.getByLabel("ОГРН / ОГРНИП").fill("1027700132195");
    await dialog.getByRole("button", { name: "Создать" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row(company).waitFor();
    expect(await row(company).locator("td").allInnerTexts()).toEqual(
      expect.arrayContaining(["1027700132195", "05.10", "Кемеровская область — Кузбасс", "info@test-mine.example"]),
    );
    await screenshot(page, { path: `${SHOTS}/web-admin-companies.png` });
  });

  it("creates a user in that company", async (context) => {
    const retried = await retryFrom(context, server.admin!, "/admin");
    if (retried) NEW_USER.email = "new.miner-2@example.com";
    await page.getByRole("button", { name: `Пользователи ${company}` }).click();
    await page.getByRole("tab", { name: "Пользователи", selected: true }).waitFor();
    if (!retried) await page.getByText("В компании нет пользователей").waitFor();
    await page.getByRole("button", { name: "Добавить пользователя" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("E-mail (логин)").fill(NEW_USER.email);
    await dialog.getByLabel("Пароль").fill(NEW_USER.password);
    await dialog.getByLabel("Имя").fill("Петр");
    await dialog.getByLabel("Фамилия").fill("Сидоров");
    await dialog.getByRole("button", { name: "Создать" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row(NEW_USER.email).getByText("Сотрудник компании").waitFor();
    await row(NEW_USER.email).getByText("Активен").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-admin-users.png` });
  });

  it("changes a coefficient: a stored calculation keeps 18, a new one takes 19", async (context) => {
    await retryFrom(context, server.admin!, "/admin");
    // The coefficient's version when the step starts: 1, or more when a failed try stored 19 and
    // the retry put 18 back.
    const admin = await apiAs(server.admin!.email, server.admin!.password);
    const current = async () =>
      (
        await admin<{ results: Array<{ id: number; ef: number; version: number }> }>(
          "GET",
          "/api/v1/dictionary/get_underground_emission_ch4/",
        )
      ).body.results.find((item) => item.id === 1)!;
    let ef = await current();
    if (ef.ef !== 18) {
      const restored = await admin("PATCH", "/api/v1/admin/dictionary/get_underground_emission_ch4/1/", {
        field: "ef",
        value: 18,
        effective_from: new Date().toISOString().slice(0, 10),
        reason: "Значение до изменения",
        version: ef.version,
      });
      expect(restored.status).toBe(200);
      ef = await current();
    }
    const versionBefore = ef.version;
    const demo = await apiAs(server.demo.email, server.demo.password);
    const project = await demo<{ id: string }>("POST", "/api/v1/projects/create_project/", {
      name: "Шахта для версий",
      start_date: "2024-01-01",
      end_date: "2024-12-31",
    });
    const before = await demo<CalculationOf<"underground_emission_ch4">>("POST", "/api/v1/underground_emission_ch4/", {
      name: "До изменения",
      project: project.body.id,
      volume: 1_000_000,
      ef: 18,
    });
    expect(before.status).toBe(201);
    calculationBefore = before.body;
    expect(calculationBefore.coefficients.ef).toMatchObject({ value: 18, item_id: 1, item_version: versionBefore });

    await page.getByRole("tab", { name: "Справочники" }).click();
    // Dictionaries and coefficients by their names in words, not get_… and ef.
    await choose("Справочник", "Коэффициент выбросов CH4 при подземной добыче");
    await row("Коэффициент выбросов CH4 при подземной добыче = 18").waitFor();
    const item = page
      .locator(".ant-table-row")
      .filter({ has: page.getByRole("cell", { name: "1", exact: true }) })
      .first();
    await item.getByRole("button", { name: "Изменить коэффициент 1" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText(`Текущая версия ${versionBefore}`).waitFor();
    await dialog.getByLabel("Новое значение").fill("19");
    await dialog.getByLabel("Причина изменения").fill("Уточнение по замерам шахты, 2026");
    await screenshot(page, { path: `${SHOTS}/web-admin-coefficient.png` });
    await dialog.getByRole("button", { name: "Сохранить новую версию" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row("Коэффициент выбросов CH4 при подземной добыче = 19").waitFor();

    await row("Коэффициент выбросов CH4 при подземной добыче = 19").getByRole("button", { name: "История 1" }).click();
    const history = page.getByRole("dialog");
    await history.getByText("Уточнение по замерам шахты, 2026").first().waitFor();
    expect(await history.locator(".ant-table-row").count()).toBe(versionBefore + 1);
    // The seeded version came with the platform; no internal account name is shown.
    await history.getByText("поставляется с системой").waitFor();
    expect(await history.getByText("system", { exact: true }).count()).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-admin-history.png` });
    await history.getByRole("button", { name: "Close" }).or(history.locator(".ant-modal-close")).first().click();

    const stored = await demo<CalculationOf<"underground_emission_ch4">>(
      "GET",
      `/api/v1/underground_emission_ch4/${calculationBefore.id}/single_calc/1/`,
    );
    expect(stored.body).toEqual(calculationBefore);
    const after = await demo<CalculationOf<"underground_emission_ch4">>("POST", "/api/v1/underground_emission_ch4/", {
      name: "После изменения",
      project: project.body.id,
      volume: 1_000_000,
      ef: 19,
    });
    expect(after.status).toBe(201);
    expect(after.body.coefficients.ef).toMatchObject({ value: 19, item_id: 1, item_version: versionBefore + 1 });
    expect(after.body.res_ch4 / calculationBefore.res_ch4).toBeCloseTo(19 / 18, 12);
  });

  /** The API calls and uploads the page makes while `action` runs: "METHOD /path" (the typed client
   *  writes API paths without a trailing slash; the upload URL is the server's grant, as it gave it). */
  async function traffic(action: () => Promise<void>): Promise<string[]> {
    const seen: string[] = [];
    const record = (request: { method(): string; url(): string }) => {
      const url = new URL(request.url());
      if (
        url.pathname.startsWith("/api/v1/admin/documents/") ||
        url.pathname.startsWith("/api/v1/admin/media/") ||
        url.pathname.startsWith("/api/v1/uploads/")
      ) {
        seen.push(
          `${request.method()} ${url.pathname}${url.pathname === "/api/v1/uploads/" ? `?token=${url.searchParams.has("token")}` : ""}`,
        );
      }
    };
    page.on("request", record);
    try {
      await action();
    } finally {
      page.off("request", record);
    }
    return seen.filter((r) => !r.startsWith("GET "));
  }

  it("refuses a file that is not a PDF after it was sent, showing why", async (context) => {
    await retryFrom(context, server.admin!, "/admin");
    await page.getByRole("tab", { name: "Документы" }).click();
    // The administrator sees at once what still needs its PDF, those documents listed first.
    await page
      .getByTestId("documents-without-pdf")
      .getByText(/^Нужен PDF: 8 из 8 документов/)
      .waitFor();
    const target = row("Об ограничении выбросов парниковых газов");
    await target.getByText("Нужен PDF").waitFor();
    await target.getByText("№ 296-ФЗ от 02.07.2021").waitFor();
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), target.getByRole("button", { name: /^Загрузить PDF/ }).click()]);
    await chooser.setFiles({
      name: "поддельный.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("<html>not a PDF, only named like one</html>"),
    });
    await target.getByRole("alert").getByText("Ожидается файл PDF").waitFor();
    await target.getByText("Нужен PDF").waitFor();
  });

  it("uploads a PDF for a catalogue document straight to storage, with progress", async (context) => {
    // A retry uploads under a name of its own («Заменить PDF» when its failed try's upload went
    // through), so the name it waits for is its own upload's.
    const retried = await retryFrom(context, server.admin!, "/admin");
    if (retried) await page.getByRole("tab", { name: "Документы" }).click();
    const fileName = retried ? "296-ФЗ (повторно).pdf" : "296-ФЗ.pdf";
    const target = row("Об ограничении выбросов парниковых газов");
    const calls = await traffic(async () => {
      const [chooser] = await Promise.all([
        page.waitForEvent("filechooser"),
        target.getByRole("button", { name: /^(Загрузить|Заменить) PDF/ }).click(),
      ]);
      await chooser.setFiles({ name: fileName, mimeType: "application/pdf", buffer: Buffer.from(pdf) });
      await target.getByText(fileName).waitFor();
    });
    expect(calls).toEqual([
      "POST /api/v1/admin/documents/upload-url",
      "PUT /api/v1/uploads/?token=true",
      "POST /api/v1/admin/documents/complete",
    ]);
    expect(await target.getByRole("alert").count()).toBe(0);
    await page
      .getByTestId("documents-without-pdf")
      .getByText(/^Нужен PDF: 7 из 8 документов/)
      .waitFor();
    await screenshot(page, { path: `${SHOTS}/web-admin-documents.png` });
  });

  it("uploads a video recorded in the browser", async (context) => {
    const retried = await retryFrom(context, server.admin!, "/admin");
    await page.getByRole("tab", { name: "Видео" }).click();
    if (!retried) await page.getByText("Видео не загружено").first().waitFor();
    // A real, playable WebM: a second of a canvas, recorded by Chromium itself.
    const webm = await page.evaluate(async () => {
      const canvas = document.createElement("canvas");
      canvas.width = 320;
      canvas.height = 180;
      const g = canvas.getContext("2d")!;
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: "video/webm" });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const done = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start(250);
      const started = performance.now();
      await new Promise<void>((resolve) => {
        const draw = () => {
          const t = (performance.now() - started) / 1000;
          g.fillStyle = "#1f3b57";
          g.fillRect(0, 0, 320, 180);
          g.fillStyle = "#fadb14";
          g.fillRect(20 + t * 120, 70, 40, 40);
          g.fillStyle = "#fff";
          g.font = "20px sans-serif";
          g.fillText("Видеоинструкция", 80, 40);
          if (t < 1) requestAnimationFrame(draw);
          else resolve();
        };
        draw();
      });
      recorder.stop();
      await done;
      return Array.from(new Uint8Array(await new Blob(chunks, { type: "video/webm" }).arrayBuffer()));
    });
    expect(webm.length).toBeGreaterThan(1000);
    const card = page.locator(".ant-card", { hasText: "Видеоинструкция" });
    // The upload's progress: the PUT is held back a moment so the bar can be seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/v1/uploads/**", async (route) => {
      await held;
      await route.continue();
    });
    const calls = await traffic(async () => {
      const [chooser] = await Promise.all([
        page.waitForEvent("filechooser"),
        card.getByRole("button", { name: "Загрузить видео: Видеоинструкция" }).click(),
      ]);
      await chooser.setFiles({ name: "Инструкция.webm", mimeType: "video/webm", buffer: Buffer.from(webm) });
      await card.getByRole("status", { name: /^Загрузка \d+ %$/ }).waitFor();
      await card.locator(".ant-progress").waitFor();
      await screenshot(page, { path: `${SHOTS}/web-admin-video-progress.png` });
      release();
      // The message a retry's new page can only show for its own upload.
      await page.getByText("Видеоинструкция: видео загружено").waitFor();
      await card.getByText("video/webm").waitFor();
    });
    await page.unroute("**/api/v1/uploads/**");
    expect(calls).toEqual(["POST /api/v1/admin/media/upload-url", "PUT /api/v1/uploads/?token=true", "POST /api/v1/admin/media/complete"]);
    expect(await card.locator(".ant-progress").count()).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-admin-videos.png` });
  });

  it("logs every change, newest first, with before and after", async (context) => {
    await retryFrom(context, server.admin!, "/admin");
    await page.getByRole("tab", { name: "Журнал" }).click();
    const newestFirst = ["Видео загружено", "Файл документа загружен", "Коэффициент изменен", "Пользователь создан", "Компания создана"];
    for (const action of newestFirst) {
      await page.locator(".ant-table-row", { hasText: action }).first().waitFor();
    }
    // Each action's newest entry, in the log's order (a retried step may have logged its action twice).
    const actions = await page.locator(".ant-table-row td:nth-child(4)").allInnerTexts();
    expect(actions.filter((action, i) => newestFirst.includes(action) && actions.indexOf(action) === i)).toEqual(newestFirst);
    await row("Коэффициент изменен").first().locator(".ant-table-row-expand-icon").click();
    await page.getByText('"ef": 18').first().waitFor();
    await page.getByText('"ef": 19').first().waitFor();
    await screenshot(page, { path: `${SHOTS}/web-admin-audit.png`, fullPage: true });
    await signOut();
  });

  it("lets the new user sign in and see the documents: the uploaded PDF downloads, the rest link to their sources", async (context) => {
    if (!(await retryFrom(context, NEW_USER, "/"))) {
      // Through the form the operator's sign-out left on screen, as the new user does.
      await page.getByLabel("Логин").fill(NEW_USER.email);
      await page.getByLabel("Пароль").fill(NEW_USER.password);
      await page.getByRole("button", { name: "Вход" }).click();
      await page.waitForURL((url) => url.pathname !== "/login");
    }
    await menu().getByText("Нормативные документы").click();
    await page.waitForURL(at("/documents"));
    await page.getByRole("heading", { name: "Нормативные документы" }).waitFor();
    await page.locator(".ant-table-row").nth(7).waitFor();
    expect(await page.locator(".ant-table-row").count()).toBe(8);
    const sources = page.getByRole("link", { name: "Файл не загружен — открыть официальный источник" });
    expect(await sources.count()).toBe(7);
    await page.getByText("№ 296-ФЗ от 02.07.2021").waitFor();
    for (const href of await sources.evaluateAll((links) => links.map((a) => a.getAttribute("href")))) {
      expect(href).toMatch(/^https?:\/\/(www\.)?(consultant\.ru|pravo\.gov\.ru|rst\.gov\.ru|ipcc-nggip\.iges\.or\.jp|un-ilibrary\.org)\//);
    }
    expect(await sources.first().getAttribute("target")).toBe("_blank");
    expect(await sources.first().getAttribute("rel")).toBe("noopener noreferrer");
    await screenshot(page, { path: `${SHOTS}/web-documents.png`, fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: /^Скачать PDF: Федеральный закон/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("296-ФЗ Федеральный закон «Об ограничении выбросов парниковых газов».pdf");
    expect(new Uint8Array(readFileSync((await download.path())!))).toEqual(pdf);
  });

  it("plays the instruction video in /settings and says «Видео не загружено» for the presentation", async (context) => {
    await retryFrom(context, NEW_USER, "/");
    await menu().getByText("Настройки").click();
    await page.waitForURL(at("/settings"));
    const video = page.getByLabel("Видеоинструкция", { exact: true });
    await video.waitFor();
    expect(await video.getAttribute("src")).toMatch(/^\/api\/v1\/media\/instruction\/\?v=\d+&token=/);
    await page.waitForFunction(() => {
      const v = document.querySelector("video");
      return v !== null && v.readyState >= 1;
    });
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    // It plays: its time moves on past a fifth of a second.
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 0.2, undefined, { polling: 100 });
    expect(await video.evaluate((v: HTMLVideoElement) => (v.pause(), v.currentTime))).toBeGreaterThan(0.2);
    await page.locator(".ant-card", { hasText: "Презентация" }).getByText("Видео не загружено").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-settings-videos.png`, fullPage: true });
  });
});
