// The mine's own factor in a real browser (methodology D107), at 1440 and 390 px (screenshots with
// SCREENSHOTS=1): 19,85 m³/t typed as «Фактическое значение» with ±10 % and its justification is kept
// with «Сохранить как собственный коэффициент шахты»; the next calculation is offered it, takes it, and
// the two store the identical typed value — the one source D107 groups. On the phone the offer fits the
// screen. The dialog's logic is web/src/features/calculations/OwnFactor.test.tsx; the API's
// tests/integration/own-factors.test.ts. Needs web/dist and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { browserFile, openWebApp, pickOption, showSignedIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow, wholly } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const WHY = "Газоносность пласта по пластовым испытаниям 2024 г., протокол № 5";
const KEEP = "Сохранить как собственный коэффициент шахты";

interface Stored {
  name: string;
  coefficients: Record<
    string,
    { value: number; unit: string; source: string; justification?: string; uncertainty?: Record<string, unknown> }
  >;
}

describe("web app: the mine's own factor (D107)", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  let project = "";
  const year = new Date().getUTCFullYear() - 1;

  beforeAll(async () => {
    project = (
      await file.call<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Шахта «Своя газоносность»",
        start_date: `${year}-01-01`,
        end_date: `${year}-12-31`,
      })
    ).id;
    app = await openWebApp(file.server);
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  /** «Новый расчет» with its name and coal typed and «Фактическое значение» chosen for the CH4 factor. */
  async function newTypedCalculation(name: string) {
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const form = page.getByRole("dialog", { name: "Новый расчет" });
    await form.getByLabel("Название расчета").fill(name);
    await form.getByLabel("Объём добычи угля подземным способом", { exact: true }).fill("100000");
    await pickOption(page, form.locator("#calc-dictionary-get_underground_emission_ch4"), "Фактическое значение");
    const item = form.locator(".ant-form-item", { has: page.locator("#calc-field-ef") });
    return { form, item };
  }

  it("keeps a typed factor, offers it to the next calculation, which stores the same value, at 1440 and 390 px", {
    timeout: 180_000,
  }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.user, `/projects/${project}/calculations?type=underground_emission_ch4`);
    await page.getByRole("heading", { name: "Расчеты — Шахта «Своя газоносность»" }).waitFor();

    // January types the mine's own gas content with ±10 % and its justification, and keeps it.
    const first = await newTypedCalculation("Оценка, январь");
    const keep = first.item.getByRole("button", { name: KEEP });
    expect(await keep.isDisabled()).toBe(true);
    const ef = first.form.locator("#calc-field-ef");
    await ef.fill("");
    await ef.pressSequentially("19,85");
    await first.form.getByLabel("Обоснование: Коэффициент выбросов CH4 при подземной добыче").fill(WHY);
    await first.item.getByText("Своя неопределенность значения", { exact: false }).click();
    await first.item.locator("#uncertainty-ef-lower").fill("10");
    await first.item.locator("#uncertainty-ef-upper").fill("10");
    await expect.poll(() => keep.isDisabled()).toBe(false);
    await keep.click();
    await first.item.getByText("Собственный коэффициент шахты: сохранен", { exact: false }).waitFor();
    await screenshot(first.form, { path: `${SHOTS}/web-own-factor-kept-1440.png` });
    await first.form.getByRole("button", { name: "Создать" }).click();
    await first.form.waitFor({ state: "hidden" });

    // February is offered the kept entry and takes it.
    const second = await newTypedCalculation("Оценка, февраль");
    const own = second.item.locator("#calc-field-ef-own");
    await own.waitFor();
    await pickOption(page, own, /Газоносность пласта по пластовым испытаниям/);
    await expect.poll(() => second.form.locator("#calc-field-ef").inputValue()).toBe("19,85");
    expect(await second.form.getByLabel("Обоснование: Коэффициент выбросов CH4 при подземной добыче").inputValue()).toBe(WHY);
    await second.item.getByText("Собственный коэффициент шахты: сохранен", { exact: false }).waitFor();
    expect(await second.item.getByRole("button", { name: KEEP }).count()).toBe(0);
    await screenshot(second.form, { path: `${SHOTS}/web-own-factor-taken-1440.png` });
    await second.form.getByRole("button", { name: "Создать" }).click();
    await second.form.waitFor({ state: "hidden" });

    const { results } = await file.call<{ results: Stored[] }>("GET", `v1/underground_emission_ch4/?project=${project}`);
    const efs = results.map((c) => c.coefficients.ef);
    expect(efs).toHaveLength(2);
    for (const ef of efs) expect(ef).toMatchObject({ value: 19.85, source: "custom", justification: WHY });
    // The identical typed value, uncertainty and all: one source for D107.
    expect({ ...efs[1].uncertainty, source: undefined }).toEqual({ ...efs[0].uncertainty, source: undefined });
    expect(efs[0].uncertainty).toMatchObject({ lower_pct: 10, upper_pct: 10, distribution: "normal" });

    // On the phone the offer fits the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Меню" }).waitFor();
    const phone = await newTypedCalculation("Оценка, март");
    const offered = phone.item.locator("#calc-field-ef-own");
    await offered.waitFor();
    await pickOption(page, offered, /Газоносность пласта по пластовым испытаниям/);
    await phone.item.getByText("Собственный коэффициент шахты: сохранен", { exact: false }).waitFor();
    expect(await wholly(offered)).toBe(true);
    expect(await wholly(phone.item.getByText("Собственный коэффициент шахты: сохранен", { exact: false }))).toBe(true);
    await expect.poll(() => pageOverflow(page)).toBe(0);
    await screenshot(phone.form, { path: `${SHOTS}/web-own-factor-390.png` });
    // Typed anew, the value offers to be kept again, and the button fits the phone.
    const ef3 = phone.form.locator("#calc-field-ef");
    await ef3.fill("");
    await ef3.pressSequentially("21,4");
    const keepPhone = phone.item.getByRole("button", { name: KEEP });
    await keepPhone.waitFor();
    expect(await wholly(keepPhone)).toBe(true);
    await screenshot(phone.form, { path: `${SHOTS}/web-own-factor-keep-390.png` });
  });
});
