// The signed-in frame: a collapsible side menu (only built screens, see screens.ts), a header with
// the platform title, and the page. Pages load lazily inside it, so the spinner stays in the frame.
import { Suspense, type ReactNode } from "react";
import { Layout, Menu, Typography } from "antd";
import {
  AppstoreOutlined,
  BookOutlined,
  ControlOutlined,
  ExportOutlined,
  FileTextOutlined,
  LogoutOutlined,
  ProjectOutlined,
  SettingOutlined,
  UserOutlined,
} from "@ant-design/icons";
import { useAtom } from "jotai";
import { Outlet, useLocation, useNavigate } from "react-router-dom";
import { signOut } from "../auth/session";
import { PLATFORM_TITLE } from "../landing/texts";
import { menuCollapsedAtom } from "./atoms";
import { PageLoading } from "./PageLoading";
import { ADMIN_MENU_ENTRY, menuKeyFor, visibleMenu } from "./screens";
import { useMe } from "../profile/api";

const ICONS: Record<string, ReactNode> = {
  profile: <UserOutlined />,
  projects: <ProjectOutlined />,
  dictionary: <BookOutlined />,
  documents: <FileTextOutlined />,
  export: <ExportOutlined />,
  widgets: <AppstoreOutlined />,
  settings: <SettingOutlined />,
  admin: <ControlOutlined />,
};

export default function Shell() {
  const [collapsed, setCollapsed] = useAtom(menuCollapsedAtom);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const selected = menuKeyFor(pathname);

  // The admin item only for platform operators; the server checks the role on every admin call.
  const me = useMe();
  const entries = me.data?.role === "admin" ? [...visibleMenu(), ADMIN_MENU_ENTRY] : visibleMenu();
  const items = entries.map((entry) => ({ key: entry.path, icon: ICONS[entry.key], label: entry.label }));
  const selectedKeys = entries
    .filter((entry) => entry.key === selected)
    .map((entry) => entry.path);

  const exit = () => {
    signOut();
    navigate("/login", { replace: true });
  };

  return (
    <Layout style={{ minHeight: "100vh" }}>
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        breakpoint="lg"
        width={240}
        style={{ position: "sticky", top: 0, height: "100vh", overflow: "auto" }}
      >
        <nav aria-label="Главное меню" style={{ display: "flex", flexDirection: "column", height: "100%" }}>
          <Menu
            theme="dark"
            mode="inline"
            items={items}
            selectedKeys={selectedKeys}
            onClick={({ key }) => navigate(key)}
            style={{ flex: 1, paddingTop: 8 }}
          />
          <Menu
            theme="dark"
            mode="inline"
            selectable={false}
            items={[{ key: "logout", icon: <LogoutOutlined />, label: "Выход" }]}
            onClick={exit}
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header style={{ background: "#fff", padding: "0 24px", display: "flex", alignItems: "center" }}>
          <Typography.Text strong ellipsis style={{ fontSize: 16 }}>
            {PLATFORM_TITLE}
          </Typography.Text>
        </Layout.Header>
        <Layout.Content style={{ margin: 24 }}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
