// D26 in a real browser against the real local server: a mine whose flare destroyed part of its
// drained methane. The project's uncertainty page shows its calculations, then «− направлено на
// сжигание (факел, котельная)» with the uncertainty of the flare's own metered gas (±20 %,
// methodology 10.1) and the netted total; the inventory's
// drill-down of the mining line notes what the netting took off the gross figure. Needs web/dist
// (`npm run build:web`) and Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const PROJECT = "Шахта «Факельная» 2025";

describe("web app: one netted figure (D26)", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let projectId: string;
  let facilityId: string;

  const at = (path: string) => `${file.server.url}${path}`;
  const { call } = file;

  beforeAll(async () => {
    facilityId = (await call<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «Факельная»", kind: "underground_mine" })).id;
    projectId = (
      await call<{ id: string }>("POST", "v1/projects/create_project/", {
        name: PROJECT,
        start_date: "2025-01-01",
        end_date: "2025-12-31",
        facility: facilityId,
      })
    ).id;
    // 3 100 thousand t at 14,3 m³/t: 29 701,1 t CH4 gross; the flare burnt 20 000 thousand m³ at 60 %.
    await call("POST", "v1/underground_emission_ch4/", {
      name: "Добыча шахты",
      project: projectId,
      volume: 3_100_000,
      ef: 14.3,
      dictionary_items: { get_underground_emission_ch4: null },
    });
    await call("POST", "v1/torch_composition/", {
      name: "Факел",
      project: projectId,
      volume: 20_000,
      w_ch4: 60,
      cf: 0.0006,
      p_co2: 1.8393,
      p_ch4: 0.668,
      dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
    });
    app = await openWebApp(file.server, { user: file.server.demo, timeout: 20_000 });
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
  });

  it("the project's uncertainty: its calculations, the netting line and the netted total", async () => {
    await page.goto(at(`/projects/${projectId}/uncertainty`));
    const line = page.getByTestId("netting-line");
    await line.waitFor();
    // 8 016 t CH4 sent to the flare come off the gross figure, at GWP 25, as uncertain as the flare's
    // metered flow (±20 %, methodology 10.1).
    expect((await line.innerText()).replace(/\s/g, " ")).toMatch(
      /^200 400,00 ± 20,0 % т CO2-экв\. \(по измерению, которым учтен сожженный газ/,
    );
    const total = await page.getByTestId("netted-total").innerText();
    const gross = await page.getByTestId("total-interval").innerText();
    const number = (text: string) => Number(text.split("±")[0].replace(/\s/g, "").replace(",", "."));
    expect(number(gross) - number(total)).toBeCloseTo(200_400, 2);
    await screenshot(page, { path: `${SHOTS}/netting-uncertainty.png`, fullPage: true });
    expect(app.pageErrors).toEqual([]);
  });
});
