// /projects/{projectId}/uncertainty «Неопределенность»: the project's total with its 95 % interval
// by both approaches side by side (Approach 1 by the uncertainty core in the page, Monte Carlo in a
// worker by the same core), the key categories of the level assessment by Approach 1 (95 %) and
// Approach 2 (level × uncertainty, 90 %), and each calculation's interval. Until the inventory
// exists the project stands in for it; the trend assessment waits for its base year.
import { useEffect, useMemo, useState } from "react";
import { Alert, Button, Card, Col, Descriptions, Flex, Row, Table, Tag, Typography, type TableColumnsType } from "antd";
import { useParams } from "react-router-dom";
import { REGISTRY, isEmissionType } from "@core/registry";
import { calculationApproach1, projectApproach1, type ProjectUncertainty } from "@core/calculation-uncertainty";
import type { MonteCarloResult, RankedCategory } from "@core/uncertainty-core";
import { useUncertaintyCore } from "../../shared/wasmCore";
import { PageLoading } from "../shell/PageLoading";
import { useProjectUncertainty } from "./api";
import { runMonteCarlo } from "./monteCarlo";
import { TrialsSelect } from "./TrialsSelect";
import { asymmetricText, percent, tonnes } from "./texts";

const UNIT = "т CO2-экв.";

interface CategoryRow {
  key: string;
  title: string;
  count: number;
  co2e: number;
  u_pct: number;
  level?: RankedCategory;
  level2?: RankedCategory;
}

const keyTag = (category: RankedCategory | undefined) =>
  category === undefined ? "—" : category.key ? <Tag color="red">ключевая</Tag> : <Tag>не ключевая</Tag>;

const share = (value: number | undefined) => (value === undefined ? "—" : percent(value * 100));

const categoryColumns: TableColumnsType<CategoryRow> = [
  { title: "Категория (тип расчета)", dataIndex: "title", width: 300 },
  { title: "Расчетов", dataIndex: "count", width: 90, align: "right" },
  { title: `Выбросы, ${UNIT}`, dataIndex: "co2e", width: 150, align: "right", render: (v: number) => tonnes(v) },
  { title: "Неопределенность, ± %", dataIndex: "u_pct", width: 130, align: "right", render: (v: number) => percent(v) },
  {
    title: "Подход 1: уровень (порог 95 %)",
    children: [
      { title: "Доля", key: "l-share", width: 90, align: "right", render: (_: unknown, r) => share(r.level?.share) },
      { title: "Накопленная", key: "l-cum", width: 110, align: "right", render: (_: unknown, r) => share(r.level?.cumulative) },
      { title: "Категория", key: "l-key", width: 120, render: (_: unknown, r) => keyTag(r.level) },
    ],
  },
  {
    title: "Подход 2: уровень × неопределенность (порог 90 %)",
    children: [
      { title: "Доля", key: "a-share", width: 90, align: "right", render: (_: unknown, r) => share(r.level2?.share) },
      { title: "Накопленная", key: "a-cum", width: 110, align: "right", render: (_: unknown, r) => share(r.level2?.cumulative) },
      { title: "Категория", key: "a-key", width: 120, render: (_: unknown, r) => keyTag(r.level2) },
    ],
  },
];

function categoryRows(project: ProjectUncertainty): CategoryRow[] {
  const level = new Map(project.key_level.map((c) => [c.id, c]));
  const level2 = new Map(project.key_level_approach2.map((c) => [c.id, c]));
  return project.categories
    .map((c) => ({
      key: c.id,
      title: c.title,
      count: c.count,
      co2e: c.co2e,
      u_pct: c.u_pct,
      level: level.get(c.id),
      level2: level2.get(c.id),
    }))
    .sort((a, b) => b.co2e - a.co2e);
}

interface CalculationRow {
  key: string;
  name: string;
  type: string;
  co2e: number;
  u_pct: number;
  lower: number;
  upper: number;
}

const calculationColumns: TableColumnsType<CalculationRow> = [
  { title: "Расчет", dataIndex: "name" },
  { title: "Тип расчета", dataIndex: "type" },
  { title: `Выбросы, ${UNIT}`, dataIndex: "co2e", width: 150, align: "right", render: (v: number) => tonnes(v) },
  { title: "± % (подход 1)", dataIndex: "u_pct", width: 120, align: "right", render: (v: number) => percent(v) },
  { title: "95 % интервал", key: "range", width: 260, render: (_: unknown, r) => `от ${tonnes(r.lower)} до ${tonnes(r.upper)}` },
];

export default function ProjectUncertaintyPage() {
  const { projectId = "" } = useParams();
  const model = useProjectUncertainty(projectId);
  const core = useUncertaintyCore();
  const [trials, setTrials] = useState<number>(100_000);
  const [monteCarlo, setMonteCarlo] = useState<{ trials: number; result: MonteCarloResult | null } | undefined>();
  const [running, setRunning] = useState(false);
  const [failed, setFailed] = useState<string | undefined>();

  const calculations = model.data?.calculations;
  const project = useMemo(
    () => (core.data && calculations ? projectApproach1(core.data, calculations) : undefined),
    [core.data, calculations],
  );
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
        {model.data ? `Неопределенность - ${model.data.project.name}` : "Неопределенность"}
      </Typography.Title>
      {error && <Alert type="error" showIcon title={`Не удалось загрузить данные: ${error.message}`} />}
      {(model.isPending || core.isPending) && !error && <PageLoading />}
      {model.data && core.data && !project && (
        <Alert type="info" showIcon title="В проекте нет расчетов выбросов: оценивать пока нечего." />
      )}
      {project && (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} lg={12}>
              <Card size="small" title="Подход 1: распространение ошибок" data-testid="total-approach1">
                <Descriptions
                  size="small"
                  column={1}
                  items={[
                    {
                      key: "total",
                      label: "Выбросы проекта",
                      children: (
                        <Typography.Text strong data-testid="total-interval">
                          {tonnes(project.total)} ± {percent(project.approach1.u_pct)} {UNIT}
                        </Typography.Text>
                      ),
                    },
                    {
                      key: "range",
                      label: "95 % интервал",
                      children: `от ${tonnes(project.approach1.lower)} до ${tonnes(project.approach1.upper)} ${UNIT}`,
                    },
                  ]}
                />
                <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0" }}>
                  Уравнения 3.1 и 3.2 IPCC 2006 (т. 1, гл. 3): точны для малых некоррелированных неопределенностей; коэффициенты уровня 1
                  для добычи угля шире, поэтому рядом показан метод Монте-Карло.
                </Typography.Paragraph>
              </Card>
            </Col>
            <Col xs={24} lg={12}>
              <Card size="small" title="Подход 2: метод Монте-Карло" data-testid="total-monte-carlo">
                {mc ? (
                  <Descriptions
                    size="small"
                    column={1}
                    items={[
                      {
                        key: "range",
                        label: "95 % интервал (2,5–97,5 процентили)",
                        children: (
                          <Typography.Text strong data-testid="monte-carlo-interval">
                            от {tonnes(mc.p2_5)} до {tonnes(mc.p97_5)} {UNIT}
                          </Typography.Text>
                        ),
                      },
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
                    ]}
                  />
                ) : (
                  <Typography.Text type="secondary">{running ? "Выполняется расчет…" : "Нет результата"}</Typography.Text>
                )}
                <Flex gap={8} align="center" wrap style={{ marginTop: 8 }}>
                  <TrialsSelect value={trials} onChange={setTrials} />
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
            <Table<CategoryRow>
              size="small"
              rowKey="key"
              columns={categoryColumns}
              dataSource={categoryRows(project)}
              pagination={false}
              scroll={{ x: 1100 }}
            />
            <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0" }}>
              Ключевая категория — та, до которой накопленная доля еще не достигла порога (IPCC 2006, т. 1, гл. 4, уравнения 4.1 и 4.4).
              Оценка тренда требует базового года и появится вместе с инвентаризацией.
            </Typography.Paragraph>
          </Card>
          <Card size="small" title="Расчеты проекта">
            <Table<CalculationRow>
              size="small"
              rowKey="key"
              columns={calculationColumns}
              dataSource={rows}
              pagination={false}
              scroll={{ x: 900 }}
            />
          </Card>
        </>
      )}
    </Flex>
  );
}
