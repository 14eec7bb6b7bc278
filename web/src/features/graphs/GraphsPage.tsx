// docs/user-guide.md, /projects/{projectId}/graphs «Инфографика»: the charts of what the project holds
// (a mine's monthly CH4 by point, its underground bars, drained and destroyed methane and balance; an
// open pit's CO2 and CH4; the forecast's line), each half the width (full width on a narrow screen).
// Load order (docs/user-guide.md): the project, then the chart data in one request; on leaving, the
// chart data is dropped.
import { useEffect, useMemo } from "react";
import { Alert, Col, Flex, Row, Typography } from "antd";
import { useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router-dom";
import { PageLoading } from "../../shared/PageLoading";
import { graphsKey, useProject, useProjectGraphs } from "./api";
import { Chart } from "../../shared/charts/Chart";
import { CHART_HEIGHT, projectCharts } from "../../shared/charts/charts";
import { SankeyLegend } from "../../shared/charts/SankeyLegend";
import { usePhone } from "../../shared/useMediaQuery";
import { NETTING_LABEL } from "@core/inventory";

// docs/user-guide.md: results in tonnes show 2 decimals.
const tonnes = new Intl.NumberFormat("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export default function GraphsPage() {
  const { projectId = "" } = useParams();
  const project = useProject(projectId);
  const graphs = useProjectGraphs(projectId, project.isSuccess);
  const client = useQueryClient();

  useEffect(() => () => client.removeQueries({ queryKey: graphsKey(projectId) }), [client, projectId]);

  // A phone numbers the Sankey's nodes and names them under it.
  const phone = usePhone();
  const charts = useMemo(() => (graphs.data ? projectCharts(graphs.data, phone) : []), [graphs.data, phone]);
  const error = project.error ?? graphs.error;

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        {project.data ? `Инфографика — ${project.data.name}` : "Инфографика"}
      </Typography.Title>
      {error && <Alert type="error" showIcon title={`Не удалось загрузить данные: ${error.message}`} />}
      {(project.isPending || (project.isSuccess && graphs.isPending)) && <PageLoading />}
      {/* D18: the bars are what the project's totals count. */}
      {graphs.data?.not_counted && <Alert type="info" showIcon title={graphs.data.not_counted} data-testid="not-counted" />}
      {/* D26: the project's total at the reporting year's GWP, and the netting of its facility-year. */}
      {graphs.data?.totals && (
        <Typography.Text data-testid="project-totals">
          Итого по проекту: {tonnes.format(graphs.data.totals.t_co2e)} т CO₂-экв.
          {graphs.data.totals.subtracted_t_co2e > 0 &&
            ` (${tonnes.format(graphs.data.totals.gross_t_co2e)} ${NETTING_LABEL} ${tonnes.format(graphs.data.totals.subtracted_t_co2e)})`}
          . ПГП: {graphs.data.totals.gwp}
        </Typography.Text>
      )}
      {graphs.data && charts.length === 0 && (
        <Typography.Text type="secondary" data-testid="no-charts">
          В проекте нет расчетов, которые показываются на графиках.
        </Typography.Text>
      )}
      {charts.length > 0 && (
        <Row gutter={[16, 16]}>
          {charts.map(({ figure, strict, legend }) => (
            <Col key={figure.title} xs={24} lg={strict ? 24 : 12}>
              <Chart figure={figure} height={CHART_HEIGHT} pngButton strict={strict} />
              <SankeyLegend items={legend} />
            </Col>
          ))}
        </Row>
      )}
    </Flex>
  );
}
