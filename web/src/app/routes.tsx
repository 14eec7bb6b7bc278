// The route table of docs/user-guide.md, read by the router (router.tsx) and by the side menu (handed
// to the Shell as props). Every page is its own lazy chunk so /login stays light. A screen is added
// by one line here: its path, its page, and its menu item if the menu lists it.
import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { MenuEntry } from "../shared/screens";

export const LoginPage = lazy(() => import("../features/auth/LoginPage"));
export const Shell = lazy(() => import("../features/shell/Shell"));
const LandingPage = lazy(() => import("../features/landing/LandingPage"));
const ProjectsPage = lazy(() => import("../features/projects/ProjectsPage"));
// The calculations page lists forecasts and series too: the kinds app/ registers load with its list.
const CalculationsPage = lazy(() => import("./CalculationsRoute"));
const GraphsPage = lazy(() => import("../features/graphs/GraphsPage"));
const ProjectUncertaintyPage = lazy(() => import("../features/uncertainty/ProjectUncertaintyPage"));
const ExportPage = lazy(() => import("../features/export/ExportPage"));
const InventoryPage = lazy(() => import("../features/inventory/InventoryPage"));
const MeasuredVsEstimatedPage = lazy(() => import("../features/inventory/MeasuredVsEstimatedPage"));
const TrendPage = lazy(() => import("../features/trend/TrendPage"));
const AbatementPage = lazy(() => import("../features/abatement/AbatementPage"));
const ClimateProjectsPage = lazy(() => import("../features/climate/ClimateProjectsPage"));
const ProfilePage = lazy(() => import("../features/profile/ProfilePage"));
const SettingsPage = lazy(() => import("../features/settings/SettingsPage"));
const DictionaryPage = lazy(() => import("../features/dictionary/DictionaryPage"));
const WidgetsPage = lazy(() => import("../features/widgets/WidgetsPage"));
export const NotFoundPage = lazy(() => import("../features/shell/NotFoundPage"));
const DocumentsPage = lazy(() => import("../features/documents/DocumentsPage"));
const AdminPage = lazy(() => import("../features/admin/AdminPage"));
const ForecastModelsPage = lazy(() => import("../features/models/ForecastModelsPage"));
const SensorsPage = lazy(() => import("../features/monitoring/ingest/SensorsPage"));
const AgkDataPage = lazy(() => import("../features/monitoring/minutes/AgkDataPage"));
const EventsPage = lazy(() => import("../features/monitoring/derive/EventsPage"));
const SensorCompletenessPage = lazy(() => import("../features/monitoring/minutes/SensorCompletenessPage"));
const SensorGapsPage = lazy(() => import("../features/monitoring/minutes/SensorGapsPage"));
const SensorDayPage = lazy(() => import("../features/monitoring/minutes/SensorDayPage"));
const SensorChecksPage = lazy(() => import("../features/monitoring/instruments/SensorChecksPage"));
const HandoverPage = lazy(() => import("../features/monitoring/handover/HandoverPage"));
const ReadingsAuditPage = lazy(() => import("../features/monitoring/derive/ReadingsAuditPage"));
const MonitoringPage = lazy(() => import("../features/monitoring/live/MonitoringPage"));
const JournalPage = lazy(() => import("../features/monitoring/derive/JournalPage"));
const SchemePage = lazy(() => import("../features/monitoring/live/SchemePage"));
const GassingBookPage = lazy(() => import("../features/monitoring/derive/GassingBookPage"));

export interface AppRoute {
  /** Under the signed-in shell; none: its index page. */
  path?: string;
  Page: LazyExoticComponent<ComponentType>;
  /** Its side-menu item, in the menu's order (docs/user-guide.md); none: not in the menu. */
  menu?: Omit<MenuEntry, "path">;
}

/** The screens inside the shell, the menu's items in its order. Unknown paths get NotFoundPage. */
export const SIGNED_IN_ROUTES: readonly AppRoute[] = [
  { Page: LandingPage },
  { path: "profile", Page: ProfilePage, menu: { key: "profile", label: "Профиль" } },
  { path: "projects", Page: ProjectsPage, menu: { key: "projects", label: "Проекты" } },
  { path: "projects/:projectId/calculations", Page: CalculationsPage },
  { path: "projects/:projectId/graphs", Page: GraphsPage },
  { path: "projects/:projectId/uncertainty", Page: ProjectUncertaintyPage },
  { path: "inventory", Page: InventoryPage, menu: { key: "inventory", label: "Инвентаризация" } },
  // under «Инвентаризация», opened from its page.
  { path: "inventory/measured-vs-estimated", Page: MeasuredVsEstimatedPage },
  { path: "trend", Page: TrendPage, menu: { key: "trend", label: "Динамика" } },
  { path: "abatement", Page: AbatementPage, menu: { key: "abatement", label: "Снижение выбросов" } },
  { path: "climate-projects", Page: ClimateProjectsPage, menu: { key: "climate", label: "Климатические проекты" } },
  // The mine's monitoring wing: its items once per underground mine of the company, under the
  // mine's name where there are several (Shell.tsx, facilityMenu).
  { path: "facilities/:facilityId/monitoring", Page: MonitoringPage, menu: { key: "monitoring", label: "Мониторинг", perFacility: true } },
  // D106: «Мониторинг › Схема», opened from the monitoring pages' links.
  { path: "facilities/:facilityId/scheme", Page: SchemePage },
  {
    path: "facilities/:facilityId/journal",
    Page: JournalPage,
    menu: { key: "journal", label: "Журнал оператора АГК", perFacility: true },
  },
  {
    path: "facilities/:facilityId/gassing-book",
    Page: GassingBookPage,
    menu: { key: "gassing-book", label: "Книга учета загазирований", perFacility: true },
  },
  { path: "facilities/:facilityId/events", Page: EventsPage, menu: { key: "events", label: "События", perFacility: true } },
  { path: "facilities/:facilityId/sensors", Page: SensorsPage, menu: { key: "sensors", label: "Датчики", perFacility: true } },
  {
    path: "facilities/:facilityId/agk-data",
    Page: AgkDataPage,
    menu: { key: "agk-data", label: "Данные АГК", perFacility: true },
  },
  {
    path: "facilities/:facilityId/completeness",
    Page: SensorCompletenessPage,
    menu: { key: "completeness", label: "Полнота данных датчиков", perFacility: true },
  },
  {
    path: "facilities/:facilityId/sensor-checks",
    Page: SensorChecksPage,
    menu: { key: "sensor-checks", label: "Проверки датчиков", perFacility: true },
  },
  { path: "facilities/:facilityId/sensors/:sensorId/gaps", Page: SensorGapsPage },
  { path: "facilities/:facilityId/sensors/:sensorId/checks", Page: SensorChecksPage },
  // D95: under «Мониторинг», opened from its page and the monitoring pages' links.
  { path: "facilities/:facilityId/handovers", Page: HandoverPage },
  // D104–D105: under «Мониторинг», opened from its page (the cut-offs not confirmed) and the monitoring pages' links.
  { path: "facilities/:facilityId/readings-audit", Page: ReadingsAuditPage },
  { path: "facilities/:facilityId/sensors/:sensorId/day", Page: SensorDayPage },
  { path: "forecast-models", Page: ForecastModelsPage, menu: { key: "models", label: "Модели прогноза" } },
  { path: "dictionary", Page: DictionaryPage, menu: { key: "dictionary", label: "Справочники" } },
  { path: "documents", Page: DocumentsPage, menu: { key: "documents", label: "Нормативные документы" } },
  { path: "export", Page: ExportPage, menu: { key: "export", label: "Экспорт" } },
  { path: "widgets", Page: WidgetsPage, menu: { key: "widgets", label: "Виджеты" } },
  { path: "settings", Page: SettingsPage, menu: { key: "settings", label: "Настройки" } },
  // Not one of the earlier product's menu items (docs/user-guide.md): shown after the others to
  // platform operators only (role "admin", get_me).
  { path: "admin", Page: AdminPage, menu: { key: "admin", label: "Администрирование", adminOnly: true } },
];

/** A screen's path before it took the screen's name: the old one redirects to the new,
 *  its parameters, query and hash kept, so a bookmark or a link sent before still opens the screen. */
export const RENAMED_PATHS: readonly { from: string; to: string }[] = [
  // «Данные АГК» was under the wing's API name (v1/telemetry/…, which the public API keeps).
  { from: "facilities/:facilityId/telemetry", to: "facilities/:facilityId/agk-data" },
];

/** The side menu, as the Shell gets it. */
export const MENU: readonly MenuEntry[] = SIGNED_IN_ROUTES.flatMap((route) =>
  route.menu ? [{ ...route.menu, path: `/${route.path ?? ""}` }] : [],
);
