// Names that open something look and act as links, and a project's name never loses its year when
// cut (docs/user-guide.md, Conventions of the screens), at a desktop width and at 390 px: a
// project's name is a link to its calculations (a real address, reached by Tab, opened with Enter),
// a calculation's name opens its results the same way; «Шахта «Распадская-Коксовая» 2025» is cut
// to «Шахта «Распадская-Ко… 2025» with the whole name in its tooltip.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, openWebApp, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const PROJECT = "Шахта «Распадская-Коксовая» 2025";
const SHOWN = "Шахта «Распадская-Ко… 2025";
const CALCULATION = "Факел ВНС-2, январь";

describe.each([
  { width: 1366, height: 860, label: "desktop" },
  { width: 390, height: 844, label: "phone" },
])("web app: names that open something, at $width px", ({ width, height, label }) => {
  let server: TestServer;
  let app: WebApp;
  let projectId: string;
  const at = (path: string) => `${server.url}${path}`;

  beforeAll(async () => {
    server = await startTestServer();
    const token = await accessToken(server.url, server.demo);
    const api = apiCaller(
      () => server.url,
      () => token,
    );
    projectId = (
      await api<{ id: string }>("POST", "v1/projects/create_project/", { name: PROJECT, start_date: "2025-01-01", end_date: "2025-12-31" })
    ).id;
    await api("POST", "v1/torch_ch4/", { name: CALCULATION, project: projectId, volume: 700, koef_transform: 0.67 });
    app = await openWebApp(server, { viewport: { width, height }, timeout: 15_000, user: server.demo });
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("shows a project's name as a link, cut with its year kept, that Enter follows", async () => {
    const { page } = app;
    await page.goto(at("/projects"));
    const link = page.getByRole("link", { name: SHOWN });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`/projects/${projectId}/calculations`);
    // Drawn as a link: the link colour, not the text's.
    const colour = await link.evaluate((el) => getComputedStyle(el).color);
    expect(colour).not.toBe(
      // The start date, a plain text beside it (a table cell, or a line of the project's block on a phone).
      await page
        .getByText("01.01.2025", { exact: true })
        .first()
        .evaluate((el) => getComputedStyle(el).color),
    );
    await link.hover();
    await page.getByRole("tooltip").filter({ hasText: PROJECT }).waitFor();
    // The year is on the screen, not cut off by the table's width.
    const box = (await link.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await screenshot(page, { path: `${SHOTS}/web-name-links-projects-${label}.png` });
    await link.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(at(`/projects/${projectId}/calculations`));
  });

  it("shows a calculation's name as a link that opens its results with Enter", async () => {
    const { page } = app;
    await page.goto(at(`/projects/${projectId}/calculations?type=torch_ch4`));
    const link = page.getByRole("button", { name: CALCULATION });
    await link.waitFor();
    expect(await link.evaluate((el) => el.tagName)).toBe("A");
    await screenshot(page, { path: `${SHOTS}/web-name-links-calculations-${label}.png` });
    await link.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: CALCULATION }).waitFor();
    expect(app.pageErrors).toEqual([]);
  });
});
