// «Данные АГК» of a mine (methodology D61–D63): per emission point and month of a year, the completeness
// of its readings over the whole month as a heat map and the measured figures they give — volume, CH4
// content, t CH4, minutes valid, substituted and missing, the longest gap — each ended month accepted into
// a project with «Принять» (below 95 % with a reason); the month still running shown «месяц идет: N из M
// минут», never offered; an accepted month whose readings moved it since flagged «данные АГК изменились
// после принятия» and offered «Принять заново» while its year is not frozen (issue 87). Advisory:
// protective cut-off stays with the mine's own АГК.
// Above them, each point's own channels (issue 105): a point's month is computed from the channels that
// name it alone, and a point lacking one is told which it lacks.
// On a phone the heat map scrolls inside its card with the points' names kept in sight, and each offer
// is a block of «label: value» lines (ResponsiveTable), «Принять» under it.
import { lazy, Suspense, useMemo, useState } from "react";
import { Button, Card, Flex, Space, Tag, Tooltip, Typography, type TableColumnsType } from "antd";
import { useParams } from "react-router-dom";
import { DEMO_READINGS_LABEL, OFFER_COMPLETENESS } from "@core/monitoring";
import { ResponsiveTable } from "../../shared/ResponsiveTable";
import { LoadError } from "../../shared/LoadError";
import { YearField } from "../../shared/YearField";
import { keepSignsWithNumbers } from "../../shared/text";
import { useOffers, usePointChannels, type Offer, type PointChannels } from "../../api/monitoring";
import { SENSOR_PLACES } from "@core/sensor-places";
import { kindText } from "./sensorTexts";
import { completenessFigure, monthText, number, percent, runningText } from "./offerTexts";
import { MonitoringHead } from "./MonitoringHead";
import { MonthGrid } from "./MonthGrid";

// The acceptance dialog loads when opened: the page's first load stays within the initial-JS budget.
const AcceptDialog = lazy(() => import("./AcceptOfferDialog"));

/** Green at 95 % and above, amber below, red under a half. */
const shade = (share: number) => (share >= OFFER_COMPLETENESS ? "#b7eb8f" : share >= 0.5 ? "#ffe58f" : "#ffa39e");
/** A cell kept on one line (a month, a figure, the button): never broken inside a word or a number. */
const oneLine = { style: { whiteSpace: "nowrap" } } as const;

/** One point's own channels, or what it lacks for a month. */
function PointChannelsLine({ point }: { point: PointChannels }) {
  const channels = point.channels.map((c) => `${c.code} (${kindText(c.kind)}; ${SENSOR_PLACES[c.place]})`).join(", ");
  return (
    <div data-testid="point-channels">
      <Typography.Text strong>{keepSignsWithNumbers(point.point_name)}</Typography.Text>
      <div>{channels ? `Каналы: ${channels}` : "Своих каналов нет"}</div>
      {point.lacks.length > 0 && (
        <Typography.Text type="warning">{`Месяц не считается: нет канала ${point.lacks.join(", ")}`}</Typography.Text>
      )}
    </div>
  );
}

export default function OffersPage() {
  const { facilityId = "" } = useParams();
  const [year, setYear] = useState(new Date().getFullYear());
  const offers = useOffers(facilityId, year);
  const channels = usePointChannels(facilityId);
  const [accepting, setAccepting] = useState<Offer | null>(null);
  const latest = offers.data?.reduce((last, o) => (o.month > last ? o.month : last), "");
  const points = useMemo(() => [...new Map((offers.data ?? []).map((o) => [o.point, o.point_name])).entries()], [offers.data]);
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
          <Tag color={v >= OFFER_COMPLETENESS ? "green" : "orange"}>{percent(v)}</Tag>
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
            <Button size="small" type="primary" onClick={() => setAccepting(o)}>
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
              <Button size="small" type="primary" onClick={() => setAccepting(o)}>
                Принять заново
              </Button>
            )}
          </Space>
        );
      },
    },
  ];
  return (
    <Flex vertical gap={16}>
      <MonitoringHead page="Данные АГК" facilityId={facilityId} current="telemetry" demo={offers.data?.some((o) => o.demo)} />
      <YearField year={year} onChange={setYear} />
      {offers.isError && <LoadError what="данные АГК" message={offers.error.message} retry={() => offers.refetch()} />}
      <Card title="Каналы источников">
        <Typography.Paragraph type="secondary">
          Месяц источника считается только по его собственным каналам — датчикам, у которых в реестре указано, что они измеряют этот
          источник (ствол, дегазационный трубопровод). Датчики лав и выработок измеряют воздух своего участка, а не источник.
        </Typography.Paragraph>
        {channels.isError && <LoadError what="каналы источников" message={channels.error.message} retry={() => channels.refetch()} />}
        <Flex vertical gap={12}>
          {channels.data?.map((point) => (
            <PointChannelsLine key={point.point} point={point} />
          ))}
          {channels.data?.length === 0 && (
            <Typography.Text type="secondary">Источников, которые измеряет АГК, у площадки нет</Typography.Text>
          )}
        </Flex>
      </Card>
      <Card title="Полнота данных по источникам и месяцам">
        <Typography.Paragraph type="secondary">
          Полнота здесь считается за весь месяц по часам компании: доля его минут с достоверными или замещенными значениями расхода и метана
          источника. На странице «Полнота данных датчиков» — по каждому датчику за дни его эксплуатации. Месяц, который еще идет, принимают
          после его окончания.
        </Typography.Paragraph>
        {points.length === 0 ? (
          <Typography.Text type="secondary">За {year} год показаний нет</Typography.Text>
        ) : (
          <MonthGrid
            label="Полнота данных"
            testId="offers-heat-map"
            year={year}
            latest={latest}
            rows={points}
            rowKey={([point]) => point}
            rowHead={([, name]) => keepSignsWithNumbers(name)}
            cell={([point], month) => {
              const offer = offers.data?.find((o) => o.point === point && o.month === month);
              return (
                <td key={month} style={{ padding: 2 }} data-latest={month === latest ? "" : undefined}>
                  <Tooltip
                    title={
                      !offer
                        ? `${monthText(month)}: нет данных`
                        : offer.in_progress
                          ? `${monthText(month)}: ${runningText(offer)}`
                          : `${monthText(month)}: ${percent(offer.completeness)}`
                    }
                  >
                    <div
                      style={{
                        width: 44,
                        height: 24,
                        background: !offer ? "#f0f0f0" : offer.in_progress ? "#e6f4ff" : shade(offer.completeness),
                        fontSize: 11,
                        textAlign: "center",
                        lineHeight: "24px",
                      }}
                    >
                      {!offer ? "" : offer.in_progress ? "идет" : completenessFigure(offer.completeness, 0)}
                    </div>
                  </Tooltip>
                </td>
              );
            }}
          />
        )}
      </Card>
      <Card title="Предложения в инвентаризацию">
        <ResponsiveTable<Offer>
          rowKey={(o) => `${o.point}|${o.month}`}
          size="small"
          pagination={false}
          loading={offers.isPending}
          // Between a phone and a wide screen the table scrolls inside its card; no column is fixed, so its
          // columns size to their content and «Принять» keeps its width.
          scroll={{ x: 1000 }}
          columns={columns}
          dataSource={offers.data ?? []}
          locale={{ emptyText: "Нет месяцев с показаниями расхода и метана" }}
        />
      </Card>
      {accepting && (
        <Suspense>
          <AcceptDialog facility={facilityId} year={year} offer={accepting} onClose={() => setAccepting(null)} />
        </Suspense>
      )}
    </Flex>
  );
}
