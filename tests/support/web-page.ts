// Helpers for browser tests of the web app. pickOption chooses an antd Select option the way a
// user does, robust on a loaded machine: antd may swallow a click that lands while the list is
// still sliding in, so the choice is retried until the select shows it, and a list left open is
// closed with Escape.
import type { Locator, Page } from "playwright-core";

const openList = (page: Page) => page.locator(".ant-select-dropdown:visible");

export async function pickOption(page: Page, select: Locator, option: string | RegExp, attempts = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await select.click();
    const options = openList(page).locator(".ant-select-item-option");
    const wanted = typeof option === "string" ? options.and(page.locator(`[title="${option}"]`)) : options.filter({ hasText: option });
    await wanted.first().waitFor();
    // Let the opening animation finish before clicking.
    await page.locator(".ant-select-dropdown.ant-slide-up-enter-active").waitFor({ state: "detached" }).catch(() => undefined);
    await wanted.first().click();
    try {
      await openList(page).waitFor({ state: "hidden", timeout: 2_000 });
    } catch {
      await page.keyboard.press("Escape");
      await openList(page).waitFor({ state: "hidden" });
    }
    const shown = await select
      .locator("xpath=ancestor-or-self::*[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]")
      .innerText();
    const chosen = typeof option === "string" ? shown.includes(option) : option.test(shown);
    if (chosen || attempt >= attempts) return;
  }
}

/** The API as the signed-in page calls it: same origin, the page's stored access token. */
export function callApi<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const headers = { Authorization: `Bearer ${localStorage.getItem("token")}`, "Content-Type": "application/json" };
      const answer = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: answer.status, json: await answer.json() };
    },
    { method, path, body },
  ) as Promise<{ status: number; json: T }>;
}
