// The monitoring wing's menu icons (issue 87), a chunk of their own: its items show only once the
// company's facilities have come, and five more icons in the shell put the heaviest routes over the
// initial-JS budget (tests/web/bundle.test.ts).
import { AlertOutlined, ApiOutlined, DashboardOutlined, DatabaseOutlined, PieChartOutlined } from "@ant-design/icons";
import type { ReactNode } from "react";

const ICONS: Record<string, ReactNode> = {
  monitoring: <DashboardOutlined />,
  events: <AlertOutlined />,
  sensors: <ApiOutlined />,
  telemetry: <DatabaseOutlined />,
  completeness: <PieChartOutlined />,
};

export default function MonitoringIcon({ page }: { page: string }) {
  return ICONS[page] ?? null;
}
