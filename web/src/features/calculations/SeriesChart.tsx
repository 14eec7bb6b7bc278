// A chart of a results view: plotly loaded lazily — the same chunk the infographics screen uses
// (features/graphs/plotly.ts: the basic bundle, CSP-safe, Russian mode bar) — fetched only when a
// series result is opened. A chart that cannot render says so in its place.
import { lazy, Suspense, useState } from "react";
import { Card, Flex, Spin } from "antd";
import { ChartBoundary, ChartError } from "../graphs/ChartBoundary";
import { SERIES_CHART_HEIGHT, type SeriesFigure } from "./seriesCharts";

const Plot = lazy(() => import("../graphs/plotly"));

export function SeriesChart({ figure, testId }: { figure: SeriesFigure; testId?: string }) {
  const [failed, setFailed] = useState(false);
  const [ready, setReady] = useState(false);
  return (
    <Card
      size="small"
      title={figure.title}
      role="figure"
      aria-label={figure.title}
      data-testid={testId}
      data-ready={ready ? "true" : undefined}
      styles={{ body: { padding: 8 } }}
    >
      {failed ? (
        <ChartError />
      ) : (
        <ChartBoundary>
          <Suspense
            fallback={
              <Flex justify="center" align="center" style={{ height: SERIES_CHART_HEIGHT }}>
                <Spin />
              </Flex>
            }
          >
            <Plot
              data={figure.data}
              layout={figure.layout}
              style={{ width: "100%", height: SERIES_CHART_HEIGHT }}
              useResizeHandler
              config={{
                displaylogo: false,
                modeBarButtonsToRemove: ["select2d", "lasso2d", "sendDataToCloud"],
                responsive: true,
                locale: "ru",
                toImageButtonOptions: { format: "png", filename: figure.title, height: SERIES_CHART_HEIGHT },
              }}
              onInitialized={() => setReady(true)}
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
