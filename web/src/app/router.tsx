// The router of the route table (routes.tsx). Everything but /login and /backend sits behind
// RequireAuth, including unknown paths (they get the 404 page inside the shell once signed in).
// Declarative routes: the app loads no data through the router, and its data-router half would be a
// quarter of the entry's weight.
import { Suspense, type ReactNode } from "react";
import { BrowserRouter, generatePath, Navigate, Outlet, Route, Routes, useLocation, useParams } from "react-router-dom";
import { RedirectIfSignedIn, RequireAuth } from "../features/auth/RequireAuth";
import { PageLoading } from "../shared/PageLoading";
import { RouteErrorBoundary } from "../features/shell/RouteError";
import { LoginPage, MENU, NotFoundPage, RENAMED_PATHS, Shell, SIGNED_IN_ROUTES } from "./routes";

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoading />}>{children}</Suspense>;
}

/** An error while rendering shows the error page in place of what failed; moving on clears it. */
function Guarded({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <RouteErrorBoundary resetKey={pathname}>{children}</RouteErrorBoundary>;
}

/** A renamed screen's old path: to its new path (`to`, a route pattern) with the same parameters, query
 *  and hash. */
function Renamed({ to }: { to: string }) {
  const params = useParams();
  const { search, hash } = useLocation();
  return <Navigate to={`/${generatePath(to, params)}${search}${hash}`} replace />;
}

export function AppRoutes() {
  return (
    <BrowserRouter>
      <Routes>
        <Route
          path="/login"
          element={
            <Guarded>
              <RedirectIfSignedIn>
                <Loading>
                  <LoginPage />
                </Loading>
              </RedirectIfSignedIn>
            </Guarded>
          }
        />
        {/* /backend → /admin (docs/user-guide.md), the platform operators' screens inside this app. */}
        <Route path="/backend" element={<Navigate to="/admin" replace />} />
        <Route
          element={
            <Guarded>
              <RequireAuth />
            </Guarded>
          }
        >
          <Route
            element={
              <Loading>
                <Shell menu={MENU} />
              </Loading>
            }
          >
            {/* Errors of a page render inside the shell, so the menu stays usable. */}
            <Route
              element={
                <Guarded>
                  <Outlet />
                </Guarded>
              }
            >
              {SIGNED_IN_ROUTES.map(({ path, Page }) =>
                path === undefined ? <Route key="" index element={<Page />} /> : <Route key={path} path={path} element={<Page />} />,
              )}
              {RENAMED_PATHS.map(({ from, to }) => (
                <Route key={from} path={from} element={<Renamed to={to} />} />
              ))}
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
