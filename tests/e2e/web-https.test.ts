// The app on HTTPS (TLS_CERT, TLS_KEY; functions/src/local/network.ts): a server started with a
// self-signed certificate serves the web app and its API to Chromium (a context that accepts that
// certificate, as a company's browsers accept the company's own CA): the sign-in form signs in, the
// projects page lists a project created over the API on the same origin, every answer carries HSTS,
// and nothing is fetched over plain HTTP. Needs web/dist (`npm run build:web`) and openssl.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { screenshot, workerBrowser } from "../support/browser";
import { DEMO } from "../support/server";
import { selfSignedCertificate } from "../support/self-signed";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
let dataDir: string;
let server: LocalServer;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "fugitive-https-"));
  const { cert, key } = selfSignedCertificate();
  server = await startLocalServer({ dataDir, port: 0, demo: DEMO, tls: { cert, key } });
  context = await (await workerBrowser()).newContext({ locale: "ru-RU", reducedMotion: "reduce", ignoreHTTPSErrors: true });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await context?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the app on HTTPS with a self-signed certificate", () => {
  it("signs in through the form and shows the projects the API lists, every answer with HSTS, nothing over plain HTTP", async () => {
    expect(server.url).toMatch(/^https:\/\//);
    const answers: { url: string; hsts: string | undefined }[] = [];
    page.on("response", (res) => answers.push({ url: res.url(), hsts: res.headers()["strict-transport-security"] }));
    const shell = await page.goto(`${server.url}/projects`);
    expect(shell?.status()).toBe(200);
    await page.waitForURL(`${server.url}/login`);
    await page.getByLabel("Логин").fill(DEMO.email);
    await page.getByLabel("Пароль").fill(DEMO.password);
    await page.getByRole("button", { name: "Вход" }).click();
    await page.waitForURL(`${server.url}/projects`);
    await page.getByRole("heading", { name: "Проекты" }).waitFor();

    // A project made through the API from the page, on the same HTTPS origin, then listed.
    const created = await page.evaluate(async () => {
      const res = await fetch("/api/v1/projects/create_project/", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${localStorage.getItem("token")}` },
        body: JSON.stringify({ name: "Шахта «Защищенная»", start_date: "2025-01-01", end_date: "2025-12-31" }),
      });
      return res.status;
    });
    expect(created).toBe(201);
    await page.reload();
    await page.getByText("Шахта «Защищенная»").first().waitFor();
    await screenshot(page, { path: `${SHOTS}/web-https-projects.png` });

    const own = answers.filter((a) => a.url.startsWith(server.url));
    expect(own.length).toBeGreaterThan(3);
    expect(own.filter((a) => a.hsts !== "max-age=31536000").map((a) => a.url)).toEqual([]);
    expect(answers.filter((a) => a.url.startsWith("http:")).map((a) => a.url)).toEqual([]);
  });
});
