// One mine's card of «Измерено и оценено»: the two figures with their 95 % bands, the verdict,
// the difference and the implied factor, the chart by month and the explanations, each leading to the
// month's «Данные АГК», the mine's sensors or the year's balance. D93: how much of the year is measured,
// what is compared (the whole year or the measured months against the estimate's share of them), no
// verdict before 9 months, and the explanations' totals per kind before their lines. Loaded after the page's heading, as the
// inventory's report is (its chart, list and tags are the page's weight).
import { useMemo } from "react";
import { Link } from "react-router-dom";
import { Card, Flex, List, Tag, Typography } from "antd";
import { verdictText } from "@server/contract";
import { formatResult } from "../../shared/decimals";
import type { MineComparison } from "../../api/measuredVsEstimated";
import { Chart } from "../../shared/charts/Chart";
import { comparisonFigure, monthName } from "./comparisonChart";

const t = (value: number) => `${formatResult(value, 2)} т CH4`;
const signed = (value: number, text: string) => `${value > 0 ? "+" : value < 0 ? "−" : ""}${text}`;
const percent = (value: number) => `${formatResult(value, 1)} %`;

/** A figure with its 95 % band (Approach 1): «6 463,61 т CH4 ± 7,1 % (от … до …)». */
function Band({ label, value, u, testId }: { label: string; value: number; u: number; testId: string }) {
  const half = (Math.abs(value) * u) / 100;
  return (
    <Flex vertical gap={2} data-testid={testId} style={{ minWidth: 0 }}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Typography.Text strong style={{ fontSize: 18 }}>
        {t(value)}
      </Typography.Text>
      <Typography.Text>
        ± {percent(u)} (от {formatResult(Math.max(0, value - half), 2)} до {formatResult(value + half, 2)})
      </Typography.Text>
    </Flex>
  );
}

/** D81: which estimate the card shows, beside its label. */
const ESTIMATE_ROLE_WORDS: Record<NonNullable<MineComparison["estimated"]>["role"], string> = {
  counted: " (учтена в итоге)",
  alternative: " (для сравнения)",
  not_counted: " (не учтена в итоге: учтено измерение)",
};

/** Where an explanation leads: the month's «Данные АГК», the mine's sensors or the year's balance. */
function explanationLink(mine: MineComparison, kind: string, year: number): { to: string; label: string } {
  if (kind === "no_channels") return { to: `/facilities/${mine.facility}/sensors`, label: "Датчики" };
  if (kind === "drained_balance" || kind === "drained_net" || kind === "no_estimate" || kind === "factor" || kind === "counted_side")
    return { to: `/inventory?year=${year}&facility=${mine.facility}`, label: "Инвентаризация" };
  return { to: `/facilities/${mine.facility}/agk-data`, label: "Данные АГК" };
}

export function MineCard({ mine, year }: { mine: MineComparison; year: number }) {
  const figure = useMemo(() => comparisonFigure(mine), [mine]);
  const estimated = mine.estimated;
  // D93: a part-year's figures above are the year's; its difference is of the months compared only.
  const partYear = mine.scope === "measured_months";
  return (
    <Card title={mine.facility_name} size="small" data-testid="mine-comparison">
      <Flex vertical gap={16}>
        <Flex gap={24} wrap>
          <Band label="Измерено (стволы и дегазация, валовый)" value={mine.measured.ch4_t} u={mine.measured.u_pct} testId="measured" />
          {estimated ? (
            <Band
              label={`Оценка по добыче угля${partYear ? " за весь год" : ""}${ESTIMATE_ROLE_WORDS[estimated.role]}`}
              value={estimated.ch4_t}
              u={estimated.u_pct}
              testId="estimated"
            />
          ) : (
            <Typography.Text type="secondary">Оценки по добыче угля нет</Typography.Text>
          )}
        </Flex>
        <Flex vertical gap={4}>
          <Flex gap={8} wrap align="center">
            <Tag
              color={mine.consistent === null ? (mine.verdict_reason ? "gold" : "default") : mine.consistent ? "green" : "red"}
              data-testid="verdict"
            >
              {verdictText(mine.consistent, mine.verdict_reason)}
            </Tag>
            {mine.difference_t !== null && (
              <Typography.Text data-testid="difference">
                {partYear ? "За сравниваемые месяцы разница" : "Разница"} {signed(mine.difference_t, t(Math.abs(mine.difference_t)))}
                {mine.difference_pct !== null && ` (${signed(mine.difference_pct, percent(Math.abs(mine.difference_pct)))})`}
                {mine.combined_t !== null && `, допустимо ±${formatResult(mine.combined_t, 2)} т`}
              </Typography.Text>
            )}
          </Flex>
          <Typography.Text data-testid="coverage">
            Охват: измерено {mine.measured.coverage.months} из 12 месяцев на всех стволах и дегазации,{" "}
            {percent(mine.measured.coverage.hours_pct)} часов источников за год
            {mine.compared &&
              (mine.scope === "year"
                ? "; сравнивается весь год"
                : `; сравниваются измеренные месяцы: ${t(mine.compared.measured_ch4_t)} против доли оценки за них ${t(mine.compared.estimated_ch4_t)}`)}
          </Typography.Text>
          {mine.implied_ef_m3_per_t !== null && (
            <Typography.Text data-testid="implied-factor">
              Коэффициент по измерению: {formatResult(mine.implied_ef_m3_per_t, 2)} м³/т при {formatResult(mine.density_kg_m3, 2)} кг/м³
              {estimated?.ef != null && ` — в оценке ${formatResult(estimated.ef, 2)} м³/т`}
              {mine.compared?.coal_t != null &&
                `; добыча ${mine.scope === "year" ? "" : "за сравниваемые месяцы "}${formatResult(mine.compared.coal_t, 0)} т`}
            </Typography.Text>
          )}
          {estimated && <Typography.Text type="secondary">{estimated.method}</Typography.Text>}
        </Flex>
        <Chart figure={figure} height={320} testId="comparison-chart" />
        <List
          size="small"
          header={
            <Flex vertical gap={2}>
              <Typography.Text strong>Что разделяет измерение и оценку</Typography.Text>
              {mine.explanation_totals.map((total) => (
                <Typography.Text key={total.kind} data-testid="explanation-total">
                  Итого — {total.text}
                </Typography.Text>
              ))}
            </Flex>
          }
          locale={{ emptyText: "Ничего не найдено: все месяцы измерены и приняты" }}
          dataSource={mine.explanations}
          renderItem={(item) => {
            const link = explanationLink(mine, item.kind, year);
            return (
              <List.Item data-testid="explanation">
                <Flex vertical gap={2} style={{ minWidth: 0 }}>
                  <Typography.Text>{item.text}</Typography.Text>
                  <Typography.Text type="secondary">
                    {item.month ? `${monthName(item.month)} · ` : ""}
                    <Link to={link.to}>{link.label}</Link>
                  </Typography.Text>
                </Flex>
              </List.Item>
            );
          }}
        />
      </Flex>
    </Card>
  );
}
