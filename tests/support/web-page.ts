// Helpers for browser tests of the web app. openWebApp starts Chromium on the built app of a test
// server, with the page's errors collected from its first load, signed in when asked. pickOption
// chooses an antd Select option the way a user does, robust on a loaded machine: antd may swallow a
// click that lands while the list is still sliding in, so the choice is retried until the select
// shows it, and a list left open is closed with Escape.
import { existsSync } from "node:fs";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { workerBrowser } from "./browser";
import { ACCESS_KEY, REFRESH_KEY } from "@web/api/tokens";
import { accessToken, startTestServer, tokenPair, type Credentials, type TestServer, type TestServerOptions } from "./server";

export { accessToken, type Credentials } from "./server";

/** The tokens the API gave a user at sign-in (tokenPair). */
export interface Session {
  access: string;
  refresh: string;
}

/** A user, by credentials or by the session a test already opened for them through the API: the
 *  helpers below sign in (the server's slow password check) only when given credentials. */
export type SignedInAs = Credentials | Session;

const sessionOf = (origin: string, user: SignedInAs): Promise<Session> =>
  "access" in user ? Promise.resolve(user) : tokenPair(origin, user);

const WEB_BUILD = new URL("../../web/dist/index.html", import.meta.url);

export interface WebApp {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The page's uncaught errors. */
  pageErrors: string[];
  /** The page's console messages of type error. */
  consoleErrors: string[];
  close(): Promise<void>;
}

export interface WebAppOptions {
  viewport?: { width: number; height: number };
  /** The page's default timeout, ms. */
  timeout?: number;
  /** Opens signed in as this user: the session in the tab's storage, with no load of the app yet,
   *  so the test's own first load opens its screen signed in (not the landing page first, then the
   *  test's screen: a load the test never looked at). */
  user?: Credentials;
  /** Attaches the test's own listeners before the first navigation. */
  watch?(page: Page): void;
  /** The browser's time zone (IANA), as a user's computer is set; none: the machine's. */
  timezoneId?: string;
}

/** The context options every file's page shares; a file that needs others (its own time zone)
 *  gets a context of its own. */
const TAB_CONTEXT = {
  locale: "ru-RU",
  // As a user who asked for reduced motion: the app then opens dialogs, lists and drawers without
  // antd's animations, which cost a loaded machine's Chromium a third of its work and the tests
  // their waits for an element to stop moving (web-responsive checks the motions of the others).
  reducedMotion: "reduce",
  acceptDownloads: true,
} as const;

let workerTab: Promise<{ context: BrowserContext; page: Page }> | undefined;

/** The worker's one tab, kept from file to file: a new tab is a new renderer process, whose first
 *  load of the app cost Chromium about 1,8 s of CPU against 0,3–0,6 s for a load in a tab that has
 *  loaded it before (its memory cache keeps the parsed scripts, styles and the core's wasm). */
async function sharedTab(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const kept = await workerTab?.catch(() => undefined);
  if (kept && !kept.page.isClosed() && browser.contexts().includes(kept.context)) return kept;
  workerTab = browser.newContext(TAB_CONTEXT).then(async (context) => ({ context, page: await context.newPage() }));
  return workerTab;
}

/** A path of the test server that answers with a page of no script (its 404), with the server's
 *  headers. */
const RESTING_PATH = "/assets/-";

/** Whether `page` shows the app from `origin`: between files the tab rests on a page of that origin
 *  without the app (leaveApp). */
export function appOpenAt(page: Page, origin: string): boolean {
  const url = new URL(page.url());
  return url.origin === origin && url.pathname !== RESTING_PATH;
}

/** Ends the app's page in the tab, leaving it on a page of no script on `origin` (the next file's
 *  server), else on the origin the tab is on. Not on about:blank: the server's pages send
 *  Cross-Origin-Opener-Policy: same-origin, so Chromium gives the tab a new renderer process when it
 *  leaves them for another origin and again when it comes back, and each new process loads the app
 *  without the memory cache of the scripts, styles and wasm it had parsed. */
async function leaveApp(page: Page, origin?: string): Promise<void> {
  const current = page.url();
  const resting = origin ?? (current.startsWith("http") ? new URL(current).origin : undefined);
  if (!resting) {
    if (current !== "about:blank") await page.goto("about:blank");
  } else if (current !== `${resting}${RESTING_PATH}`) {
    await page.goto(`${resting}${RESTING_PATH}`);
  }
}

/** What a file may have left in the shared tab, taken away before the next one opens it: other
 *  tabs, listeners, intercepted routes, media emulation, and the server's origin's storage and
 *  cookies (a new file's server may listen on a port an earlier one had). The memory cache stays. */
async function resetTab(context: BrowserContext, page: Page, origin?: string): Promise<void> {
  for (const other of context.pages()) if (other !== page) await other.close();
  page.removeAllListeners();
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await leaveApp(page, origin);
  await page.emulateMedia({ reducedMotion: "reduce", colorScheme: null, media: null });
  await context.clearCookies();
  await context.clearPermissions();
  if (origin) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Storage.clearDataForOrigin", {
      origin,
      storageTypes: "local_storage,indexeddb,cache_storage,service_workers,file_systems,websql",
    });
    await cdp.detach();
  }
}

/** Chromium with one Russian-locale page on the web app `server` serves (web/dist must be built):
 *  the worker's tab, emptied of what the file before left there, or, given a time zone, a context
 *  of its own. */
export async function openWebApp(server: TestServer, options: WebAppOptions = {}): Promise<WebApp> {
  if (!existsSync(WEB_BUILD)) throw new Error('web/dist is missing: run "npm run build:web" first');
  const browser = await workerBrowser();
  const viewport = options.viewport ?? { width: 1280, height: 900 };
  let context: BrowserContext;
  let page: Page;
  let close: () => Promise<void>;
  if (options.timezoneId) {
    context = await browser.newContext({ ...TAB_CONTEXT, viewport, timezoneId: options.timezoneId });
    page = await context.newPage();
    close = () => context.close();
  } else {
    ({ context, page } = await sharedTab(browser));
    await resetTab(context, page, server.url);
    await page.setViewportSize(viewport);
    close = async () => {
      if (!page.isClosed()) await resetTab(context, page).catch(() => undefined);
    };
  }
  page.setDefaultTimeout(options.timeout ?? 10_000);
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  options.watch?.(page);
  // A signed-in start: the session in the page's storage as the form leaves it, the page still on
  // the origin's page of no app until the test loads its screen.
  if (options.user) await putSession(page, server.url, options.user);
  return { browser, context, page, pageErrors, consoleErrors, close };
}

/** Puts `user`'s session in place as the sign-in form leaves it (its tokens in local storage, the
 *  keys the web app reads at start), without the form: the form's own tests fill it in themselves.
 *  A session a test already opened through the API is put in place as it is, with no new sign-in.
 *  One page load: the tokens are written before the app's first script runs, on `path` if given
 *  (the test's screen, signed in), else on /login, which ends as the form does, on the landing page
 *  or on the page that sent the browser to /login (reloading /login keeps that target). They are
 *  written on that load alone: a later sign-out, reload or token the test changes stays as it is.
 *  A session already open is ended first, as «Выход» ends it. */
export async function signIn(page: Page, origin: string, user: SignedInAs, path = "/login"): Promise<void> {
  const tokens = await sessionOf(origin, user);
  const script = await page.addInitScript(
    ({ origin, keys, access, refresh }) => {
      if (window !== window.top || location.origin !== origin) return;
      if (localStorage.getItem(keys.access) !== null) localStorage.clear();
      localStorage.setItem(keys.access, access);
      localStorage.setItem(keys.refresh, refresh);
    },
    { origin, keys: { access: ACCESS_KEY, refresh: REFRESH_KEY }, ...tokens },
  );
  try {
    await page.goto(`${origin}${path}`);
  } finally {
    await script.dispose();
  }
  await page.waitForURL((url) => url.origin === origin && url.pathname !== "/login");
}

/** Puts `user`'s session in the storage of `origin` as signIn does, with no load of the app: the tab
 *  on that origin's page of no script (as between files), so the test's first load of a screen opens
 *  it signed in. */
async function putSession(page: Page, origin: string, user: SignedInAs): Promise<void> {
  const tokens = await sessionOf(origin, user);
  await leaveApp(page, origin);
  await page.evaluate(
    ({ keys, access, refresh }) => {
      localStorage.clear();
      localStorage.setItem(keys.access, access);
      localStorage.setItem(keys.refresh, refresh);
    },
    { keys: { access: ACCESS_KEY, refresh: REFRESH_KEY }, ...tokens },
  );
}

/** Moves the app open on `page` to `path` as one of its links does: the router shows the page with
 *  no new load (a load costs Chromium several times a step inside the app: the scripts, styles and
 *  the core's wasm again). The app keeps the page before on view until the next one has rendered
 *  (the router moves in a transition): a test then waits for what the new page alone shows. What the
 *  app fetched in the last 30 s it shows from its cache: the data a test reads are made before the
 *  app first loads, or on a screen that fetches them anew. */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((path) => {
    // The router's own entry shape (its index one further), as a push of its own leaves it.
    const index = ((history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: index }, "", path);
    dispatchEvent(new PopStateEvent("popstate", { state: history.state }));
  }, path);
}

/** Shows `path` signed in as `user`: inside the app when `page` already has it open on `origin` with a
 *  session, else in one load with `user`'s session put in place (signIn). Which user an open session
 *  belongs to is not checked: a page switches users with signIn. */
export async function showSignedIn(page: Page, origin: string, user: Credentials, path: string): Promise<void> {
  const open = appOpenAt(page, origin) && (await page.evaluate((key) => localStorage.getItem(key) !== null, ACCESS_KEY).catch(() => false));
  if (open) await navigateInApp(page, path);
  else await signIn(page, origin, user, path);
}

/** A script's JSON call of the API under `origin` with the token `token()` gives at the time: the
 *  answer's body, or an error naming the call and the status. */
export function apiCaller(origin: () => string, token: () => string) {
  return async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${origin()}/api/${path}`, {
      method,
      headers: { Authorization: `Bearer ${token()}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/** What a browser file opens with: its server, its user (`server.demo`, or a user of its own), the user's
 *  API token and the API called as that user. */
export interface BrowserFile {
  readonly server: TestServer;
  readonly user: Credentials;
  readonly token: string;
  readonly call: ReturnType<typeof apiCaller>;
}

export interface BrowserFileOptions extends TestServerOptions {
  /** A new user in a company of its own, for a file whose data must not meet the demo company's. */
  ownUser?: boolean;
}

/** Every browser file's opening, registered where it is called (before the file's own beforeAll):
 *  before its tests the server (the worker's, or with `options` as startTestServer takes them) and its
 *  user's token, after them the server closed. The fields are there once the file's tests run. */
export function browserFile({ ownUser = false, ...options }: BrowserFileOptions = {}): BrowserFile {
  const opened: { server?: TestServer; user?: Credentials; token?: string } = {};
  beforeAll(async () => {
    opened.server = await startTestServer(options);
    opened.user = ownUser ? await opened.server.newUser() : opened.server.demo;
    opened.token = await accessToken(opened.server.url, opened.user);
  }, 120_000);
  afterAll(async () => {
    await opened.server?.close();
  });
  return {
    get server() {
      return opened.server!;
    },
    get user() {
      return opened.user!;
    },
    get token() {
      return opened.token!;
    },
    call: apiCaller(
      () => opened.server!.url,
      () => opened.token!,
    ),
  };
}

/** A mine with one ventilation shaft, made through the API as a user would: their ids. */
export async function newMine(call: BrowserFile["call"], name: string, shaft = "Ствол"): Promise<{ facility: string; point: string }> {
  const facility = (await call<{ id: string }>("POST", "v1/facilities/", { name, kind: "underground_mine" })).id;
  const point = (await call<{ id: string }>("POST", `v1/facilities/${facility}/points/`, { name: shaft, kind: "ventilation_shaft" })).id;
  return { facility, point };
}

const openList = (page: Page) => page.locator(".ant-select-dropdown:visible");

export async function pickOption(page: Page, select: Locator, option: string | RegExp, attempts = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await select.click();
    const options = openList(page).locator(".ant-select-item-option");
    const wanted = typeof option === "string" ? options.and(page.locator(`[title="${option}"]`)) : options.filter({ hasText: option });
    await wanted.first().waitFor();
    // Let the opening animation finish before clicking.
    await page
      .locator(".ant-select-dropdown.ant-slide-up-enter-active")
      .waitFor({ state: "detached" })
      .catch(() => undefined);
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

/** The project the helpers below create: active, over the year 2024. */
const projectFields = (name: string) => ({ name, start_date: "2024-01-01", end_date: "2024-12-31", status: 1 });

/** Creates a project through the API as the signed-in page's user; returns its id. */
export async function createProject(page: Page, name: string): Promise<string> {
  const created = await callApi<{ id: string }>(page, "POST", "/api/v1/projects/create_project/", projectFields(name));
  if (created.status !== 201) throw new Error(`project not created: ${created.status} ${JSON.stringify(created.json)}`);
  return created.json.id;
}

/** Creates projects `names` (the last the newest) through the API as `user` of the server at
 *  `origin`, before a page shows them: the page then opens on them once, instead of loading the app
 *  to create them and loading it again. Returns their ids. */
export async function createProjectsAs(origin: string, user: SignedInAs, names: string[]): Promise<string[]> {
  const token = (await sessionOf(origin, user)).access;
  const call = apiCaller(
    () => origin,
    () => token,
  );
  const ids: string[] = [];
  for (const name of names) ids.push((await call<{ id: string }>("POST", "v1/projects/create_project/", projectFields(name))).id);
  return ids;
}

/** The screens' number form: «183 700,00», «33,2». */
export const russian = (value: number, decimals: number) =>
  value
    .toFixed(decimals)
    .replace(".", ",")
    .replace(/\B(?=(\d{3})+(?!\d))/g, " ");
/** A screen's text with its no-break and thin spaces as plain ones. */
export const plain = (text: string) => text.replace(/\s/g, " ");
