// A calculation's 95 % interval in its results view (docs/methodology.md, Uncertainty): Approach 1 by the
// uncertainty core in the page, Monte Carlo on request in a worker running the same core.
import { useMemo, useState } from "react";
import { Alert, Button, Descriptions, Flex, Typography } from "antd";
import { REGISTRY, isEmissionType, type CalculationDefinition } from "@core/registry";
import { calculationApproach1, calculationModel, type UsedValue } from "@core/calculation-uncertainty";
import type { MonteCarloResult } from "@core/uncertainty-core";
import { useUncertaintyCore } from "../wasmCore";
import { usePhone } from "../useMediaQuery";
import type { Calculation } from "../../api/calculations";
import { runMonteCarlo } from "./monteCarlo";
import { TrialsSelect } from "./TrialsSelect";
import { asymmetricText, percent, tonnes } from "./texts";

export function CalculationInterval({ calculation }: { calculation: Calculation }) {
  const core = useUncertaintyCore();
  // On a phone the labels go above the values, or the interval wraps one character per line.
  const phone = usePhone();
  const [trials, setTrials] = useState<number>(100_000);
  const [monteCarlo, setMonteCarlo] = useState<{ trials: number; result: MonteCarloResult | null } | undefined>();
  const [running, setRunning] = useState(false);
  const [failed, setFailed] = useState<string | undefined>();
  const model = useMemo(
    () =>
      calculationModel({
        id: calculation.id,
        type: calculation.type,
        name: calculation.name,
        results: calculation,
        coefficients: calculation.coefficients as Record<string, UsedValue>,
      }),
    [calculation],
  );
  const type = calculation.type;
  if (!isEmissionType(type) || !model) return null;
  const def: CalculationDefinition = REGISTRY[type];
  const unit = def.results.find((r) => r.name === def.co2e)?.unit ?? "";
  const approach1 = core.data ? calculationApproach1(core.data, model) : undefined;

  const run = () => {
    setRunning(true);
    setFailed(undefined);
    runMonteCarlo([model], trials)
      .then((result) => setMonteCarlo({ trials, result }))
      .catch((error: unknown) => setFailed(error instanceof Error ? error.message : String(error)))
      .finally(() => setRunning(false));
  };

  const items = [
    {
      key: "approach1",
      label: "95 % интервал (подход 1, распространение ошибок)",
      children: approach1 ? (
        <span data-testid="interval-approach1">
          <Typography.Text strong>
            {tonnes(model.co2e)} ± {percent(approach1.u_pct)}
          </Typography.Text>{" "}
          <Typography.Text type="secondary">
            (от {tonnes(approach1.lower)} до {tonnes(approach1.upper)} {unit})
          </Typography.Text>
        </span>
      ) : core.isError ? (
        "Не удалось загрузить модуль расчета неопределенности"
      ) : (
        "…"
      ),
    },
    ...(monteCarlo
      ? [
          {
            key: "monte-carlo",
            label: `Метод Монте-Карло (${tonnes(monteCarlo.trials, 0)} испытаний)`,
            children: monteCarlo.result ? (
              <span data-testid="interval-monte-carlo">
                <Typography.Text strong>
                  от {tonnes(monteCarlo.result.p2_5)} до {tonnes(monteCarlo.result.p97_5)} {unit}
                </Typography.Text>{" "}
                <Typography.Text type="secondary">
                  (среднее {tonnes(monteCarlo.result.mean)};{" "}
                  {asymmetricText(monteCarlo.result.mean, monteCarlo.result.p2_5, monteCarlo.result.p97_5)})
                </Typography.Text>
              </span>
            ) : (
              "Нет данных для расчета"
            ),
          },
        ]
      : []),
  ];

  return (
    <Flex vertical gap={8}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        Неопределенность результата
      </Typography.Title>
      {model.inputs.length === 0 ? (
        <Typography.Text type="secondary">Неопределенность исходных данных не задана: значения приняты точными.</Typography.Text>
      ) : (
        <>
          <Descriptions
            bordered
            size="small"
            column={1}
            {...(phone ? ({ layout: "vertical" } as const) : { styles: { label: { width: "45%" } } })}
            items={items}
          />
          <Flex gap={8} align="center" wrap>
            <TrialsSelect value={trials} onChange={setTrials} />
            <Button size="small" loading={running} onClick={run}>
              Рассчитать методом Монте-Карло
            </Button>
          </Flex>
          {failed && <Alert type="error" showIcon title={`Расчет методом Монте-Карло не выполнен: ${failed}`} />}
        </>
      )}
    </Flex>
  );
}
