// docs/user-guide.md: a protected page renders only with a valid stored token. An expired access token is
// refreshed silently; with nothing to refresh with (or a failed refresh) the user goes to /login,
// which keeps the page asked for and returns there after signing in (returnPath.ts).
import { useEffect, type ReactNode } from "react";
import { useAtomValue } from "jotai";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { refreshAccessToken } from "../../api/client";
import { isTokenValid, readRefreshToken } from "../../api/tokens";
import { PageLoading } from "../../shared/PageLoading";
import { accessTokenAtom } from "../../app/sessionAtoms";
import { returnPathFrom, type LoginState } from "./returnPath";
import { signOut } from "../../app/session";

export function RequireAuth() {
  const access = useAtomValue(accessTokenAtom);
  // Reading the location re-runs the expiry check on every navigation, not just at start.
  const location = useLocation();
  const valid = isTokenValid(access);
  const canRefresh = !valid && readRefreshToken() !== null;

  useEffect(() => {
    if (valid) return;
    if (canRefresh) {
      // A failure already signed the user out through the client's hook; nothing to add here.
      refreshAccessToken().catch(() => {});
    } else if (access !== null) {
      // A stale or malformed token with no way to renew it: clear it like any other ended session.
      signOut();
    }
  }, [valid, canRefresh, access, location.key]);

  if (valid) return <Outlet />;
  if (canRefresh) return <PageLoading />;
  const state: LoginState = { from: `${location.pathname}${location.search}${location.hash}` };
  return <Navigate to="/login" replace state={state} />;
}

/** /login with a valid token goes straight to the page asked for, else the landing page. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const access = useAtomValue(accessTokenAtom);
  const location = useLocation();
  if (isTokenValid(access)) return <Navigate to={returnPathFrom(location.state)} replace />;
  return <>{children}</>;
}
