// The GWP sets (get_gwp, methodology D1) and the utilisation-technology flow thresholds
// (get_recycle_technology, D5) in the admin's «Справочники» screen, in a real browser against the
// real local server: each edited like any coefficient (the field chosen in the dialog), saved as a
// new version; a calculation stored before keeps its value, a new one takes the new.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, pickOption, signIn, type WebApp, browserFile } from "../support/web-page";
import type { CalculationOf } from "@server/contract";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: GWP sets and utilisation thresholds as dictionary entries", () => {
  const file = browserFile({ admin: true, own: true });
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let demo: <T>(method: string, path: string, body?: unknown) => Promise<T>;
  let projectId: string;

  const at = (path: string) => `${file.server.url}${path}`;
  const row = (text: string) => page.locator(".ant-table-row", { hasText: text });

  async function choose(label: string, option: string, scope: Page | ReturnType<Page["getByRole"]> = page) {
    await scope.getByRole("combobox", { name: label }).click();
    // The list is virtual (a few options drawn at a time): the dictionary is searched by its name.
    if (scope === page) await page.keyboard.type(option);
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: option }).first().click();
  }

  /** Edits one field of entry 1 of the dictionary shown, through the dialog. */
  async function changeEntry1(field: string | undefined, value: string, reason: string) {
    await page.getByRole("button", { name: "Изменить коэффициент 1" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Текущая версия 1").waitFor();
    // The helper that checks the choice took (an option clicked while the list still opens is lost on a loaded machine).
    if (field) await pickOption(page, dialog.getByRole("combobox", { name: "Коэффициент" }), new RegExp(`^${field}`));
    await dialog.getByLabel("Новое значение").fill(value);
    await dialog.getByLabel("Причина изменения").fill(reason);
    await dialog.getByRole("button", { name: "Сохранить новую версию" }).click();
    await dialog.waitFor({ state: "hidden" });
  }

  beforeAll(async () => {
    demo = async <T>(method: string, path: string, body?: unknown) => {
      const res = await fetch(at(path), {
        method,
        headers: { Authorization: `Bearer ${file.token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    // This year's project: an edit dated today reaches reporting years from this one on (D41).
    const year = new Date().getFullYear();
    projectId = (
      await demo<{ id: string }>("POST", "/api/v1/projects/create_project/", {
        name: "Шахта",
        start_date: `${year}-01-01`,
        end_date: `${year}-12-31`,
      })
    ).id;
    app = await openWebApp(file.server, { viewport: { width: 1366, height: 860 }, timeout: 15_000 });
    ({ page, pageErrors } = app);
    await signIn(page, file.server.url, file.server.admin!, "/admin");
    await page.getByRole("tab", { name: "Справочники" }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it("changes the CH4 GWP of set 1: a stored calculation keeps 25, a new one takes 27", async () => {
    const underground = { project: projectId, volume: 1000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };
    const before = await demo<CalculationOf<"underground">>("POST", "/api/v1/underground/", { name: "До изменения", ...underground });
    expect(before.coefficients.gwp_ch4).toMatchObject({ value: 25, item_id: 1, item_version: 1 });

    await choose("Справочник", "Потенциалы глобального потепления");
    await row("Потенциал глобального потепления CH4 = 25").waitFor();
    // The years of force read as years: «1990», «без ограничения», «не назначен» — never «1 990 год».
    const set1 = await row("Распоряжение № 2979-р (МГЭИК AR4), по умолчанию").first().innerText();
    expect(set1).toContain("Действует с отчетного года = 1990");
    expect(set1).toContain("Действует по отчетный год = без ограничения");
    expect(await row("МГЭИК AR5").first().innerText()).toContain("Действует с отчетного года = не назначен");
    expect(`${set1}${await row("МГЭИК AR5").first().innerText()}`).not.toMatch(/1\s990|\bгод\b|0 — не назначен/);
    await changeEntry1(undefined, "27", "Переход на значения нового распоряжения");
    await row("Потенциал глобального потепления CH4 = 27").waitFor();
    expect(await row("Потенциал глобального потепления CH4 = 27").locator("td").nth(3).innerText()).toBe("2");
    await screenshot(page, { path: `${SHOTS}/web-admin-gwp.png` });

    const after = await demo<CalculationOf<"underground">>("POST", "/api/v1/underground/", { name: "После изменения", ...underground });
    expect(after.coefficients.gwp_ch4).toMatchObject({ value: 27, item_version: 2 });
    expect(after.res_ch4_to_co2).toBeCloseTo(after.res_ch4! * 27, 9);
    expect(await demo<CalculationOf<"underground">>("GET", `/api/v1/underground/${before.id}/single_calc/1/`)).toEqual(before);
  });

  it("changes the gas-engine flow threshold: 3 m³/min then recommends a boiler; the stored one keeps its engine", async () => {
    const before = await demo<CalculationOf<"recycle_technology">>("POST", "/api/v1/recycle_technology/", {
      name: "До изменения",
      project: projectId,
      metan: 45,
      a_metan: 3,
    });
    expect(before.technology).toMatch(/газопоршнев/i);

    await choose("Справочник", "Выбор технологии утилизации");
    await row("Минимальный дебит для газопоршневой установки = 2").waitFor();
    await changeEntry1("Минимальный дебит для газопоршневой установки", "4", "Опыт эксплуатации установок");
    await row("Минимальный дебит для газопоршневой установки = 4").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-admin-recycle-thresholds.png` });

    const after = await demo<CalculationOf<"recycle_technology">>("POST", "/api/v1/recycle_technology/", {
      name: "После изменения",
      project: projectId,
      metan: 45,
      a_metan: 3,
    });
    expect(after.technology).toMatch(/котельн/i);
    expect(after.coefficients.q_gas_engine).toMatchObject({ value: 4, item_version: 2 });
    expect(await demo<CalculationOf<"recycle_technology">>("GET", `/api/v1/recycle_technology/${before.id}/single_calc/1/`)).toEqual(
      before,
    );
    expect(pageErrors).toEqual([]);
  });
});
