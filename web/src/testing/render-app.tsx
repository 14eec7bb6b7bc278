// The whole web app in jsdom for a component test, signed in and opened at a page: the same App,
// routes and stores as in the browser (main.tsx), its server the contract's stand-in (contract-api.ts),
// and userEvent to type key by key as a user does, signed in or, for the sign-in form, not. `closeApp`
// ends the session as «Выход» does.
import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { ConfigProvider } from "antd";
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

/** Signs in with a token valid for an hour, goes to `path` and renders the app; `answer` gives the
 *  server's answers before the first render. */
export function openApp(path: string, answer: (api: ContractApi) => void): OpenApp {
  return renderApp(path, signedIn(answer));
}

/** The app at `path` with no session, as a visitor who never signed in (or signed out) opens it. */
export function openSignedOut(path: string, answer: (api: ContractApi) => void): OpenApp {
  const api = contractApi();
  answer(api);
  connectClientToSession();
  return renderApp(path, { api, user: keyByKey() });
}

function renderApp(path: string, opened: OpenApp): OpenApp {
  window.history.pushState({}, "", path);
  render(
    <StyleProvider mock="server">
      <App />
    </StyleProvider>,
  );
  return opened;
}

/** One part of a page, signed in, inside what the app gives every page (its stores, Russian antd,
 *  the messages), without the routes and the shell around it. */
export function openPart(part: ReactNode, answer: (api: ContractApi) => void): OpenApp {
  const opened = signedIn(answer);
  render(
    <StyleProvider mock="server">
      <JotaiProvider store={appStore}>
        <QueryClientProvider client={queryClient}>
          <ConfigProvider locale={ruRU} theme={{ token: { motion: false } }}>
            <FeedbackHost />
            {part}
          </ConfigProvider>
        </QueryClientProvider>
      </JotaiProvider>
    </StyleProvider>,
  );
  return opened;
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
