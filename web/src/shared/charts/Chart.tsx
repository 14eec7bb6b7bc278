// One chart in a card, for the infographics screen and the series results alike: plotly loaded
// lazily (its own chunk, plotly.ts: the basic bundle, CSP-safe, Russian mode bar), fetched only when
// a chart is first shown; filling its column at a fixed height. The mode bar's camera saves it as a
// picture, and so does the «PNG» button where one is asked for. A chart that cannot render says so
// in its place.
import { createContext, lazy, Suspense, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { Button, Card, Flex, Spin, Tooltip } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import type { Data, Layout } from "plotly.js";
import { usePhone } from "../useMediaQuery";
import { ChartBoundary, ChartError } from "./ChartBoundary";
import { narrowLayout, withModeBarRoom } from "./charts";
import { chartConfig } from "./plotly-config";

const Plot = lazy(() => import("./plotly"));
// The Sankey diagram's bundle (plotly-strict.ts), fetched only by a chart that asks for it.
const StrictPlot = lazy(() => import("./plotly-strict"));

async function savePng(graph: HTMLElement, fileName: string, height: number, strict: boolean) {
  const { Plotly } = strict ? await import("./plotly-strict") : await import("./plotly");
  await Plotly.downloadImage(graph, { format: "png", filename: fileName, width: graph.clientWidth || 600, height });
}

/** Whether charts draw their plots: a component test of what a screen computes that asserts nothing of
 *  its charts (their figures are pure .ts; the browser tier sees them drawn) renders the screen inside
 *  ChartsUndrawn, each chart's card left empty: plotly neither loaded nor drawn again on each change. */
const Drawn = createContext(true);
export function ChartsUndrawn({ children }: { children: ReactNode }) {
  return <Drawn.Provider value={false}>{children}</Drawn.Provider>;
}

export interface ChartFigure {
  title: string;
  /** PNG file name, without extension; the title when absent. */
  fileName?: string;
  data: Data[];
  layout: Partial<Layout>;
}

interface Props {
  figure: ChartFigure;
  height: number;
  /** A «PNG» button in the card's head (infographics). */
  pngButton?: boolean;
  testId?: string;
  /** The figure has a trace the basic bundle lacks (sankey). */
  strict?: boolean;
  /** A click on a point or bar, with its x (the «Динамика» chart opens that year's inventory). */
  onPointClick?: (x: string) => void;
}

export function Chart({ figure, height, pngButton = false, testId, strict = false, onPointClick }: Props) {
  const drawn = useContext(Drawn);
  const graph = useRef<HTMLElement | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const fileName = figure.fileName ?? figure.title;
  // On a phone: legend under the plot, level labels, a taller chart (charts.ts, narrowLayout).
  const phone = usePhone();
  const layout = useMemo(() => withModeBarRoom(phone ? narrowLayout(figure.layout) : figure.layout), [phone, figure.layout]);
  const shownHeight = phone ? (layout.height ?? height) : height;
  const Shown = strict ? StrictPlot : Plot;
  const config = useMemo(() => chartConfig(figure.data, fileName, shownHeight), [figure.data, fileName, shownHeight]);

  const save = () => {
    if (graph.current)
      savePng(graph.current, fileName, shownHeight, strict).catch((error: unknown) => console.error("PNG export failed:", error));
  };

  return (
    <Card
      size="small"
      title={figure.title}
      role="figure"
      aria-label={figure.title}
      data-testid={testId}
      data-ready={ready ? "true" : undefined}
      extra={
        pngButton ? (
          <Tooltip title="Сохранить как PNG">
            <Button size="small" icon={<DownloadOutlined />} aria-label="Сохранить как PNG" disabled={!ready || failed} onClick={save}>
              PNG
            </Button>
          </Tooltip>
        ) : undefined
      }
      styles={{ body: { padding: 8 } }}
    >
      {!drawn ? null : failed ? (
        <ChartError />
      ) : (
        <ChartBoundary>
          <Suspense
            fallback={
              <Flex justify="center" align="center" style={{ height: shownHeight }}>
                <Spin />
              </Flex>
            }
          >
            <Shown
              data={figure.data}
              layout={layout}
              style={{ width: "100%", height: shownHeight }}
              useResizeHandler
              config={config}
              onClick={
                onPointClick
                  ? (event) => {
                      const x = event.points[0]?.x;
                      if (x !== undefined && x !== null) onPointClick(String(x));
                    }
                  : undefined
              }
              onInitialized={(_figure, div) => {
                graph.current = div as HTMLElement;
                setReady(true);
              }}
              onUpdate={(_figure, div) => {
                graph.current = div as HTMLElement;
              }}
              onError={(error) => {
                console.error("Chart failed to render:", error);
                setFailed(true);
              }}
            />
          </Suspense>
        </ChartBoundary>
      )}
    </Card>
  );
}
