// «Измерено и оценено» (issue 109) in a real browser against the real local server with the demo year,
// at 1440 and 390 px: opened from «Инвентаризация», the demo mine's measured and estimated CH4 as the
// API gives them in Russian numbers, the verdict, the implied factor, the chart by month drawn and saying
// its share is by days, the explanations each with its link, and no page scrolling sideways.
// Screenshots go to SCREENSHOT_DIR (default /tmp). Needs web/dist (`npm run build:web`) and Chromium.
import { describe, expect, it } from "vitest";
import type { MeasuredVsEstimated } from "@server/contract";
import { openWebApp, browserFile, plain, russian } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: «Измерено и оценено», the mine's measurement against its estimate", () => {
  const file = browserFile({ demoYear: true, own: true });
  const year = new Date().getUTCFullYear() - 1;

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`shows the two figures, the verdict, the chart and the explanations at ${viewport.width} px`, async () => {
      const answer = await file.call<MeasuredVsEstimated>("GET", `v1/inventory/measured-vs-estimated/?year=${year}`);
      const mine = answer.facilities.find((f) => f.facility_name === "Шахта «Демонстрационная»")!;
      const app = await openWebApp(file.server, { user: file.server.demo, viewport, timeout: 30_000 });
      try {
        const { page } = app;
        await page.goto(`${file.server.url}/inventory?year=${year}`);
        await page.getByRole("link", { name: "Измерено и оценено" }).click();
        await page.getByRole("heading", { name: "Измерено и оценено", level: 2 }).waitFor();
        const card = page.getByTestId("mine-comparison").filter({ hasText: "Шахта «Демонстрационная»" });
        await card.getByTestId("measured").waitFor();
        expect(plain(await card.getByTestId("measured").innerText())).toContain(`${russian(mine.measured.ch4_t, 2)} т CH4`);
        expect(plain(await card.getByTestId("estimated").innerText())).toContain(`${russian(mine.estimated!.ch4_t, 2)} т CH4`);
        expect(plain(await card.getByTestId("estimated").innerText())).toContain("для сравнения");
        expect(await card.getByTestId("verdict").innerText()).toBe(mine.consistent ? "согласуются" : "расходятся больше неопределенности");
        expect(plain(await card.getByTestId("implied-factor").innerText())).toContain(
          `${russian(mine.implied_ef_m3_per_t!, 2)} м³/т при 0,67 кг/м³ — в оценке 18,00 м³/т`,
        );
        // The chart is drawn and says how the estimate is shared by month.
        const chart = card.locator('[data-testid="comparison-chart"][data-ready="true"]');
        await chart.waitFor({ timeout: 60_000 });
        expect(await chart.getAttribute("aria-label")).toContain("доля оценки по дням месяца");
        // The explanations, each with where it leads.
        const items = card.getByTestId("explanation");
        await expect.poll(() => items.count()).toBe(mine.explanations.length);
        expect(plain(await items.first().innerText())).toContain(plain(mine.explanations[0].text));
        await items.first().getByRole("link").waitFor();
        // No page wider than the screen.
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(widths.scroll).toBeLessThanOrEqual(widths.client);
        await screenshot(page, { path: `${SHOTS}/measured-vs-estimated-${viewport.width}.png`, fullPage: true });
      } finally {
        await app.close();
      }
    }, 180_000);
  }
});
