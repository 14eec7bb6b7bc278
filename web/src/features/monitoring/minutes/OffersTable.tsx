// «Предложения в инвентаризацию» of «Данные АГК» (AgkDataPage.tsx): each point's month with its measured
// figures, its completeness and «Принять» / «Принять заново» or why it cannot be accepted yet. Loaded
// lazily with the table it fills, so its cells' components stay out of the page's initial JS.
import { Button, Space, Tag, Typography, type TableColumnsType } from "antd";
import { DEMO_READINGS_LABEL, OFFER_COMPLETENESS } from "@core/monitoring";
import { ResponsiveTable } from "../../../shared/ResponsiveTable";
import { keepSignsWithNumbers } from "../../../shared/text";
import type { Offer } from "../../../api/monitoring";
import { monthText, number, percent, runningText } from "../texts/offerTexts";

/** A cell kept on one line (a month, a figure, the button): never broken inside a word or a number. */
const oneLine = { style: { whiteSpace: "nowrap" } } as const;

export default function OffersTable({
  offers,
  loading,
  onAccept,
}: {
  offers: Offer[];
  loading: boolean;
  /** «Принять» or «Принять заново» pressed on a month. */
  onAccept: (offer: Offer) => void;
}) {
  const columns: TableColumnsType<Offer> = [
    {
      title: "Источник",
      dataIndex: "point_name",
      render: (name: string, o) => (
        <>
          {keepSignsWithNumbers(name)}
          {o.demo && <Tag style={{ whiteSpace: "normal" }}>{DEMO_READINGS_LABEL}</Tag>}
        </>
      ),
    },
    { title: "Месяц", dataIndex: "month", render: monthText, onCell: () => oneLine },
    {
      title: "Объём смеси, тыс. м³",
      dataIndex: "volume_thousand_m3",
      align: "right",
      onCell: () => oneLine,
      render: (v: number) => number(v, 2),
    },
    { title: "CH4, % об.", dataIndex: "ef_ch4", align: "right", onCell: () => oneLine, render: (v: number) => number(v, 4) },
    { title: "CH4, т", dataIndex: "ch4_t", align: "right", onCell: () => oneLine, render: (v: number) => number(v, 3) },
    {
      title: "Минуты: достоверные / замещенные / нет данных",
      key: "minutes",
      render: (_: unknown, o) =>
        `${o.minutes.valid.toLocaleString("ru-RU")} / ${o.minutes.substituted.toLocaleString("ru-RU")} / ${o.minutes.missing.toLocaleString("ru-RU")}`,
    },
    {
      title: "Полнота за весь месяц",
      dataIndex: "completeness",
      align: "right",
      render: (v: number, o) =>
        o.in_progress ? (
          <Tag style={{ whiteSpace: "normal" }}>{runningText(o)}</Tag>
        ) : (
          <Space direction="vertical" size={4} align="end">
            <Tag color={v >= OFFER_COMPLETENESS ? "green" : "orange"}>{percent(v)}</Tag>
            {/* D94: minutes after a failed check or out of verification — kept and used, said. */}
            {o.doubt && (
              <Tag color="orange" style={{ whiteSpace: "normal", textAlign: "left" }}>
                {o.doubt.text}
              </Tag>
            )}
          </Space>
        ),
    },
    { title: "Наибольший пропуск, мин", dataIndex: "longest_gap_min", align: "right", render: (v: number) => v.toLocaleString("ru-RU") },
    {
      title: "",
      key: "accept",
      // The notes wrap between words within the column (a note on one line was cut at 1440 px).
      width: 240,
      render: (_: unknown, o) => {
        if (o.in_progress) return <Typography.Text type="secondary">примут после окончания месяца</Typography.Text>;
        if (!o.accepted) {
          return (
            <Button size="small" type="primary" onClick={() => onAccept(o)}>
              Принять
            </Button>
          );
        }
        const { changed, calculation_archived: archived, year_frozen: frozen, difference_pct: difference } = o.accepted;
        return (
          <Space direction="vertical" size={4}>
            <Tag color={archived ? "default" : "blue"}>{archived ? "Принят, расчет в архиве" : "Принят"}</Tag>
            {changed && !archived && (
              <Typography.Text type="danger">
                {keepSignsWithNumbers(`Данные АГК изменились после принятия: ${difference > 0 ? "+" : ""}${number(difference, 2)} %`)}
              </Typography.Text>
            )}
            {changed && !archived && frozen && (
              <Typography.Text type="secondary">
                Год утвержден: месяц примут заново после того, как год откроют для изменений
              </Typography.Text>
            )}
            {(archived || (changed && !frozen)) && (
              <Button size="small" type="primary" onClick={() => onAccept(o)}>
                Принять заново
              </Button>
            )}
          </Space>
        );
      },
    },
  ];
  return (
    <ResponsiveTable<Offer>
      rowKey={(o) => `${o.point}|${o.month}`}
      size="small"
      pagination={false}
      loading={loading}
      // Between a phone and a wide screen the table scrolls inside its card; no column is fixed, so its
      // columns size to their content and «Принять» keeps its width.
      scroll={{ x: 1000 }}
      columns={columns}
      dataSource={offers}
      locale={{ emptyText: "Нет месяцев с показаниями расхода и метана" }}
    />
  );
}
