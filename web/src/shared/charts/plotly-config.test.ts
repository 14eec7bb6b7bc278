import { describe, expect, it } from "vitest";
import { chartConfig, modeBarButtons } from "./plotly-config";

describe("the charts' plotly config", () => {
  it("lists the mode bar's buttons: the picture, and the axes' tools for bars and lines", () => {
    expect(modeBarButtons([{ type: "bar" }, { type: "scatter" }, {}]).flat()).toEqual([
      "toImage",
      "zoom2d",
      "pan2d",
      "zoomIn2d",
      "zoomOut2d",
      "autoScale2d",
      "resetScale2d",
    ]);
    expect(modeBarButtons([{ type: "sankey" }])).toEqual([["toImage"]]);
  });

  it("has no button or address of plotly's cloud", () => {
    const config = chartConfig([{ type: "bar" }], "График", 300);
    expect(config).toMatchObject({ showSendToCloud: false, showEditInChartStudio: false, plotlyServerURL: "", displaylogo: false });
    expect(JSON.stringify(config.modeBarButtons)).not.toMatch(/cloud|studio/i);
  });
});
