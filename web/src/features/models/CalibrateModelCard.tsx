// «Калибровка модели» on «Модели прогноза» (docs/user-guide.md): the model the company's forecasts
// use is calibrated on a longwall's history with the measured concentration, for the company, so its
// forecasts carry an interval and the chance of reaching the limit. A history larger than a request
// (a year of 10-minute readings) goes straight to storage first, as a forecast's does.
import { useState } from "react";
import { Alert, Button, Card, Descriptions, Flex, Typography, Upload } from "antd";
import { UploadOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { displayDateTime, displayWrittenTime } from "../../shared/dates";
import { MAX_FORECAST_UPLOAD_BYTES, MAX_FORECAST_UPLOAD_TEXT } from "@server/contract";
import { useFeedback } from "../../shared/feedback";
import { calibrateForCompany, useForecastCalibration, type ForecastCalibrationView } from "../../api/calculations";
import { FILE_ACCEPT, fileProblem } from "../../shared/fileChecks";
import { useFileChoice } from "../../shared/FileChoice";
import { adminKeys, errorText } from "../../api/admin";
import { levelWidths, width } from "./calibrationText";

const CAP = { bytes: MAX_FORECAST_UPLOAD_BYTES, text: MAX_FORECAST_UPLOAD_TEXT };
const count = (n: number) => n.toLocaleString("ru-RU").replace(/\s/g, " ");

/** «01.01.2025 08:10» for a date-time, a step number as it is. */
const pointText = (value: string | number) => (typeof value === "number" ? String(value) : displayWrittenTime(value));

function CalibrationFacts({ calibration }: { calibration: ForecastCalibrationView }) {
  const q = calibration.quantiles;
  // A calibration stored before the bins has one width for all rows.
  const bins = calibration.bins && calibration.bins.length > 1 ? levelWidths(calibration.bins, calibration.level_floor) : null;
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      data-testid="model-calibration"
      items={[
        {
          key: "rows",
          label: "Строк с фактом",
          children: `${count(calibration.rows)}${calibration.period ? `, ${pointText(calibration.period.from)} – ${pointText(calibration.period.to)}` : ""}`,
        },
        { key: "q", label: "Полуширина интервала 80 / 90 / 95 %", children: `${width(q["80"])} / ${width(q["90"])} / ${width(q["95"])}` },
        ...(bins
          ? [
              {
                key: "bins",
                label: "Полуширина 90 % по уровню прогноза",
                children: (
                  <span data-testid="model-calibration-bins">
                    {bins.map((line) => (
                      <span key={line} style={{ display: "block" }}>
                        {line}
                      </span>
                    ))}
                  </span>
                ),
              },
            ]
          : []),
        {
          key: "by",
          label: "Откалибрована",
          children: `${displayDateTime(calibration.calibrated_at)}, ${calibration.calibrated_by}${calibration.scope === "all" ? " (для всех компаний)" : ""}`,
        },
      ]}
    />
  );
}

export function CalibrateModelCard({ modelId, modelTitle }: { modelId: string; modelTitle: string }) {
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const current = useForecastCalibration(modelId);
  const [file, setFile] = useState<File>();
  const calibrate = useMutation({
    mutationFn: (chosen: File) => calibrateForCompany(modelId, chosen),
    onSuccess: (calibration) => {
      queryClient.setQueryData(["forecast-calibration", modelId], calibration);
      void queryClient.invalidateQueries({ queryKey: adminKeys.forecastModels });
      setFile(undefined);
      message.success(`Модель откалибрована на ${count(calibration.rows)} строках с фактом`);
    },
  });
  const choice = useFileChoice(
    FILE_ACCEPT,
    (chosen) => fileProblem(chosen, CAP),
    (chosen) => {
      setFile(chosen);
      calibrate.reset();
    },
  );
  return (
    <Card title="Калибровка модели" size="small" style={{ marginBottom: 16 }} data-testid="calibrate-model">
      <Flex vertical gap={12}>
        <Typography.Text>
          Калибруется модель, по которой считаются прогнозы компании: {modelTitle}. Загрузите историю лавы с фактической концентрацией CH4
          («Концентрация CH4 в исходящей струе лавы, факт, %») и, по желанию, временем: по ней рассчитываются интервалы 80, 90 и 95 % и
          вероятность достичь предела в прогнозах компании.
        </Typography.Text>
        {current.data ? (
          <CalibrationFacts calibration={current.data} />
        ) : current.data === null ? (
          <Typography.Text type="secondary" data-testid="model-calibration">
            Модель не откалибрована для компании: прогнозы считаются без интервала и вероятности превышения.
          </Typography.Text>
        ) : null}
        <Flex gap={12} align="center" wrap>
          <Upload {...choice.upload}>
            <Button icon={<UploadOutlined />}>{file ? "Заменить файл" : "Выбрать файл истории"}</Button>
          </Upload>
          <Typography.Text type="secondary">.xlsx или .csv, до {CAP.text}</Typography.Text>
          {file && <Typography.Text data-testid="calibration-file">{file.name}</Typography.Text>}
        </Flex>
        {choice.problem && <Alert type="error" showIcon title={choice.problem} />}
        {calibrate.isError && <Alert type="error" showIcon title={errorText(calibrate.error)} data-testid="calibration-error" />}
        <div>
          <Button type="primary" disabled={!file} loading={calibrate.isPending} onClick={() => file && calibrate.mutate(file)}>
            Откалибровать
          </Button>
        </div>
      </Flex>
    </Card>
  );
}
