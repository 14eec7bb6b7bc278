// The route table of docs/user-guide.md. Every page is its own lazy chunk so /login stays light; everything but
// /login and /backend sits behind RequireAuth, including unknown paths (they get the 404 page
// inside the shell once signed in). Declarative routes: the app loads no data through the router,
// and its data-router half would be a quarter of the entry's weight.
import { lazy, Suspense, type ReactNode } from "react";
import { BrowserRouter, Navigate, Outlet, Route, Routes, useLocation } from "react-router-dom";
import { RedirectIfSignedIn, RequireAuth } from "../features/auth/RequireAuth";
import { PageLoading } from "../shared/PageLoading";
import { RouteErrorBoundary } from "../features/shell/RouteError";

const LoginPage = lazy(() => import("../features/auth/LoginPage"));
const Shell = lazy(() => import("../features/shell/Shell"));
const LandingPage = lazy(() => import("../features/landing/LandingPage"));
const ProjectsPage = lazy(() => import("../features/projects/ProjectsPage"));
// The calculations page lists forecasts and series too: the kinds app/ registers load beside it.
const CalculationsPage = lazy(async () => {
  const [page] = await Promise.all([import("../features/calculations/CalculationsPage"), import("./calculationKinds")]);
  return page;
});
const GraphsPage = lazy(() => import("../features/graphs/GraphsPage"));
const ProjectUncertaintyPage = lazy(() => import("../features/uncertainty/ProjectUncertaintyPage"));
const ExportPage = lazy(() => import("../features/export/ExportPage"));
const InventoryPage = lazy(() => import("../features/inventory/InventoryPage"));
const ProfilePage = lazy(() => import("../features/profile/ProfilePage"));
const SettingsPage = lazy(() => import("../features/settings/SettingsPage"));
const DictionaryPage = lazy(() => import("../features/dictionary/DictionaryPage"));
const WidgetsPage = lazy(() => import("../features/widgets/WidgetsPage"));
const NotFoundPage = lazy(() => import("../features/shell/NotFoundPage"));
const DocumentsPage = lazy(() => import("../features/documents/DocumentsPage"));
const AdminPage = lazy(() => import("../features/admin/AdminPage"));
const ForecastModelsPage = lazy(() => import("../features/models/ForecastModelsPage"));

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoading />}>{children}</Suspense>;
}

/** An error while rendering shows the error page in place of what failed; moving on clears it. */
function Guarded({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <RouteErrorBoundary resetKey={pathname}>{children}</RouteErrorBoundary>;
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
                <Shell />
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
              <Route index element={<LandingPage />} />
              <Route path="projects" element={<ProjectsPage />} />
              <Route path="projects/:projectId/calculations" element={<CalculationsPage />} />
              <Route path="projects/:projectId/graphs" element={<GraphsPage />} />
              <Route path="projects/:projectId/uncertainty" element={<ProjectUncertaintyPage />} />
              <Route path="inventory" element={<InventoryPage />} />
              <Route path="forecast-models" element={<ForecastModelsPage />} />
              <Route path="profile" element={<ProfilePage />} />
              <Route path="dictionary" element={<DictionaryPage />} />
              <Route path="export" element={<ExportPage />} />
              <Route path="widgets" element={<WidgetsPage />} />
              <Route path="settings" element={<SettingsPage />} />
              <Route path="documents" element={<DocumentsPage />} />
              <Route path="admin" element={<AdminPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
