// What the component tests need of a browser that happy-dom answers otherwise: matchMedia (antd's grid
// and responsive hooks) for a desktop width and a user who asks for reduced motion, where happy-dom's
// window is 1024 px wide and asks for motion; the Russian calendar the app sets at start (main.tsx);
// and Testing Library's unmount after each test (it registers that itself only where test globals
// exist). Called by dom-setup.ts before each component test file; what it changes of the process
// (NODE_ENV, the calendar's locale) is undone after the file, for the Node files that share the worker.
import { cleanup, configure, getConfig } from "@testing-library/react";
import dayjs from "dayjs";
import * as React from "react";
import "dayjs/locale/ru";
import { afterAll, afterEach, beforeAll, onTestFinished, vi } from "vitest";

const DESKTOP_WIDTH = 1366;

// A query that fails prints the page with its message. Inside waitFor and findBy* it fails at each
// check until what is awaited shows, and that print was 6 % of the calculation dialog's test; there
// (Testing Library marks those checks as «expensive diagnostics off») the failure is made without
// it. Whatever fails for good still prints the page: a query outside waitFor, and waitFor itself at
// its timeout, which prints the page as it is then.
const printingElementError = getConfig().getElementError;
const elementError: typeof printingElementError = (message, container) => {
  if (!(getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })._disableExpensiveErrorDiagnostics)
    return printingElementError(message, container);
  const error = new Error(message ?? "");
  error.name = "TestingLibraryElementError";
  return error;
};

export function installDomGlobals(): void {
  const locale = dayjs.locale();
  const nodeEnv = process.env.NODE_ENV;
  beforeAll(() => {
    ownerStacks(false);
    dayjs.locale("ru");
    // antd's ids as in the browser: under NODE_ENV=test every one is «test-id», so a dialog's title
    // would not name it.
    process.env.NODE_ENV = "development";
  });
  afterAll(() => {
    ownerStacks(true);
    dayjs.locale(locale);
    process.env.NODE_ENV = nodeEnv;
    // A part rendered outside render-app.tsx's frame (a shared field or list, rendered bare) has antd
    // write its components' styles into <head>, where they stay: every later file of the worker's
    // window would weigh their hundreds of rules for each style it computes (antd's tables and
    // pop-ups measure theirs, Testing Library asks whether an element is hidden).
    for (const style of document.head.querySelectorAll("style")) style.remove();
  });
  // A page's lazy chunks load, and antd's components are first drawn, on first use: a page the user
  // waits for takes a second on a quiet machine and may take twenty beside the whole tier on a loaded
  // one. The wait ends as soon as what is awaited shows.
  configure({ asyncUtilTimeout: 30_000, getElementError: elementError });
  vi.setConfig({ testTimeout: 90_000 });
  afterEach(() => cleanup());
  beforeAll(() => window.addEventListener("click", saveNotOpen, true));
  afterAll(() => window.removeEventListener("click", saveNotOpen, true));

  window.matchMedia = (query) => matchMedia(query);
}

/** A click on a link with `download` (saveBlob.ts, a document's file) saves in a browser and leaves the
 *  page where it is; happy-dom opens the link's blob: address in the window instead, and every later
 *  file of the worker that renders the whole app (`openApp`, `openSignedOut`) found its router at that
 *  address and drew nothing (LoginPage's, Shell's and ProjectsPage's tests, after ClimateSignatures'
 *  download, each waited out its 30 s). The click still reaches the page's own handlers. */
function saveNotOpen(event: MouseEvent): void {
  const link = event.target instanceof Element ? event.target.closest("a[download]") : null;
  if (link) event.preventDefault();
}

/** React's development build (the one with act, which Testing Library needs) records where each
 *  element was made, an Error's stack and a console task for each of the first 10 000 elements of
 *  every second: 10 % of the calculation dialog's test. Inside a component test file it records none
 *  (the count it keeps reads as past its limit), as past that limit; its warnings then name the
 *  component without the stack. What a test checks is the same. */
function ownerStacks(on: boolean): void {
  const internals = (React as unknown as Record<string, object | undefined>)
    .__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
  if (!internals || !("recentlyCreatedOwnerStacks" in internals)) return;
  const count = on ? { value: 0, writable: true } : { get: () => Number.POSITIVE_INFINITY, set: () => {} };
  Object.defineProperty(internals, "recentlyCreatedOwnerStacks", { ...count, configurable: true, enumerable: true });
}

/** A desktop window («(max-width: 767.98px)» false, «(min-width: 992px)» true) whose user asks for
 *  reduced motion, as the browser tests' (antd's dialogs then open without animation). */
/** The rest of the running test at a phone's width (390 px): the media queries answer for it, as
 *  usePhone and ResponsiveTable read them. Undone when the test ends. */
export function atPhoneWidth(): void {
  const spy = vi.spyOn(window, "matchMedia").mockImplementation((query) => matchMedia(query, PHONE_WIDTH));
  onTestFinished(() => spy.mockRestore());
}
const PHONE_WIDTH = 390;

function matchMedia(query: string, width = DESKTOP_WIDTH): MediaQueryList {
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  const matches =
    min || max ? (!min || width >= Number(min[1])) && (!max || width <= Number(max[1])) : /prefers-reduced-motion:\s*reduce/.test(query);
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  };
}
