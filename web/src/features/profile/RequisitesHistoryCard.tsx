// Профиль, «История изменений реквизитов» (docs/user-guide.md): for the company's reviewers (and
// admins), who changed the requisites, a facility or an emission point, what, from what to what and
// when, newest first.
import { useState } from "react";
import { displayDateTime } from "../../shared/dates";
import { Alert, Card, Typography, type TableColumnsType } from "antd";
import { Table } from "../../shared/LazyTable";
import { actorText, orAbsent } from "../../shared/text";
import { useRequisitesAudit, type RequisitesChange } from "../../api/profile";
import { LIMITS } from "@server/contract";

const PAGE_SIZE = LIMITS.page.requisitesHistory;

const lines = (entry: RequisitesChange, line: (change: RequisitesChange["changes"][number]) => string) =>
  entry.changes.map((change) => <div key={change.field}>{line(change)}</div>);

const columns: TableColumnsType<RequisitesChange> = [
  { title: "Когда", dataIndex: "at", width: 150, render: (at: string) => displayDateTime(at) },
  // What the platform changed itself is «система», never its internal account.
  { title: "Кто", dataIndex: "actor_email", width: 200, render: (who: string) => actorText(who) },
  {
    title: "Что изменено",
    render: (_, entry) => (
      <>
        <Typography.Text strong>
          {entry.target_type === "company"
            ? "Реквизиты компании"
            : entry.target_type === "point"
              ? `${entry.created ? "Новый источник выбросов" : "Источник выбросов"} «${entry.target_label}»`
              : entry.target_type === "sensor"
                ? `${entry.created ? "Новый датчик" : "Датчик"} «${entry.target_label}»`
                : entry.target_type === "gateway_key"
                  ? `${entry.created ? "Новый ключ шлюза" : "Ключ шлюза"} «${entry.target_label}»`
                  : entry.target_type === "webhook"
                    ? `${entry.created ? "Новый вебхук" : "Вебхук"} «${entry.target_label}»`
                    : entry.target_type === "accepted_month"
                      ? `Месяц по данным АГК принят заново: ${entry.target_label}`
                      : entry.target_type === "accepted_month_basis"
                        ? `Основа месяца по данным АГК исправлена: ${entry.target_label}`
                        : entry.target_type === "climate_project"
                          ? `${entry.created ? "Новый климатический проект" : "Климатический проект"} «${entry.target_label}»`
                          : entry.target_type === "climate_signature"
                            ? `КЭП периода климатического проекта: ${entry.target_label}`
                            : entry.target_type === "climate_report"
                              ? `Отчет о реализации климатического проекта: ${entry.target_label}`
                              : entry.target_type === "climate_period"
                                ? `Отчетный период климатического проекта: ${entry.target_label}`
                                : entry.target_type === "base_year" || entry.target_type === "coal_output"
                                  ? entry.target_label
                                  : `${entry.created ? "Новая площадка" : "Площадка"} «${entry.target_label}»`}
        </Typography.Text>
        {lines(entry, (change) => change.label)}
      </>
    ),
  },
  {
    title: "Было → стало",
    render: (_, entry) => (
      <>
        <div>&nbsp;</div>
        {lines(entry, (change) => `${orAbsent(change.before)} → ${orAbsent(change.after)}`)}
      </>
    ),
  },
];

export function RequisitesHistoryCard() {
  const [page, setPage] = useState(1);
  const history = useRequisitesAudit(page, PAGE_SIZE, true);
  return (
    <Card title="История изменений реквизитов">
      {history.isError && <Alert type="error" showIcon title={history.error.message} />}
      <Table<RequisitesChange>
        rowKey="id"
        size="small"
        columns={columns}
        loading={history.isPending}
        dataSource={history.data?.results ?? []}
        locale={{ emptyText: "Реквизиты и площадки еще не изменялись" }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: history.data?.count ?? 0, onChange: setPage, hideOnSinglePage: true }}
        scroll={{ x: 700 }}
      />
    </Card>
  );
}
