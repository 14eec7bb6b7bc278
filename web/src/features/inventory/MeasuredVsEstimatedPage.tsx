// /inventory/measured-vs-estimated «Измерено и оценено» (docs/methodology.md section 14): per
// underground mine the year's measured gross CH4 of its mining line beside its estimate from coal
// (MineComparisonCard.tsx: bands, verdict, chart by month, explanations), with the year and facility
// pickers and the xlsx.
import { lazy, Suspense, useState } from "react";
import { LazyLoading } from "../../shared/LazyLoading";
import { Link } from "react-router-dom";
import { Alert, Button, Flex, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { LoadError } from "../../shared/LoadError";
import { PageLoading } from "../../shared/PageLoading";
import { downloadComparison, useMeasuredVsEstimated } from "../../api/measuredVsEstimated";
import { useYearAndFacility, YearAndFacilityPickers } from "./YearAndFacility";

const MineCard = lazy(() => import("./MineComparisonCard").then((m) => ({ default: m.MineCard })));

export default function MeasuredVsEstimatedPage() {
  const choice = useYearAndFacility();
  const { year, facility } = choice;
  const comparison = useMeasuredVsEstimated(year, facility);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string>();
  const save = () => {
    setSaving(true);
    setFailure(undefined);
    downloadComparison(year, facility)
      .catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)))
      .finally(() => setSaving(false));
  };
  const mines = comparison.data?.facilities ?? [];
  return (
    <Flex vertical gap={16}>
      <Typography.Text>
        <Link to={`/inventory?year=${year}`}>Инвентаризация</Link> / Измерено и оценено
      </Typography.Text>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Измерено и оценено
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Валовый метан подземной добычи (1.B.1.a.i.1), измеренный на вентиляционных стволах и дегазационных установках, против оценки по
        добыче угля; полосы — 95 % интервалы (подход 1), вывод — по их сумме (методология, раздел 14).
      </Typography.Paragraph>
      <Flex gap={12} wrap align="center">
        <YearAndFacilityPickers choice={choice} facilities={choice.facilities.filter((f) => f.kind === "underground_mine")} />
        <Button icon={<DownloadOutlined />} loading={saving} onClick={save} disabled={mines.length === 0}>
          Скачать xlsx
        </Button>
      </Flex>
      {failure && <Alert type="error" showIcon title={`Не удалось скачать: ${failure}`} />}
      {comparison.isPending && <PageLoading />}
      {comparison.isError && (
        <LoadError what="сравнение измерений с оценкой" message={comparison.error.message} retry={() => void comparison.refetch()} />
      )}
      {comparison.data?.approved_version != null && (
        <Alert type="info" showIcon title={`Год утвержден: сравниваются расчеты версии ${comparison.data.approved_version}`} />
      )}
      {comparison.data && mines.length === 0 && (
        <Typography.Text type="secondary">За {year} год нет шахты с измеренным выбросом или оценкой по добыче угля</Typography.Text>
      )}
      {mines.length > 0 && (
        <Suspense fallback={<LazyLoading />}>
          {mines.map((mine) => (
            <MineCard key={mine.facility} mine={mine} year={year} />
          ))}
        </Suspense>
      )}
    </Flex>
  );
}
