// «Измерено и оценено» in a real browser against the real local server with the demo year,
// at 1440 and 390 px: opened from «Инвентаризация», the demo mine's measured and estimated CH4 as the
// API gives them in Russian numbers, the verdict, the implied factor, the chart by month drawn and saying
// its share is by days, the explanations each with its link, and no page scrolling sideways. an earlier round
// (D93): how much of the year is measured and what is compared; the demo year says in words what its
// difference rests on; a new mine with one month measured of twelve has no verdict («судить рано») and
// the explanations' totals come before their lines.
// Screenshots go to SCREENSHOT_DIR (default /tmp). Needs web/dist (`npm run build:web`) and Chromium.
import { beforeAll, describe, expect, it } from "vitest";
import type { MeasuredVsEstimated } from "@server/contract";
import { openWebApp, browserFile, plain, russian } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: «Измерено и оценено», the mine's measurement against its estimate", () => {
  const file = browserFile({ demoYear: true, own: true });
  const year = new Date().getUTCFullYear() - 1;

  // A new mine: its shaft measured in January only, its yearly estimate kept for comparison.
  beforeAll(async () => {
    const facility = await file.call<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «Первый месяц»", kind: "underground_mine" });
    const shaft = await file.call<{ id: string }>("POST", `v1/facilities/${facility.id}/points/`, {
      name: "Ствол № 1",
      kind: "ventilation_shaft",
      instrument: "АГК",
      frequency: "непрерывно",
    });
    const project = await file.call<{ id: string }>("POST", "v1/projects/create_project/", {
      name: "Первый месяц",
      start_date: `${year}-01-01`,
      end_date: `${year}-12-31`,
      facility: facility.id,
    });
    await file.call("POST", "v1/underground/", {
      name: "Ствол № 1, январь",
      project: project.id,
      point: shaft.id,
      basis: "gross",
      periods: [{ from: `${year}-01-01`, to: `${year}-01-31`, flow_m3_min: 9000, hours: 744, w_ch4: 0.5, w_co2: 0.1 }],
      p_ch4: 0.668,
      p_co2: 1.8393,
    });
    await file.call("POST", "v1/underground_emission_ch4/", {
      name: "Оценка МГЭИК",
      project: project.id,
      volume: 1_500_000,
      inventory_role: "alternative",
      dictionary_items: { get_underground_emission_ch4: 1 },
    });
  }, 120_000);

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
        // D93: the whole year measured at every source, compared as a year; its difference in words.
        expect(mine.scope).toBe("year");
        expect(plain(await card.getByTestId("coverage").innerText())).toContain(
          `Охват: измерено 12 из 12 месяцев на всех стволах и дегазации, ${russian(mine.measured.coverage.hours_pct, 1)} % часов источников за год; сравнивается весь год`,
        );
        const factor = mine.explanations.find((e) => e.kind === "factor")!;
        expect(factor.text).toContain("ее объясняет коэффициент");
        await card.getByTestId("explanation").filter({ hasText: "ее объясняет коэффициент" }).waitFor();

        // A part-year: one month of twelve gives no verdict, and the totals come first.
        const early = answer.facilities.find((f) => f.facility_name === "Шахта «Первый месяц»")!;
        expect(early.consistent).toBeNull();
        const newCard = page.getByTestId("mine-comparison").filter({ hasText: "Шахта «Первый месяц»" });
        await newCard.getByTestId("verdict").waitFor();
        expect(await newCard.getByTestId("verdict").innerText()).toBe("судить рано: измерено 1 из 12 месяцев");
        expect(plain(await newCard.getByTestId("coverage").innerText())).toContain(
          `измерено 1 из 12 месяцев на всех стволах и дегазации, ${russian(early.measured.coverage.hours_pct, 1)} % часов источников за год; ` +
            `сравниваются измеренные месяцы: ${russian(early.compared!.measured_ch4_t, 2)} т CH4 против доли оценки за них ${russian(early.compared!.estimated_ch4_t, 2)} т CH4`,
        );
        // The estimate above is the whole year's; the difference is of the compared month only.
        expect(plain(await newCard.getByTestId("estimated").innerText())).toContain("Оценка по добыче угля за весь год (для сравнения)");
        expect(plain(await newCard.getByTestId("difference").innerText())).toMatch(
          new RegExp(`^За сравниваемые месяцы разница −${russian(Math.abs(early.difference_t!), 2)} т CH4`),
        );
        expect(plain(await card.getByTestId("difference").innerText())).toMatch(/^Разница −/);
        const [missing] = early.explanation_totals;
        expect(missing.text).toMatch(/^не измерено или не принято: 11 месяцев, ≈ /);
        expect(plain(await newCard.getByTestId("explanation-total").first().innerText())).toBe(plain(`Итого — ${missing.text}`));
        await newCard.scrollIntoViewIfNeeded();
        await screenshot(newCard, { path: `${SHOTS}/measured-vs-estimated-part-year-${viewport.width}.png` });
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
