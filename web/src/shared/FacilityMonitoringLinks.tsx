// The links between a mine's monitoring pages, one list for all of them: each page named the others by
// hand and some missed «Мониторинг» or «События».
import { Typography } from "antd";
import { Fragment, type ReactNode } from "react";
import { Link } from "react-router-dom";

export type MonitoringPage =
  | "sensors"
  | "monitoring"
  | "scheme"
  | "journal"
  | "gassing-book"
  | "events"
  | "agk-data"
  | "completeness"
  | "sensor-checks"
  | "handovers"
  | "readings-audit";

const PAGES: readonly { page: MonitoringPage; label: string }[] = [
  { page: "sensors", label: "Датчики" },
  { page: "monitoring", label: "Мониторинг" },
  // D106: the sections drawn in airflow order.
  { page: "scheme", label: "Схема" },
  { page: "journal", label: "Журнал оператора АГК" },
  { page: "gassing-book", label: "Книга учета загазирований" },
  { page: "events", label: "События" },
  { page: "agk-data", label: "Данные АГК и предложения" },
  { page: "completeness", label: "Полнота данных датчиков" },
  { page: "sensor-checks", label: "Проверки датчиков" },
  { page: "handovers", label: "Передача смены" },
  { page: "readings-audit", label: "Отключения и ручные замеры" },
];

/** The facility's monitoring pages but `current` (undefined on a page of one sensor), after `before`. */
export function FacilityMonitoringLinks({
  facilityId,
  current,
  before,
}: {
  facilityId: string;
  current?: MonitoringPage;
  before?: ReactNode;
}) {
  const links = PAGES.filter((p) => p.page !== current).map((p) => (
    <Link key={p.page} to={`/facilities/${facilityId}/${p.page}`}>
      {p.label}
    </Link>
  ));
  const items = before ? [before, ...links] : links;
  return (
    <Typography.Text>
      {items.map((item, i) => (
        <Fragment key={i}>
          {i > 0 ? " · " : null}
          {item}
        </Fragment>
      ))}
    </Typography.Text>
  );
}
