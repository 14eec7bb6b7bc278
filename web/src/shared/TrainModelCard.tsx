// «Обучить модель»: a model trained in the browser (a Web Worker running the core's trainer) on a
// longwall's history — the forecast's data columns by their Russian headers, y and optionally the
// time — with a progress bar, a cancel button, the training and validation error per round and the
// importance of each feature by its Russian name. «Сохранить» sends the same file and parameters to
// the server, which trains the same model again (the trainer is deterministic) and stores it as a
// version of the company's own that its forecasts use.
import { useRef, useState } from "react";
import { Alert, Button, Card, Checkbox, Form, Input, InputNumber, Progress, Select, Space, Typography, Upload } from "antd";
import { HORIZONS, horizonLabel } from "@core/gbdt/horizon";
import { ExperimentOutlined, StopOutlined, UploadOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { REGISTRY, type NumberField } from "@core/registry";
import { CsvEncodingError, decodeCsvBytes } from "@core/csv";
import type { RoundInfo } from "@core/gbdt/browser";
import { TRAIN_PARAM_LIMITS } from "@core/gbdt/train";
import type { ExportJobView } from "@server/contract";
import { api, routePath, type FileJob } from "../api/client";
import { formatResult, numberText } from "./decimals";
import { adminKeys, errorText, fetchForecastModels, type ForecastModelVersion } from "../api/admin";
import { directHistory } from "../api/calculations";
import type { TrainMessage, TrainRequest, TrainSummary } from "./trainModel.worker";
import { useFeedback } from "./feedback";
import { MODEL_DESCRIPTION_MAX } from "@server/contract";

const LABELS = new Map(
  ((REGISTRY.regres_methane.inputs.find((f) => f.name === "data")?.columns ?? []) as readonly NumberField[]).map((c) => [c.name, c.label]),
);

interface Params {
  n_estimators: number;
  max_depth: number;
  learning_rate: number;
  /** XGBoost's monotone_constraints as JSON text, e.g. {"x1":-1}. */
  monotone_constraints?: string;
}

interface FormValues extends Omit<Params, "monotone_constraints"> {
  /** More air never forecasts more methane: the air flow x1 at −1. */
  air_monotone: boolean;
}

/** The parameters the form asks for, as the worker and the server take them. */
function paramsOf({ air_monotone, ...numbers }: FormValues): Params {
  return air_monotone ? { ...numbers, monotone_constraints: JSON.stringify({ x1: -1 }) } : numbers;
}

/** The error curves, training and validation, as two polylines over the rounds. */
function ErrorCurve({ rounds }: { rounds: RoundInfo[] }) {
  if (rounds.length < 2) return null;
  const width = 560;
  const height = 160;
  const values = rounds.flatMap((r) => [r.train_rmse, r.valid_rmse ?? r.train_rmse]);
  const top = Math.max(...values);
  const last = rounds[rounds.length - 1];
  const x = (i: number) => 40 + (i / (Math.max(last.rounds, rounds.length) - 1)) * (width - 50);
  const y = (v: number) => 10 + (1 - v / top) * (height - 30);
  const line = (pick: (r: RoundInfo) => number | null) =>
    rounds
      .filter((r) => pick(r) !== null)
      .map((r, i) => `${x(i).toFixed(1)},${y(pick(r)!).toFixed(1)}`)
      .join(" ");
  return (
    <figure style={{ margin: 0 }} aria-label="Ошибка по раундам">
      <svg width={width} height={height} role="img" aria-label="Ошибка обучения и проверки по раундам">
        <line x1={40} y1={height - 20} x2={width - 10} y2={height - 20} stroke="#bbb" />
        <line x1={40} y1={10} x2={40} y2={height - 20} stroke="#bbb" />
        <text x={0} y={14} fontSize={11}>
          {formatResult(top, 3)}
        </text>
        <text x={20} y={height - 22} fontSize={11}>
          0
        </text>
        <text x={width - 90} y={height - 4} fontSize={11}>
          раунд {last.round}
        </text>
        <polyline points={line((r) => r.train_rmse)} fill="none" stroke="#1677ff" strokeWidth={2} />
        <polyline points={line((r) => r.valid_rmse)} fill="none" stroke="#fa8c16" strokeWidth={2} />
      </svg>
      <figcaption>
        <Typography.Text style={{ color: "#1677ff" }}>■ обучающие строки</Typography.Text>{" "}
        <Typography.Text style={{ color: "#fa8c16" }}>■ проверочные строки</Typography.Text> — среднеквадратичная ошибка, % CH4
      </figcaption>
    </figure>
  );
}

/** Feature importance (share of the total gain) as bars, each feature by its Russian name. */
function Importance({ summary }: { summary: TrainSummary }) {
  const sorted = [...summary.importance].sort((a, b) => b.share - a.share);
  return (
    <section aria-label="Важность признаков">
      <Typography.Title level={5}>Важность признаков</Typography.Title>
      {sorted.map((i) => (
        <div key={i.feature} style={{ display: "flex", alignItems: "center", gap: 8, marginBottom: 4 }}>
          <span style={{ width: 360 }}>{LABELS.get(i.feature) ?? i.feature}</span>
          <div style={{ width: 240, background: "#f0f0f0", height: 14 }}>
            <div style={{ width: `${(i.share * 100).toFixed(1)}%`, background: "#52c41a", height: 14 }} />
          </div>
          <span>{formatResult(i.share * 100, 1)} %</span>
        </div>
      ))}
    </section>
  );
}

/** A training parameter's bounds as the core checks them (TRAIN_PARAM_LIMITS), for its input. */
function limitBounds(name: keyof typeof TRAIN_PARAM_LIMITS) {
  const limit = TRAIN_PARAM_LIMITS[name];
  return { min: limit.min, max: limit.max, ...(limit.integer ? { precision: 0 } : {}) };
}

/** The core's rule for a parameter, said before training starts: a bound the input cannot hold
 *  (a value that must be above its minimum) is said here. */
function limitRule(name: keyof typeof TRAIN_PARAM_LIMITS) {
  const limit = TRAIN_PARAM_LIMITS[name];
  return {
    validator: async (_: unknown, value: number | null | undefined) => {
      if (typeof value !== "number") return;
      const low = limit.above ? value <= limit.min : value < limit.min;
      if (low || value > limit.max || (limit.integer && !Number.isInteger(value))) {
        const from = limit.above ? `больше ${numberText(limit.min)}` : `от ${numberText(limit.min)}`;
        throw new Error(`${limit.integer ? "Целое число" : "Число"} ${from} до ${numberText(limit.max)}`);
      }
    },
  };
}

export function TrainModelCard() {
  const [form] = Form.useForm<FormValues>();
  const [file, setFile] = useState<File | null>(null);
  const [rounds, setRounds] = useState<RoundInfo[]>([]);
  const [summary, setSummary] = useState<TrainSummary | null>(null);
  const [problem, setProblem] = useState<string>();
  const [running, setRunning] = useState(false);
  const [activate, setActivate] = useState(true);
  // The model's name (a longwall's, «Лава 7»): the forecast's form lists the company's models by it.
  const [name, setName] = useState("");
  // Minutes ahead (0: the nowcast); a model ahead is picked in the forecast's form, never made active.
  const [horizon, setHorizon] = useState(0);
  const trainedHorizon = useRef(0);
  const [serverJob, setServerJob] = useState<FileJob | null>(null);
  const worker = useRef<Worker | null>(null);
  const trainedWith = useRef<Params | null>(null);
  const { message } = useFeedback();
  const queryClient = useQueryClient();

  const stop = () => {
    worker.current?.terminate();
    worker.current = null;
    setRunning(false);
  };

  const start = async (params: Params) => {
    if (!file) {
      setProblem("Прикрепите файл истории (.csv)");
      return;
    }
    stop();
    setProblem(undefined);
    setSummary(null);
    setRounds([]);
    setRunning(true);
    trainedWith.current = params;
    trainedHorizon.current = horizon;
    let text: string;
    try {
      // Russian Excel's «CSV (разделители — точки с запятой)» is Windows-1251: read as the server reads it.
      text = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
    } catch (error) {
      setProblem(error instanceof CsvEncodingError ? error.message : "Не удалось прочитать файл истории");
      stop();
      return;
    }
    const w = new Worker(new URL("./trainModel.worker.ts", import.meta.url), { type: "module" });
    worker.current = w;
    const seen: RoundInfo[] = [];
    let shown = 0;
    w.onmessage = (event: MessageEvent<TrainMessage>) => {
      const data = event.data;
      if (data.type === "round") {
        seen.push(data.info);
        // Redraw about a hundred times per training, and at the end.
        if (seen.length - shown >= Math.max(1, Math.floor(data.info.rounds / 100))) {
          shown = seen.length;
          setRounds([...seen]);
        }
      } else {
        setRounds([...seen]);
        if (data.type === "done") setSummary(data.summary);
        else setProblem(data.message);
        stop();
      }
    };
    w.onerror = (event) => {
      setProblem(event.message || "Обучение не выполнено");
      stop();
    };
    w.postMessage({ text, params: { ...params }, horizon } satisfies TrainRequest);
  };

  const save = useMutation({
    mutationFn: async (): Promise<ForecastModelVersion> => {
      const body = new FormData();
      body.append("file", file!);
      body.append("params", JSON.stringify(trainedWith.current));
      body.append("horizon", String(trainedHorizon.current));
      if (name.trim()) body.append("description", name.trim());
      body.append("activate", activate && trainedHorizon.current === 0 ? "true" : "false");
      setServerJob(null);
      // A history over the request cap (a year of 10-minute readings) goes straight to storage first.
      const { form } = await directHistory(body, "file", "fresh");
      const path = await routePath("forecastModels", (c) => c[":method"].train.$path({ param: { method: "xgboost" } }));
      const answer = await api.upload<ForecastModelVersion | ExportJobView>("POST", path, form);
      if (!("status_url" in answer) || !answer.status_url) return answer as ForecastModelVersion;
      // The server trains it as a job (AWS: the job function): its progress until it names the model.
      const done = await api.followJob(answer, setServerJob, "Не удалось обучить модель. Повторите обучение позже");
      const models = await queryClient.fetchQuery({ queryKey: adminKeys.forecastModels, queryFn: fetchForecastModels, staleTime: 0 });
      const model = models.results.flatMap((r) => r.versions).find((v) => v.id === done.model_id);
      if (!model) throw new Error("Модель сохранена, но не найдена в списке: обновите страницу");
      return model;
    },
    onSuccess: async (model) => {
      setServerJob(null);
      await queryClient.invalidateQueries({ queryKey: adminKeys.forecastModels });
      message.success(
        `Модель компании сохранена: XGBoost, версия ${model.version}${model.is_active ? ", прогнозы компании считаются по ней" : ""}`,
      );
    },
    onError: () => setServerJob(null),
  });

  const last = rounds.at(-1);
  return (
    <Card title="Обучить модель" size="small" style={{ marginBottom: 16 }}>
      <Typography.Paragraph type="secondary">
        История лавы: файл CSV со столбцами данных прогноза (русские заголовки, как в шаблоне), фактической концентрацией «y» и, если есть,
        «Время». Последние 20 % строк по времени проверяют модель; обучение останавливается, когда ошибка на них перестает снижаться.
      </Typography.Paragraph>
      <Form<FormValues>
        form={form}
        layout="inline"
        initialValues={{ n_estimators: 300, max_depth: 6, learning_rate: 0.1, air_monotone: false }}
        onFinish={(values) => void start(paramsOf(values))}
      >
        <Form.Item label="Файл истории" required validateStatus={problem && !file ? "error" : undefined}>
          <Upload
            accept=".csv,text/csv"
            maxCount={1}
            beforeUpload={(chosen) => {
              setFile(chosen);
              setProblem(undefined);
              setSummary(null);
              save.reset();
              return false;
            }}
            onRemove={() => setFile(null)}
            fileList={file ? [{ uid: "history", name: file.name, status: "done" }] : []}
          >
            <Button icon={<UploadOutlined />}>Выбрать файл</Button>
          </Upload>
        </Form.Item>
        <Form.Item label="Горизонт прогноза" htmlFor="train-horizon">
          <Select<number>
            id="train-horizon"
            style={{ width: 190 }}
            value={horizon}
            options={HORIZONS.map((h) => ({ value: h, label: horizonLabel(h) }))}
            onChange={(value) => {
              setHorizon(value);
              setSummary(null);
              save.reset();
            }}
          />
        </Form.Item>
        <Form.Item label="Деревьев" name="n_estimators" rules={[limitRule("n_estimators")]}>
          <InputNumber {...limitBounds("n_estimators")} />
        </Form.Item>
        <Form.Item label="Глубина" name="max_depth" rules={[limitRule("max_depth")]}>
          <InputNumber {...limitBounds("max_depth")} />
        </Form.Item>
        <Form.Item label="Шаг обучения" name="learning_rate" rules={[limitRule("learning_rate")]}>
          <InputNumber {...limitBounds("learning_rate")} step={0.05} decimalSeparator="," />
        </Form.Item>
        {/* Within the card's width, its long label wrapping (a phone). */}
        <Form.Item name="air_monotone" valuePropName="checked" style={{ maxWidth: "100%" }}>
          <Checkbox data-testid="train-air-monotone">
            Больше воздуха — не больше метана: прогноз не растет с расходом воздуха в исходящей струе лавы (телеметрия)
          </Checkbox>
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<ExperimentOutlined />} disabled={running}>
            Обучить
          </Button>
          {running && (
            <Button icon={<StopOutlined />} onClick={stop}>
              Отменить
            </Button>
          )}
        </Space>
      </Form>
      {(running || last) && (
        <div style={{ marginTop: 16 }}>
          <Progress
            percent={last ? Math.round((last.round / last.rounds) * 100) : 0}
            status={running ? "active" : summary ? "success" : "normal"}
            aria-label="Ход обучения"
          />
          {last && (
            <Typography.Text>
              Раунд {last.round} из {last.rounds}: ошибка на обучающих строках {formatResult(last.train_rmse, 4)} %
              {last.valid_rmse !== null ? `, на проверочных ${formatResult(last.valid_rmse, 4)} %` : ""}
            </Typography.Text>
          )}
          <ErrorCurve rounds={rounds} />
        </div>
      )}
      {problem && <Alert type="error" showIcon role="alert" title={problem} style={{ marginTop: 16 }} />}
      {summary && (
        <div style={{ marginTop: 16 }}>
          <Alert
            type="success"
            showIcon
            title={`Модель обучена: ${summary.num_trees} деревьев, ${summary.train_rows} строк обучения и ${summary.valid_rows} проверки${
              summary.skipped > 0 ? `; пропущено строк без фактической концентрации: ${summary.skipped}` : ""
            }`}
            description={`Ошибка на проверочных строках ${formatResult(summary.valid_rmse ?? summary.train_rmse, 4)} % CH4`}
            style={{ marginBottom: 16 }}
          />
          <Importance summary={summary} />
          <Space style={{ marginTop: 16 }}>
            {trainedHorizon.current === 0 ? (
              <Checkbox checked={activate} onChange={(e) => setActivate(e.target.checked)}>
                прогнозы компании считаются по этой модели
              </Checkbox>
            ) : (
              <Typography.Text type="secondary">
                Модель на {horizonLabel(trainedHorizon.current)} вперед выбирается в форме прогноза с этим горизонтом
              </Typography.Text>
            )}
            <Input
              aria-label="Название модели"
              placeholder="Название модели, например «Лава 7»"
              maxLength={MODEL_DESCRIPTION_MAX}
              style={{ width: 280 }}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <Button type="primary" loading={save.isPending} onClick={() => save.mutate()}>
              Сохранить как модель компании
            </Button>
          </Space>
          {serverJob && (
            <div style={{ marginTop: 16 }}>
              <Typography.Text>
                {serverJob.state === "queued" ? "Обучение на сервере ожидает очереди" : "Модель обучается и сохраняется на сервере"}
              </Typography.Text>
              <Progress percent={serverJob.progress} status="active" aria-label="Ход обучения на сервере" />
            </div>
          )}
          {save.isError && <Alert type="error" showIcon role="alert" title={errorText(save.error)} style={{ marginTop: 16 }} />}
        </div>
      )}
    </Card>
  );
}
