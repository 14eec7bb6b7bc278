// «Измерено и оценено» (methodology D85): a mine's measured CH4 per month against the
// estimate's monthly share, the share's basis said in the legend and the title (by coal mined in the
// month, or by days where the months' coal is not known), and a month not measured left as a gap.
// Pure: the mine's comparison in, plotly's figure out.
import type { Data } from "plotly.js";
import type { MineComparison } from "../../api/measuredVsEstimated";
import type { ChartFigure } from "../../shared/charts/Chart";
import { MONTHLY_BASIS_TEXT } from "@server/contract";

const MONTHS = ["янв", "фев", "мар", "апр", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"];

export const monthName = (month: string) => `${MONTHS[Number(month.slice(5)) - 1]} ${month.slice(0, 4)}`;

export function comparisonFigure(mine: MineComparison): ChartFigure {
  const x = mine.measured.months.map((m) => monthName(m.month));
  const data: Data[] = [
    {
      type: "bar",
      name: "Измерено",
      x,
      y: mine.measured.months.map((m) => m.ch4_t),
      marker: { color: "#1677ff" },
      hovertemplate: "%{x}: %{y:,.2f} т CH4<extra>Измерено</extra>",
    },
  ];
  if (mine.estimated) {
    // The legend stays short enough for a phone; the title says how the share is made.
    const name = "Оценка, доля месяца";
    data.push({
      type: "scatter",
      mode: "lines+markers",
      name,
      x,
      y: mine.estimated.months.map((m) => m.ch4_t),
      line: { color: "#fa8c16", width: 2 },
      hovertemplate: "%{x}: %{y:,.2f} т CH4<extra>Оценка</extra>",
    });
  }
  return {
    title: `${mine.facility_name}: по месяцам, т CH4${mine.estimated ? ` — ${MONTHLY_BASIS_TEXT[mine.estimated.monthly_basis]}` : ""}`,
    fileName: `Измерено и оценено ${mine.facility_name}`,
    data,
    layout: {
      separators: ", ",
      // The months' numbers under the bars (twelve names do not fit a phone), the year in the axis title.
      xaxis: {
        title: { text: `месяц ${mine.measured.months[0]?.month.slice(0, 4) ?? ""} года` },
        tickmode: "array",
        tickvals: x,
        ticktext: mine.measured.months.map((m) => String(Number(m.month.slice(5)))),
      },
      yaxis: { title: { text: "т CH4" }, tickformat: ",.0f", rangemode: "tozero" },
      legend: { orientation: "h", y: -0.2 },
      margin: { t: 16, r: 16, l: 64 },
    },
  };
}
