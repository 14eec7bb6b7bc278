// Headless Debian Chromium driven by playwright-core (no browser download). As root Chromium needs
// --no-sandbox; with no internet the background-networking flags keep its log free of refused connections.
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { onWorkerEnd } from "./worker-end";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

let running: Promise<Browser> | undefined;

/** One Chromium per test worker (the browser tier shares its workers' modules): its files take
 *  turns in one tab, emptied between them (openWebApp, web-page.ts), without the launch. */
export function workerBrowser(): Promise<Browser> {
  if (!running) {
    const launching = launchBrowser().then((browser) => {
      browser.on("disconnected", () => {
        if (running === launching) running = undefined;
      });
      return browser;
    });
    running = launching;
    onWorkerEnd(async () => {
      const browser = await launching.catch(() => undefined);
      await browser?.close();
    });
  }
  return running;
}

/** Takes a screenshot for a person to look at, only when asked (SCREENSHOTS=1): no test compares
 *  them, and a hundred of them cost the browser tier its time. */
export async function screenshot(target: Page | Locator, options: { path: string; fullPage?: boolean }): Promise<void> {
  if (process.env.SCREENSHOTS !== "1") return;
  await ("mainFrame" in target ? target.screenshot(options) : target.screenshot({ path: options.path }));
}
