// Starting and ending a session. Sign-out is the single exit for «Выход», any 401 and a failed
// refresh (docs/user-guide.md): all local storage goes, and so does every cached server answer, so the next
// user of this browser sees nothing of the previous one.
import { configureClient, type TokenPair } from "../api/client";
import { storeTokens } from "../api/tokens";
import { appStore, queryClient } from "./store";
import { DEFAULT_DECIMALS } from "../shared/decimals";
import { decimalsAtom } from "../shared/decimalsAtom";
import { projectDialogAtom } from "../features/projects/atoms";
import { accessTokenAtom } from "./sessionAtoms";

export function signIn(tokens: TokenPair): void {
  storeTokens(tokens.access, tokens.refresh);
  appStore.set(accessTokenAtom, tokens.access);
}

export function signOut(): void {
  localStorage.clear();
  queryClient.clear();
  appStore.set(accessTokenAtom, null);
  appStore.set(decimalsAtom, DEFAULT_DECIMALS);
  // UI state that belongs to the session: the next user starts with no dialog open.
  appStore.set(projectDialogAtom, null);
}

export function connectClientToSession(): void {
  configureClient({
    onUnauthorized: signOut,
    onAccessToken: (access) => appStore.set(accessTokenAtom, access),
  });
}
