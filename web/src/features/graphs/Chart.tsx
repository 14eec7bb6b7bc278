// One infographics chart: plotly loaded lazily (its own chunk, fetched only by this screen), 300 px
// high, filling its column; the mode bar's camera and the «PNG» button both save it as a picture.
import { lazy, Suspense, useRef, useState } from "react";
import { Button, Card, Flex, Spin, Tooltip } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { CHART_HEIGHT, type Figure } from "./charts";
import { ChartBoundary, ChartError } from "./ChartBoundary";

const Plot = lazy(() => import("./plotly"));

async function savePng(graph: HTMLElement, fileName: string) {
  const { Plotly } = await import("./plotly");
  await Plotly.downloadImage(graph, { format: "png", filename: fileName, width: graph.clientWidth || 600, height: CHART_HEIGHT });
}

function Loading() {
  return (
    <Flex justify="center" align="center" style={{ height: CHART_HEIGHT }}>
      <Spin />
    </Flex>
  );
}

export function Chart({ figure }: { figure: Figure }) {
  const graph = useRef<HTMLElement | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);

  const save = () => {
    if (graph.current) savePng(graph.current, figure.fileName).catch((error: unknown) => console.error("PNG export failed:", error));
  };

  return (
    <Card
      size="small"
      title={figure.title}
      role="figure"
      aria-label={figure.title}
      extra={
        <Tooltip title="Сохранить как PNG">
          <Button size="small" icon={<DownloadOutlined />} aria-label="Сохранить как PNG" disabled={!ready || failed} onClick={save}>
            PNG
          </Button>
        </Tooltip>
      }
      styles={{ body: { padding: 8 } }}
    >
      {failed ? (
        <ChartError />
      ) : (
        <ChartBoundary>
          <Suspense fallback={<Loading />}>
            <Plot
              data={figure.data}
              layout={figure.layout}
              style={{ width: "100%", height: CHART_HEIGHT }}
              useResizeHandler
              config={{
                displaylogo: false,
                // Bars and lines need neither selection tools nor plotly's cloud link.
                modeBarButtonsToRemove: ["select2d", "lasso2d", "sendDataToCloud"],
                responsive: true,
                locale: "ru",
                toImageButtonOptions: { format: "png", filename: figure.fileName, height: CHART_HEIGHT },
              }}
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
