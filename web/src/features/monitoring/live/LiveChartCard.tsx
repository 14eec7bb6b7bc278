// A working's last 24 hours on «Мониторинг»: its methane meters' minute means, the levels W and A as
// lines, the events of the day (D65, «События») as marked spans named in words (in the legend one entry per
// meter and kind of event), and each bound model's forecast with its interval as a band
// (liveChart.ts). Plotly loads with the first chart.
import { useMemo } from "react";
import { Tag, Typography } from "antd";
import { Chart } from "../../../shared/charts/Chart";
import { useSensorEvents } from "../../../api/monitoring";
import { useLiveChart } from "../../../api/live";
import { companyZoneNow } from "../../../shared/dates";
import { chartFigure, PLOT_HEIGHT } from "./liveChart";

export default function LiveChartCard({ facility, working, updated }: { facility: string; working: string; updated: string | null }) {
  const chart = useLiveChart(facility, working, updated);
  const from = chart.data?.from;
  const events = useSensorEvents(facility, from ? { working, from, to: chart.data!.to } : undefined);
  const zone = companyZoneNow();
  const figure = useMemo(
    () => (chart.data ? chartFigure(chart.data, events.data?.results ?? [], zone) : undefined),
    [chart.data, events.data, zone],
  );
  if (chart.isError) return <Typography.Text type="danger">График не загрузился: {chart.error.message}</Typography.Text>;
  if (!figure) return <Typography.Text type="secondary">График загружается…</Typography.Text>;
  return (
    <>
      {/* D98: a meter in a gassing of the book says so above its chart, as its tile does. */}
      {chart.data?.meters
        .filter((m) => m.gassing)
        .map((m) => (
          <Tag key={m.code} color="red" style={{ whiteSpace: "normal" }} data-testid="live-chart-gassing">
            {m.code}: {m.gassing?.label}
          </Tag>
        ))}
      <Chart figure={figure} height={figure.layout.height ?? PLOT_HEIGHT} testId="live-chart" />
      <Typography.Text type="secondary">
        {events.data ? `Событий за сутки: ${events.data.count.toLocaleString("ru-RU")}` : "События загружаются…"}
      </Typography.Text>
    </>
  );
}
