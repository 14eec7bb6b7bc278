// The monitoring wing's menu icons and the climate projects', a chunk of their own:
// the wing's items show only once the company's facilities have come, and six more icons in the shell
// put the heaviest routes over the initial-JS budget (tests/web/bundle.test.ts).
import {
  AlertOutlined,
  BookOutlined,
  ApiOutlined,
  AuditOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FireOutlined,
  PieChartOutlined,
  ReadOutlined,
} from "@ant-design/icons";
import type { ReactNode } from "react";

const ICONS: Record<string, ReactNode> = {
  monitoring: <DashboardOutlined />,
  journal: <ReadOutlined />,
  "gassing-book": <BookOutlined />,
  events: <AlertOutlined />,
  sensors: <ApiOutlined />,
  "agk-data": <DatabaseOutlined />,
  completeness: <PieChartOutlined />,
  // the sensors' checks (the «Метан» maintenance journal).
  "sensor-checks": <AuditOutlined />,
  climate: <FireOutlined />,
};

export default function MonitoringIcon({ page }: { page: string }) {
  return ICONS[page] ?? null;
}
