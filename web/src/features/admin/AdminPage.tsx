// /admin (and /backend → /admin): the platform operators' screens. Staff see «Недостаточно прав»; the
// server refuses them anyway (403 on every /api/admin/ route).
import { Result, Tabs, Typography } from "antd";
import { lazy, Suspense, type ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import { LazyLoading } from "../../shared/LazyLoading";
import { useMe } from "../../api/profile";
import { PageLoading } from "../../shared/PageLoading";

// Each tab is a chunk of its own, loaded when it is opened: /admin shows one tab at a time.
const AuditTab = lazy(() => import("./AuditTab").then((m) => ({ default: m.AuditTab })));
const CaRootsTab = lazy(() => import("./CaRootsTab").then((m) => ({ default: m.CaRootsTab })));
const CalendarTab = lazy(() => import("./CalendarTab").then((m) => ({ default: m.CalendarTab })));
const CompaniesTab = lazy(() => import("./CompaniesTab").then((m) => ({ default: m.CompaniesTab })));
const DictionariesTab = lazy(() => import("./DictionariesTab").then((m) => ({ default: m.DictionariesTab })));
const DocumentsTab = lazy(() => import("./DocumentsTab").then((m) => ({ default: m.DocumentsTab })));
const ForecastModelsTab = lazy(() => import("./ForecastModelsTab").then((m) => ({ default: m.ForecastModelsTab })));
const UsersTab = lazy(() => import("./UsersTab").then((m) => ({ default: m.UsersTab })));
const VideosTab = lazy(() => import("./VideosTab").then((m) => ({ default: m.VideosTab })));

interface TabContext {
  companyId?: string;
  openUsers(companyId: string): void;
  selectCompany(companyId: string): void;
}

interface AdminTab {
  key: string;
  label: string;
  render(context: TabContext): ReactNode;
}

/** The tabs of /admin, in order; the active one is ?tab= in the address. */
export const ADMIN_TABS: readonly AdminTab[] = [
  { key: "companies", label: "Компании", render: (ctx) => <CompaniesTab onShowUsers={ctx.openUsers} /> },
  { key: "users", label: "Пользователи", render: (ctx) => <UsersTab companyId={ctx.companyId} onCompanyChange={ctx.selectCompany} /> },
  { key: "dictionaries", label: "Справочники", render: () => <DictionariesTab /> },
  { key: "models", label: "Модели прогноза", render: () => <ForecastModelsTab /> },
  { key: "documents", label: "Документы", render: () => <DocumentsTab /> },
  { key: "calendar", label: "Производственный календарь", render: () => <CalendarTab /> },
  { key: "videos", label: "Видео", render: () => <VideosTab /> },
  { key: "ca-roots", label: "Сертификаты УЦ", render: () => <CaRootsTab /> },
  { key: "audit", label: "Журнал", render: () => <AuditTab /> },
];

export default function AdminPage() {
  const me = useMe();
  const [params, setParams] = useSearchParams();

  if (me.isPending) return <PageLoading />;
  if (me.data?.role !== "admin") {
    return (
      <Result status="403" title="Недостаточно прав" subTitle="Раздел «Администрирование» доступен только администраторам платформы." />
    );
  }

  const active = ADMIN_TABS.some((t) => t.key === params.get("tab")) ? params.get("tab")! : ADMIN_TABS[0].key;
  const context: TabContext = {
    companyId: params.get("company") ?? undefined,
    openUsers: (companyId) => setParams({ tab: "users", company: companyId }),
    selectCompany: (companyId) => setParams({ tab: "users", company: companyId }),
  };

  return (
    <>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Администрирование
      </Typography.Title>
      <Tabs
        activeKey={active}
        onChange={(key) => setParams(key === "users" && context.companyId ? { tab: key, company: context.companyId } : { tab: key })}
        destroyOnHidden
        items={ADMIN_TABS.map((tab) => ({
          key: tab.key,
          label: tab.label,
          children: <Suspense fallback={<LazyLoading label="Загрузка раздела…" />}>{tab.render(context)}</Suspense>,
        }))}
      />
    </>
  );
}
