// «Полнота данных датчиков» of a mine (methodology D62): each sensor's completeness by month of a year as
// a heat map — every cell says its percent and whether it reaches 95 % in words and a sign, never by colour
// alone — and each cell opens the sensor's gaps and substitutions of that month. Advisory: protective
// cut-off stays with the mine's own АГК.
import { useState } from "react";
import { Card, Flex, Typography } from "antd";
import { Link, useParams } from "react-router-dom";
import { LoadError } from "../../../shared/LoadError";
import { PageLoading } from "../../../shared/PageLoading";
import { YearField } from "../../../shared/YearField";
import { keepSignsWithNumbers } from "../../../shared/text";
import { useSensorCompleteness, type SensorCompleteness } from "../../../api/monitoring";
import { sensorWhereText } from "../texts/sensorTexts";
import { complete, completenessText, monthText } from "./sensorDataTexts";
import { MonitoringHead } from "../MonitoringHead";
import { MonthGrid } from "./MonthGrid";

/** Green at 95 % and above, amber below, red under a half; the text says the same. */
const shade = (share: number) => (complete(share) ? "#d9f7be" : share >= 0.5 ? "#fff1b8" : "#ffccc7");
const CELL = { padding: 2, minWidth: 64, whiteSpace: "nowrap" } as const;

function Cell({ facility, sensor, month, latest }: { facility: string; sensor: SensorCompleteness; month: string; latest: boolean }) {
  const found = sensor.months.find((m) => m.month === month);
  if (!found) {
    return (
      <td
        style={CELL}
        data-latest={latest ? "" : undefined}
        aria-label={`${sensor.code}, ${monthText(month)}: не в эксплуатации или нет данных`}
      >
        <div style={{ textAlign: "center", color: "#8c8c8c" }}>—</div>
      </td>
    );
  }
  const ok = complete(found.completeness);
  const text = completenessText(found.completeness);
  return (
    <td style={CELL} data-latest={latest ? "" : undefined}>
      <Link
        to={`/facilities/${facility}/sensors/${sensor.id}/gaps?month=${month}`}
        aria-label={`${sensor.code}, ${monthText(month)}: полнота ${text}${ok ? "" : ", ниже 95 %"}; пропуски и замещения`}
        style={{
          display: "block",
          background: shade(found.completeness),
          color: "#262626",
          textAlign: "center",
          fontSize: 12,
          lineHeight: "16px",
          padding: "4px 2px",
          border: ok ? "1px solid transparent" : "1px dashed #8c8c8c",
        }}
      >
        {text}
        <br />
        <span style={{ fontSize: 11 }}>{ok ? "✓ ≥ 95 %" : "! < 95 %"}</span>
      </Link>
    </td>
  );
}

export default function SensorCompletenessPage() {
  const { facilityId = "" } = useParams();
  const [year, setYear] = useState(new Date().getFullYear());
  const data = useSensorCompleteness(facilityId, year);
  const latest = data.data?.flatMap((s) => s.months.map((m) => m.month)).reduce((last, m) => (m > last ? m : last), "");
  return (
    <Flex vertical gap={16}>
      <MonitoringHead page="Полнота данных датчиков" facilityId={facilityId} current="completeness" demo={data.data?.some((s) => s.demo)} />
      <YearField year={year} onChange={setYear} />
      <Card title={`Полнота по датчикам и месяцам, ${year}`}>
        <Typography.Paragraph type="secondary">
          {/* The signs in no-break spaces: «! < 95 %» is never cut at a line's end. */}
          Полнота здесь считается по дням в эксплуатации: доля минут, когда датчик работал, с достоверным или замещенным значением.{" "}
          {"«✓\u00a0≥\u00a095\u00a0%»"} — не меньше 95 %, {"«!\u00a0<\u00a095\u00a0%»"} — меньше, «—» — датчик не был в эксплуатации (без
          даты ввода — до дня регистрации в реестре или первого показания). В инвентаризацию («Данные АГК») месяц источника предлагается по
          полноте за весь месяц — она ниже, если датчик работал не все дни. Нажмите на месяц, чтобы увидеть пропуски и замещения.
        </Typography.Paragraph>
        {data.isError && <LoadError what="полноту данных" message={data.error.message} retry={() => data.refetch()} />}
        {data.isPending && <PageLoading />}
        {data.data && data.data.length === 0 && <Typography.Text type="secondary">У площадки нет датчиков</Typography.Text>}
        {data.data && data.data.length > 0 && (
          <MonthGrid
            label="Полнота данных датчиков по месяцам"
            testId="sensor-heat-map"
            corner="Датчик"
            year={year}
            latest={latest}
            rows={data.data}
            rowKey={(sensor) => sensor.id}
            rowHead={(sensor) => (
              <>
                <Typography.Text strong>{sensor.code}</Typography.Text>
                {sensor.is_active ? "" : " (выведен)"}
                <br />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {keepSignsWithNumbers(sensorWhereText(sensor))}
                </Typography.Text>
              </>
            )}
            cell={(sensor, month) => <Cell key={month} facility={facilityId} sensor={sensor} month={month} latest={month === latest} />}
          />
        )}
      </Card>
    </Flex>
  );
}
