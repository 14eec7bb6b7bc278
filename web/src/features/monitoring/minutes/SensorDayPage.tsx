// «Сутки датчика» (methodology D58–D60, D64): one sensor's day on the company's clock as a chart — valid
// minute values, substituted ones, the minutes flagged with their reason, the levels 0,9·W, W and A —
// and the same in words: the day's minutes valid, substituted and without data, mean, min and max,
// the minutes at or above each level, and each run of flagged or substituted minutes with its reason.
// The day is in the address (?date=ГГГГ-ММ-ДД). Advisory: protective cut-off stays with the mine's АГК.
import { lazy, Suspense, useMemo } from "react";
import { Button, Card, Descriptions, Flex, Space, Typography, type TableColumnsType } from "antd";
import { Link, useParams } from "react-router-dom";
import { LIMITS } from "@server/contract";
import { Table } from "../../../shared/LazyTable";
import { LoadError } from "../../../shared/LoadError";
import { PageLoading } from "../../../shared/PageLoading";
import { isoDateIn, zoneOf } from "@core/company-clock";
import { useMe } from "../../../api/profile";
import { useUrlQuery } from "../../../shared/urlState";
import { useSensorDay } from "../../../api/monitoring";
import { sensorWhereText } from "../texts/sensorTexts";
import { minutesText, reading } from "./sensorDataTexts";
import { dayFigure, qualityRuns, runTime, type QualityRun } from "./dayChart";
import { MonitoringHead } from "../MonitoringHead";
import { DAY_MS, ruDate } from "@core/dates";

// The chart's wrapper loads with plotly, after the page: its first load stays within the initial-JS
// budget (tests/web/bundle.test.ts).
const Chart = lazy(() => import("../../../shared/charts/Chart").then((m) => ({ default: m.Chart })));

/** A reading on one line, its cell as wide as the figure: «0,44» never split as «0,4» / «4». */
const figureKeptWhole = { content: { whiteSpace: "nowrap", minWidth: "max-content" } } as const;

/** The day `step` days from `date` (yyyy-MM-dd). */
export const shiftDay = (date: string, step: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + step * DAY_MS).toISOString().slice(0, 10);

export default function SensorDayPage() {
  const { facilityId = "", sensorId = "" } = useParams();
  const { params, update } = useUrlQuery();
  const asked = params.get("date") ?? "";
  // The company's days: yesterday unless one is asked; a day not yet begun is not offered.
  const today = isoDateIn(new Date(), zoneOf(useMe().data?.company));
  const date = /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : shiftDay(today, -1);
  const day = useSensorDay(facilityId, sensorId, date);
  const figure = useMemo(() => (day.data ? dayFigure(day.data) : undefined), [day.data]);
  const runs = useMemo(
    () => (day.data ? qualityRuns(day.data, (i) => i >= day.data.window.from && i < day.data.window.to) : []),
    [day.data],
  );
  const sensor = day.data?.sensor;
  const summary = day.data?.summary;
  const unit = sensor?.unit ?? "";
  const levels = day.data?.levels;
  const columns: TableColumnsType<QualityRun> = [
    { title: "Время", key: "time", width: 190, render: (_: unknown, run) => runTime(run) },
    { title: "Отметка и итог", dataIndex: "text" },
  ];
  return (
    <Flex vertical gap={16}>
      <MonitoringHead
        title={
          <>
            Сутки датчика{sensor ? ` ${sensor.code}` : ""}: {ruDate(date)}
          </>
        }
        facilityId={facilityId}
        before={
          <Link to={`/facilities/${facilityId}/sensors/${sensorId}/gaps?month=${date.slice(0, 7)}`}>Пропуски и замещения за месяц</Link>
        }
        demo={day.data?.demo}
      />
      <Space wrap>
        <Button onClick={() => update({ date: shiftDay(date, -1) })}>‹ Предыдущие сутки</Button>
        <Button disabled={shiftDay(date, 1) > today} onClick={() => update({ date: shiftDay(date, 1) })}>
          Следующие сутки ›
        </Button>
      </Space>
      {day.isError && <LoadError what="сутки датчика" message={day.error.message} retry={() => day.refetch()} />}
      {day.isPending && <PageLoading />}
      {day.data && sensor && summary && levels && (
        <>
          <Card title={sensor.code}>
            <Typography.Paragraph type="secondary">{sensorWhereText(sensor)}</Typography.Paragraph>
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 2, lg: 4 }}
              items={[
                { key: "expected", label: "Минут в эксплуатации", children: minutesText(summary.minutes.expected) },
                { key: "valid", label: "Достоверных", children: minutesText(summary.minutes.valid) },
                { key: "substituted", label: "Замещенных", children: minutesText(summary.minutes.substituted) },
                { key: "missing", label: "Нет данных", children: minutesText(summary.minutes.missing) },
                { key: "range", label: "Вне диапазона (D58)", children: minutesText(summary.flagged.range) },
                { key: "stuck", label: "Залипание (D58)", children: minutesText(summary.flagged.stuck) },
                { key: "jump", label: "Скачок (D58)", children: minutesText(summary.flagged.jump) },
                // each mean named for what it is; the journal gives the second. The figure
                // kept whole beside its long name on a phone: its cell never narrower than the figure (the
                // flex cell would shrink under a nowrap span and push it off a 390 px screen), the name wraps.
                {
                  key: "mean",
                  label: `Среднее с замещенными минутами, ${unit}`,
                  styles: figureKeptWhole,
                  children: reading(summary.mean_with_substituted),
                },
                {
                  key: "mean-valid",
                  label: `Среднее достоверных минут (как в журнале), ${unit}`,
                  styles: figureKeptWhole,
                  children: reading(summary.mean_valid),
                },
                { key: "min", label: `Минимум, ${unit}`, styles: figureKeptWhole, children: reading(summary.min) },
                { key: "max", label: `Максимум, ${unit}`, styles: figureKeptWhole, children: reading(summary.max) },
                {
                  key: "levels",
                  label: `Уровни, ${unit}`,
                  children:
                    levels.warning === null && levels.alarm === null
                      ? "не заданы"
                      : `0,9·W = ${reading(levels.pre_warning)}; W = ${reading(levels.warning)}; A = ${reading(levels.alarm)}`,
                },
                { key: "pre", label: "Минут ≥ 0,9·W", children: minutesText(summary.above_pre_warning) },
                { key: "warning", label: "Минут ≥ W", children: minutesText(summary.above_warning) },
                { key: "alarm", label: "Минут ≥ A", children: minutesText(summary.above_alarm) },
              ]}
            />
          </Card>
          {figure && (
            <Suspense fallback={<PageLoading />}>
              <Chart figure={figure} height={360} testId="sensor-day-chart" />
            </Suspense>
          )}
          <Card title={`Отметки качества и замещения: ${minutesText(runs.length)}`}>
            <Table<QualityRun>
              size="small"
              rowKey="from"
              columns={columns}
              dataSource={runs}
              pagination={
                runs.length > LIMITS.monitoring.gapsPage ? { pageSize: LIMITS.monitoring.gapsPage, showSizeChanger: false } : false
              }
              locale={{ emptyText: "Все минуты суток достоверны" }}
            />
          </Card>
        </>
      )}
    </Flex>
  );
}
