// /projects/{projectId}/uncertainty «Неопределенность»: the project's total with its 95 % interval
// by both approaches side by side (Approach 1 by the uncertainty core in the page, Monte Carlo in a
// worker by the same core), the key categories of the level assessment by Approach 1 (95 %) and
// Approach 2 (level × uncertainty, 90 %), and each calculation's interval. Until the inventory
// exists the project stands in for it; the trend assessment waits for its base year.
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { Alert, Button, Card, Col, Descriptions, Flex, Row, Spin, Typography, type DescriptionsProps } from "antd";
import { useParams } from "react-router-dom";
import { REGISTRY, isEmissionType } from "@core/registry";
import { calculationApproach1, projectApproach1 } from "@core/calculation-uncertainty";
import type { MonteCarloResult } from "@core/uncertainty-core";
import { LazyLoading } from "../../shared/LazyLoading";
import { useUncertaintyCore } from "../../shared/wasmCore";
import { usePhone } from "../../shared/useMediaQuery";
import { PageLoading } from "../../shared/PageLoading";
import { useProjectUncertainty } from "./api";
import type { CalculationRow } from "./CalculationIntervalsTable";
import { runMonteCarlo } from "../../shared/uncertainty/monteCarlo";
import { asymmetricText, percent, tonnes, UNIT } from "../../shared/uncertainty/texts";

// The page paints its headings, totals and buttons at once; the tables (antd's Table) and the
// trials choice (antd's Select) are chunks of their own, fetched when the page mounts so they
// arrive while the model and the core load.
const loadKeyCategories = () => import("./KeyCategoriesTable");
const loadCalculationIntervals = () => import("./CalculationIntervalsTable");
const loadTrialsSelect = () => import("../../shared/uncertainty/TrialsSelect");
const KeyCategoriesTable = lazy(() => loadKeyCategories().then((m) => ({ default: m.KeyCategoriesTable })));
const CalculationIntervalsTable = lazy(() => loadCalculationIntervals().then((m) => ({ default: m.CalculationIntervalsTable })));
const TrialsSelect = lazy(() => loadTrialsSelect().then((m) => ({ default: m.TrialsSelect })));

/** Where the trials choice will be while its code loads: its size, so the button does not move. */
const trialsFallback = (
  <Flex justify="center" align="center" style={{ width: 190, height: 24 }}>
    <Spin size="small" />
  </Flex>
);

/** A line of the totals whose figure stands in bold, named `testId` for the tests. */
const boldItem = (key: string, label: string, testId: string, figure: string) => ({
  key,
  label,
  children: (
    <Typography.Text strong data-testid={testId}>
      {figure}
    </Typography.Text>
  ),
});

export default function ProjectUncertaintyPage() {
  const { projectId = "" } = useParams();
  const model = useProjectUncertainty(projectId);
  const core = useUncertaintyCore();
  // On a phone the labels go above the values, or the interval wraps one character per line.
  const layout = usePhone() ? "vertical" : "horizontal";
  /** A card's totals, label beside figure (above it on a phone). */
  const totals = (items: DescriptionsProps["items"]) => <Descriptions size="small" column={1} layout={layout} items={items} />;
  const [trials, setTrials] = useState<number>(100_000);
  const [monteCarlo, setMonteCarlo] = useState<{ trials: number; result: MonteCarloResult | null } | undefined>();
  const [running, setRunning] = useState(false);
  const [failed, setFailed] = useState<string | undefined>();

  useEffect(() => {
    // A failed fetch here is retried when the part renders (and shown there).
    for (const load of [loadKeyCategories, loadCalculationIntervals, loadTrialsSelect]) load().catch(() => undefined);
  }, []);

  const calculations = model.data?.calculations;
  const project = useMemo(
    () => (core.data && calculations ? projectApproach1(core.data, calculations) : undefined),
    [core.data, calculations],
  );
  // Methodology 10.1: the netted total's interval is the server's, by the year page's computation.
  const netting = model.data?.netting ?? null;
  const netted = netting?.netted;
  const rows = useMemo<CalculationRow[]>(
    () =>
      core.data && calculations
        ? calculations.map((c) => ({
            key: c.id,
            name: c.name,
            type: isEmissionType(c.type) ? REGISTRY[c.type].title : c.type,
            co2e: c.co2e,
            ...calculationApproach1(core.data!, c),
          }))
        : [],
    [core.data, calculations],
  );

  const run = (count: number) => {
    if (!calculations) return;
    setRunning(true);
    setFailed(undefined);
    runMonteCarlo(calculations, count)
      .then((result) => setMonteCarlo({ trials: count, result }))
      .catch((error: unknown) => setFailed(error instanceof Error ? error.message : String(error)))
      .finally(() => setRunning(false));
  };

  // Both approaches side by side from the start: Monte Carlo runs once the model is here.
  useEffect(() => {
    if (calculations && calculations.length > 0) run(100_000);
  }, [calculations]);

  const error = model.error ?? core.error;
  const mc = monteCarlo?.result;

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        {model.data ? `Неопределенность — ${model.data.project.name}` : "Неопределенность"}
      </Typography.Title>
      {error && <Alert type="error" showIcon title={`Не удалось загрузить данные: ${error.message}`} />}
      {(model.isPending || core.isPending) && !error && <PageLoading />}
      {model.data && core.data && !project && (
        <Alert type="info" showIcon title="В проекте нет расчетов выбросов: оценивать пока нечего." />
      )}
      {model.data?.not_counted && <Alert type="info" showIcon title={model.data.not_counted} data-testid="not-counted" />}
      {project && (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} lg={12}>
              <Card size="small" title="Подход 1: распространение ошибок" data-testid="total-approach1">
                {totals([
                  boldItem(
                    "total",
                    "Выбросы проекта",
                    "total-interval",
                    `${tonnes(project.total)} ± ${percent(project.approach1.u_pct)} ${UNIT}`,
                  ),
                  {
                    key: "range",
                    label: "95 % интервал",
                    children: `от ${tonnes(project.approach1.lower)} до ${tonnes(project.approach1.upper)} ${UNIT}`,
                  },
                  // D26, D27: the facility-year's netting, then the netted total (Eq. 3.2 with the subtracted term).
                  ...(netted && netting
                    ? [
                        {
                          key: "netting",
                          label: netting.label,
                          children: (
                            <span data-testid="netting-line">
                              {tonnes(netting.subtracted_t_co2e)} ± {percent(Math.max(netting.lower_pct, netting.upper_pct))} {UNIT} (
                              {netting.source})
                            </span>
                          ),
                        },
                        boldItem(
                          "netted",
                          "Итого за вычетом уничтоженного",
                          "netted-total",
                          `${tonnes(netted.t_co2e)} ± ${percent(netted.u_pct)} ${UNIT}`,
                        ),
                      ]
                    : []),
                ])}
                <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0" }}>
                  Уравнения 3.1 и 3.2 МГЭИК 2006 (т. 1, гл. 3): точны для малых некоррелированных неопределенностей; коэффициенты уровня 1
                  для добычи угля шире, поэтому рядом показан метод Монте-Карло.
                </Typography.Paragraph>
              </Card>
            </Col>
            <Col xs={24} lg={12}>
              <Card size="small" title="Подход 2: метод Монте-Карло" data-testid="total-monte-carlo">
                {mc ? (
                  totals([
                    boldItem(
                      "range",
                      "95 % интервал (2,5–97,5 процентили)",
                      "monte-carlo-interval",
                      `от ${tonnes(mc.p2_5)} до ${tonnes(mc.p97_5)} ${UNIT}`,
                    ),
                    {
                      key: "mean",
                      label: "Среднее",
                      children: `${tonnes(mc.mean)} ${UNIT} (${asymmetricText(mc.mean, mc.p2_5, mc.p97_5)})`,
                    },
                    {
                      key: "shortest",
                      label: "Кратчайший 95 % интервал",
                      children: `от ${tonnes(mc.shortest.lower)} до ${tonnes(mc.shortest.upper)} ${UNIT}`,
                    },
                    { key: "trials", label: "Испытаний", children: tonnes(monteCarlo!.trials, 0) },
                  ])
                ) : (
                  <Typography.Text type="secondary">{running ? "Выполняется расчет…" : "Нет результата"}</Typography.Text>
                )}
                <Flex gap={8} align="center" wrap style={{ marginTop: 8 }}>
                  <Suspense fallback={trialsFallback}>
                    <TrialsSelect value={trials} onChange={setTrials} />
                  </Suspense>
                  <Button size="small" loading={running} onClick={() => run(trials)}>
                    Пересчитать
                  </Button>
                </Flex>
                {failed && (
                  <Alert type="error" showIcon title={`Расчет методом Монте-Карло не выполнен: ${failed}`} style={{ marginTop: 8 }} />
                )}
              </Card>
            </Col>
          </Row>
          <Card size="small" title="Ключевые категории: оценка уровня" data-testid="key-categories">
            <Suspense fallback={<LazyLoading />}>
              <KeyCategoriesTable project={project} />
            </Suspense>
            <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0" }}>
              Ключевая категория — та, до которой накопленная доля еще не достигла порога (МГЭИК 2006, т. 1, гл. 4, уравнения 4.1 и 4.4).
              Оценка тренда требует базового года и появится вместе с инвентаризацией.
            </Typography.Paragraph>
          </Card>
          <Card size="small" title="Расчеты проекта">
            <Suspense fallback={<LazyLoading />}>
              <CalculationIntervalsTable rows={rows} />
            </Suspense>
          </Card>
        </>
      )}
    </Flex>
  );
}
