// SPEC 2 route table. Every page is its own lazy chunk so /login stays light; everything but
// /login and /backend sits behind RequireAuth, including unknown paths (they get the 404 page
// inside the shell once signed in).
import { lazy, Suspense, type ReactNode } from "react";
import { createBrowserRouter, Navigate } from "react-router-dom";
import { RedirectIfSignedIn, RequireAuth } from "../features/auth/RequireAuth";
import { PageLoading } from "../features/shell/PageLoading";
import { RouteError } from "../features/shell/RouteError";

const LoginPage = lazy(() => import("../features/auth/LoginPage"));
const Shell = lazy(() => import("../features/shell/Shell"));
const LandingPage = lazy(() => import("../features/landing/LandingPage"));
const ProjectsPage = lazy(() => import("../features/projects/ProjectsPage"));
const CalculationsPage = lazy(() => import("../features/calculations/CalculationsPage"));
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

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoading />}>{children}</Suspense>;
}

/** /backend → /admin (SPEC 2), the platform operators' screens inside this app. */
function GoToAdmin() {
  return <Navigate to="/admin" replace />;
}

export const router = createBrowserRouter([
  {
    path: "/login",
    errorElement: <RouteError />,
    element: (
      <RedirectIfSignedIn>
        <Loading>
          <LoginPage />
        </Loading>
      </RedirectIfSignedIn>
    ),
  },
  { path: "/backend", element: <GoToAdmin /> },
  {
    element: <RequireAuth />,
    errorElement: <RouteError />,
    children: [
      {
        element: (
          <Loading>
            <Shell />
          </Loading>
        ),
        children: [
          {
            // Errors of a page render inside the shell, so the menu stays usable.
            errorElement: <RouteError />,
            children: [
              { index: true, element: <LandingPage /> },
              { path: "projects", element: <ProjectsPage /> },
              { path: "projects/:projectId/calculations", element: <CalculationsPage /> },
              { path: "projects/:projectId/graphs", element: <GraphsPage /> },
              { path: "projects/:projectId/uncertainty", element: <ProjectUncertaintyPage /> },
              { path: "inventory", element: <InventoryPage /> },
              { path: "profile", element: <ProfilePage /> },
              { path: "dictionary", element: <DictionaryPage /> },
              { path: "export", element: <ExportPage /> },
              { path: "widgets", element: <WidgetsPage /> },
              { path: "settings", element: <SettingsPage /> },
              { path: "documents", element: <DocumentsPage /> },
              { path: "admin", element: <AdminPage /> },
              { path: "*", element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
]);
