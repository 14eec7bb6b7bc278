// D17: a facility-year's methane balance as a Sankey diagram (plotly's strict bundle), drawn by the
// inventory's balance and a mine project's infographics alike. Each node's label carries its figure
// on a line under its name («Уничтожено» / «8 011,19 т»), as a Sankey draws no values of its own; post-mining methane (coal
// handling, 1.B.1.a.i.2) flows to the atmosphere beside the mining streams.
import type { Data, Layout } from "plotly.js";
import { sentGasFlows } from "@core/methane-balance";
import type { BalanceRowView } from "@server/contract";
import { formatResult } from "../decimals";
import { plotlyText } from "./plotly-text";

type BalanceRow = BalanceRowView;
type Link = [number, number, number];
/** `legend`: on a phone (compact) the nodes are numbered on the chart and named here, «1. Вентиляция —
 *  507,68 т», under it: four columns of names do not fit 390 px without running into each other. */
type SankeyFigure = { data: Data[]; layout: Partial<Layout>; legend?: string[] };

export const POST_MINING_LABEL = "После добычи (обработка угля)";

/** The labels (escaped: points are named by users) with each node's figure under them, t CH4: the
 *  larger of what flows in and what flows out. */
function labelled(labels: readonly string[], links: readonly Link[]): string[] {
  return labels.map((label, node) => `${plotlyText(label)}<br>${formatResult(nodeTonnes(node, links), 2)} т`);
}

/** A node's figure, t CH4: the larger of what flows in and what flows out. */
function nodeTonnes(node: number, links: readonly Link[]): number {
  const into = links.filter((l) => l[1] === node).reduce((t, l) => t + l[2], 0);
  const out = links.filter((l) => l[0] === node).reduce((t, l) => t + l[2], 0);
  return Math.max(into, out);
}

function sankey(labels: readonly string[], colors: readonly string[], links: readonly Link[], compact = false): SankeyFigure {
  const shown = links.filter((link) => link[2] > 0);
  // Compact: the nodes a flow reaches numbered in order, named in the legend under the chart.
  const drawn = labels.map((_, node) => node).filter((node) => shown.some((l) => l[0] === node || l[1] === node));
  const numbers = new Map(drawn.map((node, i) => [node, i + 1]));
  const data = [
    {
      type: "sankey",
      orientation: "h",
      valueformat: ",.2f",
      valuesuffix: " т CH4",
      node: {
        label: compact ? labels.map((_, node) => String(numbers.get(node) ?? "")) : labelled(labels, shown),
        color: colors,
        pad: 18,
        thickness: 16,
      },
      link: { source: shown.map((l) => l[0]), target: shown.map((l) => l[1]), value: shown.map((l) => l[2]) },
    },
  ] as unknown as Data[];
  // The top margin is the mode bar's, so it never covers a node.
  const layout: Partial<Layout> = { separators: ", ", margin: { l: 10, r: 10, t: 36, b: 10 }, font: { size: 12 } };
  if (!compact) return { data, layout };
  return { data, layout, legend: drawn.map((node, i) => `${i + 1}. ${labels[node]} — ${formatResult(nodeTonnes(node, shown), 2)} т`) };
}

/** The post-mining node and its flow to the atmosphere (node 0 or `air`), where there is any. */
function postMining(row: BalanceRow, labels: string[], colors: string[], links: Link[], air: number) {
  const t = row.post_mining_t ?? 0;
  if (t <= 0) return;
  const node = labels.push(POST_MINING_LABEL) - 1;
  colors.push("#d3adf7");
  links.push([node, air, t]);
}

/** D25: the flows by stream when the facility's calculations name emission points: each
 *  ventilation shaft to the atmosphere; each drainage station into the drained gas, which goes to
 *  each flare and boiler (destroyed, their unburnt part to the atmosphere) and, what is left,
 *  vented. Undefined when the points do not tell every stream (a figure of the mine as a whole,
 *  a flare or a boiler without its point): the figure by totals is drawn instead. */
export function streamSankeyFigure(row: BalanceRow, compact = false): SankeyFigure | undefined {
  const streams = row.streams ?? [];
  if (streams.length === 0 || streams.some((s) => s.route === "mine")) return undefined;
  const sum = (route: string) => streams.filter((s) => s.route === route).reduce((t, s) => t + s.t, 0);
  const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  if (!near(sum("flared"), row.flared_t) || !near(sum("used"), row.used_t)) return undefined;
  const labels = ["Выбросы в атмосферу", "Уничтожено", "Каптированный газ (дегазация)", "Дегазация без сжигания"];
  const colors = ["#cf1322", "#95de64", "#1677ff", "#8c8c8c"];
  const links: Link[] = [];
  // What the flares and the use burnt, let slip and left unburnt among the vented gas: the core's.
  const flows = sentGasFlows(row);
  const COLOR: Record<string, string> = { atmosphere: "#69b1ff", drained: "#1677ff", flared: "#fa8c16", used: "#52c41a" };
  for (const stream of streams) {
    const node = labels.push(stream.name) - 1;
    colors.push(COLOR[stream.route]);
    if (stream.route === "atmosphere") links.push([node, 0, stream.t]);
    else if (stream.route === "drained") links.push([node, 2, stream.t]);
    else {
      const route = stream.route === "flared" ? flows.flared : flows.used;
      const sent = stream.route === "flared" ? row.flared_t : row.used_t;
      const share = sent > 0 ? stream.t / sent : 0;
      links.push(
        [2, node, stream.t],
        [node, 1, route.destroyed_t * share],
        [node, 0, route.slip_t * share],
        [node, 3, route.vented_t * share],
      );
    }
  }
  const drainedVented = row.drained_vented_t ?? 0;
  links.push([2, 3, Math.max(0, drainedVented - flows.flared.vented_t - flows.used.vented_t)], [3, 0, drainedVented]);
  postMining(row, labels, colors, links, 0);
  return sankey(labels, colors, links, compact);
}

/** D17: a facility's methane, t CH4: ventilation and drainage → flared, used or vented → emitted.
 *  Drainage is what went to flares and use; ventilation the rest of what was released. The flares'
 *  slip (the balance's slip_t) reaches the atmosphere too, and so does the post-mining methane;
 *  what else flares and use left unburnt is vented gas, as the balance counts it (sentGasFlows). */
export function methaneSankeyFigure(row: BalanceRow, compact = false): SankeyFigure {
  const byStream = streamSankeyFigure(row, compact);
  if (byStream) return byStream;
  const labels = [
    "Вентиляция",
    "Дегазация",
    "Сожжено на факелах",
    "Утилизировано",
    "Выброшено без сжигания",
    "Выбросы в атмосферу",
    "Уничтожено",
  ];
  const colors = ["#69b1ff", "#1677ff", "#fa8c16", "#52c41a", "#8c8c8c", "#cf1322", "#95de64"];
  const flows = sentGasFlows(row);
  const links: Link[] = [
    [0, 4, Math.max(0, row.vented_t - flows.flared.vented_t - flows.used.vented_t)],
    [1, 2, row.flared_t],
    [1, 3, row.used_t],
    [2, 4, flows.flared.vented_t],
    [3, 4, flows.used.vented_t],
    [4, 5, row.vented_t],
    [2, 5, flows.flared.slip_t],
    [2, 6, flows.flared.destroyed_t],
    [3, 6, flows.used.destroyed_t],
  ];
  postMining(row, labels, colors, links, 5);
  return sankey(labels, colors, links, compact);
}
