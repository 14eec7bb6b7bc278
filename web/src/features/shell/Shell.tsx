// The signed-in frame: a collapsible side menu (the items app/routes.tsx hands it), a header with
// the platform title, and the page. Pages load lazily inside it, so the spinner stays in the frame.
// On a phone the menu is a drawer opened from the header, so the page has the whole width, and the
// page's headings and cards are a size smaller.
import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { Button, ConfigProvider, Layout, Typography, type ThemeConfig } from "antd";
import {
  AppstoreOutlined,
  AuditOutlined,
  BookOutlined,
  ControlOutlined,
  ExperimentOutlined,
  ExportOutlined,
  FallOutlined,
  FileTextOutlined,
  LineChartOutlined,
  LogoutOutlined,
  MenuOutlined,
  ProjectOutlined,
  SettingOutlined,
  UserOutlined,
} from "@ant-design/icons";
import { useAtom } from "jotai";
import { Link, Outlet, useLocation, useNavigate } from "react-router-dom";
import { signOut } from "../../app/session";
import { PLATFORM_TITLE } from "../../shared/platformTexts";
import { menuCollapsedAtom } from "./atoms";
import { PageLoading } from "../../shared/PageLoading";
import { Navigation } from "./Navigation";
import { currentMenuPath, facilityMenu, type MenuEntry } from "../../shared/screens";
import { useMe } from "../../api/profile";
import { useFacilities } from "../../api/facilities";
import { usePhone } from "../../shared/useMediaQuery";
import { setCompanyZone } from "../../shared/dates";
import { whoText } from "../../shared/text";

// Only a phone opens the menu in a drawer.
const Drawer = lazy(() => import("antd/es/drawer"));

const ICONS: Record<string, ReactNode> = {
  profile: <UserOutlined />,
  projects: <ProjectOutlined />,
  inventory: <AuditOutlined />,
  trend: <LineChartOutlined />,
  abatement: <FallOutlined />,
  models: <ExperimentOutlined />,
  dictionary: <BookOutlined />,
  documents: <FileTextOutlined />,
  export: <ExportOutlined />,
  widgets: <AppstoreOutlined />,
  settings: <SettingOutlined />,
  admin: <ControlOutlined />,
};

// The monitoring wing's and the climate projects' icons load in a chunk of their own (MonitoringIcon.tsx); an
// empty box of the icon's size meanwhile.
const MonitoringIcon = lazy(() => import("./MonitoringIcon"));
const iconOf = (key: string) =>
  ICONS[key] ?? (
    <Suspense fallback={<span style={{ display: "inline-block", width: "1em" }} />}>
      <MonitoringIcon page={key} />
    </Suspense>
  );

/** Headings that fit a phone's width word by word, and cards with less padding. */
const PHONE_THEME: ThemeConfig = {
  components: {
    Typography: { fontSizeHeading1: 26, fontSizeHeading2: 22, fontSizeHeading3: 20 },
    Card: { bodyPadding: 16 },
  },
};
/** Any table wider than a phone scrolls sideways inside its place, not the page (the projects and
 *  calculations tables set their own scroll width as well). */
const PHONE_TABLE = { style: { overflowX: "auto" as const } };
/** A card's title on a phone wraps onto a second line instead of ending in «…» («Полнота данных по
 *  источникам и месяцам» was cut to «Полнота данных по источникам…»). */
const PHONE_CARD = { styles: { title: { whiteSpace: "normal" as const, paddingBlock: 8 } } };
/** No change on wider screens. Always a theme object: antd's ConfigProvider wraps its children in
 *  one more provider when it has a theme, and switching between none and one would remount the page. */
const WIDE_THEME: ThemeConfig = {};

export default function Shell({ menu }: { menu: readonly MenuEntry[] }) {
  const [collapsed, setCollapsed] = useAtom(menuCollapsedAtom);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const phone = usePhone();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The phone's menu closes once a screen is chosen (and when the window grows past a phone's).
  useEffect(() => setDrawerOpen(false), [pathname, phone]);

  // The admin item only for platform operators; the server checks the role on every admin call.
  const me = useMe();
  // Every date the screens show is on the company's clock.
  setCompanyZone(me.data?.company?.time_zone);
  // The monitoring wing once per active underground mine (its pages are a mine's: sensors, АГК).
  const facilities = useFacilities();
  const mines = (facilities.data ?? []).filter((f) => f.is_active && f.kind === "underground_mine");
  const entries = facilityMenu(me.data?.role === "admin" ? menu : menu.filter((entry) => !entry.adminOnly), mines);
  const items = entries.map((entry) => ({
    path: entry.path,
    icon: iconOf(entry.key.split(":")[0]),
    label: entry.label,
    group: entry.group,
  }));
  const current = currentMenuPath(entries, pathname);

  const exit = () => {
    signOut();
    navigate("/login", { replace: true });
  };

  const navigation = (
    <Navigation items={items} current={current} collapsed={!phone && collapsed} exitIcon={<LogoutOutlined />} onExit={exit} />
  );

  return (
    <Layout style={{ minHeight: "100vh" }}>
      {phone ? (
        <Suspense fallback={null}>
          <Drawer
            placement="left"
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            size={280}
            closable={false}
            styles={{ body: { padding: 0, background: "#001529" } }}
          >
            {navigation}
          </Drawer>
        </Suspense>
      ) : (
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          breakpoint="lg"
          width={240}
          style={{ position: "sticky", top: 0, height: "100vh", overflow: "auto" }}
        >
          {navigation}
        </Layout.Sider>
      )}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header style={{ background: "#fff", padding: phone ? "0 12px" : "0 24px", display: "flex", alignItems: "center", gap: 8 }}>
          {phone && (
            <Button type="text" icon={<MenuOutlined />} aria-label="Меню" aria-expanded={drawerOpen} onClick={() => setDrawerOpen(true)} />
          )}
          <Typography.Text strong ellipsis style={{ fontSize: 16, flex: "1 1 0", minWidth: 0 }}>
            {PLATFORM_TITLE}
          </Typography.Text>
          {me.data && (
            // Who is signed in, and in which company: the profile opens from here.
            <Link
              to="/profile"
              data-testid="signed-in-as"
              title={`${whoText(me.data)} — ${me.data.company?.name ?? ""}`}
              style={{
                flex: "0 1 auto",
                maxWidth: "60%",
                minWidth: 0,
                overflow: "hidden",
                textOverflow: "ellipsis",
                whiteSpace: "nowrap",
                lineHeight: 1.3,
              }}
            >
              <UserOutlined /> {whoText(me.data)}
              {!phone && me.data.company && <Typography.Text type="secondary"> · {me.data.company.name}</Typography.Text>}
            </Link>
          )}
        </Layout.Header>
        <Layout.Content style={{ margin: phone ? 12 : 24, minWidth: 0 }}>
          <ConfigProvider
            theme={phone ? PHONE_THEME : WIDE_THEME}
            table={phone ? PHONE_TABLE : undefined}
            card={phone ? PHONE_CARD : undefined}
          >
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </ConfigProvider>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
