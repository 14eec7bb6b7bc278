// an earlier round in a real browser: the «по составу газа» flaring dialog (docs/methodology.md, D11, Order
// 371 formulas 2.2 and 2.4). The worked example typed key by key with decimal commas, the smokeless
// flare and 20 °C densities preselected from their dictionaries, the live preview equal to the
// example, the stored result read back through the API (a composition above 100 % is refused in
// web/src/features/calculations/TorchComposition.test.tsx).
// Each test makes its project through the API (one of its own on each try) and opens the page on it
// once, or reaches it inside the app when the page already shows the app: any one runs alone.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { REGISTRY } from "@core/registry";
import { SECTION_7_VECTORS } from "@core/methodology-vectors";
import { formatResult } from "@web/shared/decimals";
import { startTestServer, type TestServer } from "../support/server";
import { callApi, createProjectsAs, openWebApp, signIn, type WebApp } from "../support/web-page";
import type { CalculationView } from "@server/contract";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const TYPE = "torch_composition";
const example = SECTION_7_VECTORS.torch_composition[0];
const RESULTS = REGISTRY[TYPE].results;

describe("web app: flaring by composition (torch_composition)", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;

  const dialog = () => page.getByRole("dialog", { name: "Новый расчет" });
  const field = (name: string) => {
    const label = REGISTRY[TYPE].inputs.find((f) => f.name === name)!.label;
    return dialog().getByLabel(label, { exact: true });
  };
  const stored = async (projectId: string) =>
    (
      await callApi<{ results: CalculationView[] }>(
        page,
        "GET",
        `/api/v1/${TYPE}/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`,
      )
    ).json.results;

  beforeAll(async () => {
    server = await startTestServer();
    app = await openWebApp(server);
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("previews the worked example of 7.1 typed with decimal commas and stores what it previewed: the API returns it to 1e-9", async () => {
    const [projectId] = await createProjectsAs(server.url, server.demo, ["Шахта Факельная"]);
    await signIn(page, server.url, server.demo, `/projects/${projectId}/calculations?type=${TYPE}`);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    await dialog().getByText(REGISTRY[TYPE].title, { exact: true }).waitFor();
    await dialog().getByLabel("Название расчета").fill("Факел по составу газа");
    for (const [name, text] of [
      ["volume", "2500"],
      ["w_ch4", "60"],
      ["w_co2", "5"],
      ["w_c2h6", "1"],
      ["w_c3h8", "0,5"],
    ] as const) {
      await field(name).pressSequentially(text);
      expect(await field(name).inputValue()).toBe(text);
    }
    // Butane and pentane stay empty: they count as 0. CF and the densities come from the first entries.
    expect(await field("w_c4h10").inputValue()).toBe("");
    const preview = dialog().getByTestId("preview");
    await preview
      .getByTestId("preview-sum_co2")
      .filter({ hasText: formatResult(example.sum_co2 as number, 2) })
      .waitFor();
    for (const result of RESULTS) {
      expect(await preview.getByTestId(`preview-${result.name}`).innerText(), result.name).toBe(
        formatResult(example[result.name] as number, result.decimals ?? 2),
      );
    }
    await screenshot(page, { path: `${SHOTS}/web-torch-composition-dialog.png`, fullPage: true });

    await dialog().getByRole("button", { name: "Создать" }).click();
    await dialog().waitFor({ state: "hidden" });
    const [calc] = await stored(projectId);
    expect(calc.name).toBe("Факел по составу газа");
    for (const result of RESULTS) {
      expect(Math.abs((calc[result.name] as number) - (example[result.name] as number)), result.name).toBeLessThanOrEqual(1e-9);
    }
    expect(calc.coefficients.cf).toMatchObject({ value: 0.0006, dictionary: "get_torch_cf", item_id: 1 });
    expect(calc.coefficients.p_ch4).toMatchObject({ value: 0.668, dictionary: "get_coeff_co2_density", item_id: 1 });
  });
});
