// The web app in happy-dom for a component test, signed in (or, for the sign-in form, not), its server
// the contract's stand-in (contract-api.ts), and userEvent to type key by key as a user does:
// `openPage` renders one page at its route inside what the app gives every page (its stores, Russian
// antd, the messages), in the manner of excalidraw's tests/helpers/ui.ts; `openApp` the whole App
// with its routes and shell (main.tsx), for what crosses pages; `openPart` one part of a page.
// `closeApp` ends the session as «Выход» does; `setField` fills a field whose typing is not the point.
import { Suspense, type ReactNode } from "react";
import { render } from "@testing-library/react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { QueryClientProvider } from "@tanstack/react-query";
import { ConfigProvider, type ThemeConfig } from "antd";
import ruRU from "antd/locale/ru_RU";
import { Provider as JotaiProvider } from "jotai";
import userEvent, { PointerEventsCheckLevel } from "@testing-library/user-event";
import { StyleProvider } from "@ant-design/cssinjs";
import { vi } from "vitest";
import { storeTokens } from "../api/tokens";
import { App } from "../app/App";
import { appStore, queryClient } from "../app/store";
import { FeedbackHost } from "../shared/feedback";
import { accessTokenAtom } from "../app/sessionAtoms";
import { connectClientToSession, signOut } from "../app/session";
import { contractApi, type ContractApi } from "./contract-api";
import { fakeJwt } from "./fakes";

export interface OpenApp {
  api: ContractApi;
  user: ReturnType<typeof userEvent.setup>;
}

/** Puts `text` in a field at once, as a paste over what it held: for the fields a test fills but does
 *  not test, so that only the field whose typing is the point is typed key by key (each key renders the
 *  form again and checks it). */
export async function setField(user: OpenApp["user"], field: HTMLElement, text: string): Promise<void> {
  await user.clear(field);
  if (text) await user.paste(text);
}

/** Signs in with a token valid for an hour, goes to `path` and renders the app; `answer` gives the
 *  server's answers before the first render. */
export function openApp(path: string, answer: (api: ContractApi) => void): OpenApp {
  return renderApp(path, signedIn(withShell(answer)));
}

/** The whole app's shell asks for the company's facilities (the monitoring entries of the side menu,
 *  one per mine): none, unless the test answers otherwise. */
const withShell = (answer: (api: ContractApi) => void) => (api: ContractApi) => {
  api.on("listFacilities", []);
  answer(api);
};

/** The app at `path` with no session, as a visitor who never signed in (or signed out) opens it;
 *  `state` is the history entry's, as a crafted entry could carry one. */
export function openSignedOut(path: string, answer: (api: ContractApi) => void, state: unknown = {}): OpenApp {
  const api = contractApi();
  withShell(answer)(api);
  connectClientToSession();
  return renderApp(path, { api, user: keyByKey() }, state);
}

function renderApp(path: string, opened: OpenApp, state: unknown = {}): OpenApp {
  window.history.pushState(state, "", path);
  render(
    <StyleProvider mock="server" container={unusedStyles}>
      <App />
    </StyleProvider>,
  );
  return opened;
}

/** One part of a page, signed in, inside what the app gives every page (its stores, Russian antd,
 *  the messages), without the routes and the shell around it. */
export function openPart(part: ReactNode, answer: (api: ContractApi) => void): OpenApp {
  const opened = signedIn(answer);
  render(<PageFrame>{part}</PageFrame>);
  return opened;
}

export interface PageAt {
  /** Where the page opens, with its query: `/projects/p-1/calculations?type=…`. */
  path: string;
  /** The route table's pattern when the path has parameters: `/projects/:projectId/calculations`. */
  route?: string;
  page: ReactNode;
}

/** One page at its route, signed in, without the shell and the other pages: a link or a navigation
 *  that leaves it shows where it went in `leftFor()`. */
export function openPage({ path, route, page }: PageAt, answer: (api: ContractApi) => void): OpenApp {
  const opened = signedIn(answer);
  render(
    <PageFrame>
      <MemoryRouter initialEntries={[path]}>
        <Suspense>
          <Routes>
            <Route path={route ?? path.split("?")[0]} element={page} />
            <Route path="*" element={<LeftFor />} />
          </Routes>
        </Suspense>
      </MemoryRouter>
    </PageFrame>,
  );
  return opened;
}

function LeftFor() {
  const { pathname, search } = useLocation();
  return <output data-testid="left-for">{pathname + search}</output>;
}

/** The path a page went to, once it left the page under test; null while on it. */
export const leftFor = (): string | null => document.querySelector("[data-testid=left-for]")?.textContent ?? null;

// antd writes its theme's tokens as CSS variables, hundreds of them in a <style> (even under
// mock="server", which keeps the components' own styles out). No stylesheet of the tests' pages reads
// them (main.tsx's antd.css is not loaded here), but the test's DOM weighs that rule for every
// element it computes a style for: each key typed into an auto-sized text area asks for one. The
// <style> goes to an element outside the document instead.
const unusedStyles = document.createElement("div");
// The app's own theme and wave as the tests' reduced-motion window gets them (App.tsx): zeroRuntime
// leaves antd's component styles unbuilt (the app loads them pre-built), no motion, no wave. With the
// variables' <style> out of the document, the calculation dialog's test took 21.0-21.7 s user instead
// of 23.7-25.6 s (interleaved runs at load 12-17).
const FRAME_THEME: ThemeConfig = { zeroRuntime: true, token: { motion: false } };
const WAVE_OFF = { disabled: true };

/** What the app gives every page: its stores, Russian antd without motion, the messages. */
function PageFrame({ children }: { children: ReactNode }) {
  return (
    <StyleProvider mock="server" container={unusedStyles}>
      <JotaiProvider store={appStore}>
        <QueryClientProvider client={queryClient}>
          <ConfigProvider locale={ruRU} theme={FRAME_THEME} wave={WAVE_OFF}>
            <FeedbackHost />
            {children}
          </ConfigProvider>
        </QueryClientProvider>
      </JotaiProvider>
    </StyleProvider>
  );
}

function signedIn(answer: (api: ContractApi) => void): OpenApp {
  const api = contractApi();
  answer(api);
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const access = fakeJwt({ exp, type: "access" });
  storeTokens(access, fakeJwt({ exp, type: "refresh" }));
  appStore.set(accessTokenAtom, access);
  connectClientToSession();
  return { api, user: keyByKey() };
}

// Keys one task apart, as a browser dispatches them: what a key starts (an async field check) runs before the next.
const keyByKey = () => userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never });

/** Ends the session (local storage, cached answers, the app's state) and removes the stand-in. */
export function closeApp(): void {
  signOut();
  vi.unstubAllGlobals();
}
