// Starting and ending a session. Sign-out is the single exit for «Выход», any 401 and a failed
// refresh (SPEC 4): all local storage goes, and so does every cached server answer, so the next
// user of this browser sees nothing of the previous one.
import { configureClient, type TokenPair } from "../../api/client";
import { storeTokens } from "../../api/tokens";
import { appStore, queryClient } from "../../app/store";
import { DEFAULT_DECIMALS } from "../settings/decimals";
import { decimalsAtom } from "../settings/atoms";
import { accessTokenAtom } from "./atoms";

export function signIn(tokens: TokenPair): void {
  storeTokens(tokens.access, tokens.refresh);
  appStore.set(accessTokenAtom, tokens.access);
}

export function signOut(): void {
  localStorage.clear();
  queryClient.clear();
  appStore.set(accessTokenAtom, null);
  appStore.set(decimalsAtom, DEFAULT_DECIMALS);
}

export function connectClientToSession(): void {
  configureClient({
    onUnauthorized: signOut,
    onAccessToken: (access) => appStore.set(accessTokenAtom, access),
  });
}
