// The plotly config of every chart (Chart.tsx). The mode bar is a list of named buttons rather than
// plotly's defaults minus some: plotly 4 shows «Share chart...» (sendChartToCloud) by default, which
// posts the figure's data to plotly's cloud, and a later version may name such a button otherwise.
// Listed, no button appears that is not here, and each one has a Russian title (plotly-locale.ts).
import type { Config, Data, ModeBarDefaultButtons } from "plotly.js";

const SAVE: ModeBarDefaultButtons[] = ["toImage"];
// Zoom and pan are for axes; a Sankey diagram has none.
const AXES: ModeBarDefaultButtons[] = ["zoom2d", "pan2d", "zoomIn2d", "zoomOut2d", "autoScale2d", "resetScale2d"];
const ON_AXES = new Set(["bar", "scatter"]);

/** The mode bar's buttons for a figure's traces: the picture, and the axes' tools where it has axes. */
export function modeBarButtons(data: Data[]): ModeBarDefaultButtons[][] {
  const axes = data.every((trace) => ON_AXES.has((trace as { type?: string }).type ?? "scatter"));
  return axes ? [SAVE, AXES] : [SAVE];
}

export function chartConfig(data: Data[], fileName: string, height: number): Partial<Config> {
  return {
    displaylogo: false,
    modeBarButtons: modeBarButtons(data),
    // No link to plotly's cloud anywhere, should a button for it come back.
    showSendToCloud: false,
    showEditInChartStudio: false,
    plotlyServerURL: "",
    responsive: true,
    locale: "ru",
    toImageButtonOptions: { format: "png", filename: fileName, height },
  };
}
