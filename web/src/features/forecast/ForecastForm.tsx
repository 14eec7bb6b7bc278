// The regres_methane create/edit form (docs/user-guide.md, docs/api.md): the method with its active model, then
// either a file or the manual rows x1 … x15 (registry labels and units, up to 4 decimals, empty =
// missing, 3 rows a page) with the live preview: the active model of the method runs in the
// browser's gbdt.wasm, the same bytes and the same model file the server predicts with, so the
// «Прогноз, %» beside each row is what will be stored.
import { memo, useCallback, useMemo, useRef, useState, type ReactNode } from "react";
import { Alert, Button, Flex, Form, Input, Segmented, Select, Space, Tag, Tooltip, Typography, type TableColumnsType } from "antd";
import { Table } from "../../shared/LazyTable";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { FORECAST_METHODS, METHANE_LIMIT_PERCENT, REGISTRY, type ForecastMethod } from "@core/registry";
import { HORIZONS, horizonLabel } from "@core/gbdt/horizon";
import type { ApiError } from "../../api/client";
import {
  activeModel,
  horizonModels,
  sendBody,
  sendDataUpdate,
  useForecastModels,
  usePreviewModel,
  useSaveCalculation,
  type Calculation,
  type PreviewModel,
} from "../../api/calculations";
import { routeDetail } from "../../shared/detail";
import { FileField } from "../../shared/FileField";
import { FormFooter, FormOutsideFields, NameField, useSaveErrors, type SubmitRef } from "../../shared/FormParts";
import {
  ENTRY_PAGE_SIZE,
  FORECAST_COLUMNS,
  METHOD_TITLES,
  libraryTitle,
  libraryVersion,
  addRow,
  cellError,
  createRequest,
  editRequests,
  forecastErrors,
  forecastUploadHint,
  initialForecastState,
  isAboveLimit,
  limitText,
  isBlankRow,
  previewByKey,
  previewInputs,
  removeRow,
  sentRowNumbers,
  setCell,
  type EntryRow,
  type ForecastState,
} from "./forecast";
import { formatAmount } from "../../shared/format";
import { useFeedback } from "../../shared/feedback";

const TYPE = "regres_methane";
const RESULT_DECIMALS = 4;
const MAX_CELL_PROBLEMS = 5;

interface Props {
  mode: "create" | "edit";
  projectId: string;
  stored?: Calculation;
  onDone(): void;
  onReload(): void;
}

export const cellLabel = (feature: string, rowNumber: number) => `${feature}, строка ${rowNumber}`;

export function ForecastForm(props: Props) {
  return (
    <FormOutsideFields
      name="forecast"
      title={REGISTRY[TYPE].title}
      fields={(submitRef) => <ForecastFields {...props} submitRef={submitRef} />}
    />
  );
}

function ForecastFields({ mode, projectId, stored, onDone, onReload, submitRef }: Props & { submitRef: SubmitRef }) {
  const [state, setState] = useState<ForecastState>(() => initialForecastState(stored));
  const [page, setPage] = useState(1);
  const errors = useSaveErrors();
  const { submitted, serverErrors, topError } = errors;
  // The version the next PATCH carries: after the main PATCH succeeded and data_update failed, a retry starts from the new one.
  const [version, setVersion] = useState(stored?.version ?? 0);
  const models = useForecastModels();
  const active = activeModel(models.data, state.method);
  const preview = usePreviewModel(state.method, active?.id);
  const save = useSaveCalculation();
  const { message } = useFeedback();

  const predictions = useMemo(() => {
    if (!preview.data || state.source !== "manual") return undefined;
    const inputs = previewInputs(state.rows);
    try {
      return { values: previewByKey(inputs, preview.data.predict(inputs.matrix, FORECAST_FEATURE_ORDER)) };
    } catch (error) {
      return { failed: error instanceof Error ? error.message : String(error) };
    }
  }, [preview.data, state.rows, state.source]);

  const localErrors = submitted ? forecastErrors(state, mode, stored) : {};
  const errorOf = (target: string) => serverErrors[target] ?? localErrors[target];

  // Stable callbacks for the memoized fields: the state is updated from its latest value, and the
  // server's message under the field goes as the latest errors say.
  const clearError = useRef(errors.clear);
  clearError.current = errors.clear;
  const update = useCallback((target: string | undefined, next: (before: ForecastState) => ForecastState) => {
    setState(next);
    if (target) clearError.current(target);
  }, []);
  const onName = useCallback((name: string) => update("name", (s) => ({ ...s, name })), [update]);
  const onMethod = useCallback((method: ForecastMethod) => update("method", (s) => ({ ...s, method, model: undefined })), [update]);
  const onHorizon = useCallback((horizon: number) => update("horizon", (s) => ({ ...s, horizon, model: undefined })), [update]);
  const onModel = useCallback((model: string) => update("model_id", (s) => ({ ...s, model: model || undefined })), [update]);
  const onSource = useCallback((source: ForecastState["source"]) => update(undefined, (s) => ({ ...s, source })), [update]);
  const onFile = useCallback((file: ForecastState["file"]) => update("file_data", (s) => ({ ...s, file })), [update]);
  const onCell = useCallback(
    (key: string, feature: string, text: string) => update("data", (s) => setCell(s, key, feature, text)),
    [update],
  );
  const onRemoveRow = useCallback((key: string) => update("data", (s) => removeRow(s, key)), [update]);
  const drawn = useRef(state);
  drawn.current = state;
  const onAddRow = useCallback(() => {
    update("data", addRow);
    // The table pages on to the new row.
    setPage(Math.ceil((drawn.current.rows.length + 1) / ENTRY_PAGE_SIZE));
  }, [update]);

  const showServerError = (error: ApiError, sentFile: boolean, sent: ForecastState) => {
    const numbers = sentRowNumbers(sent);
    const routed = routeDetail(error.status, error, ["method", "horizon", "model_id"], sentFile, (index) => numbers[index] ?? index + 1);
    errors.refused(routed.target, routed.message, error.status);
  };

  const submit = () => {
    errors.start();
    const problems = forecastErrors(state, mode, stored);
    if (problems.name) console.warn("please enter calculation name");
    if (Object.keys(problems).length > 0) return;
    const usedPreview = state.source === "manual" ? preview.data : undefined;
    const onSuccess = (saved: Calculation) => {
      const model = saved.model as { id?: string; version?: number } | undefined;
      if (usedPreview && model?.id && model.id !== usedPreview.id) {
        message.warning(`Прогноз сохранен по модели версии ${model.version}: она стала активной после открытия формы`);
      } else {
        message.success(mode === "edit" ? "Расчет сохранен" : "Расчет создан");
      }
      onDone();
    };
    if (mode === "create") {
      const body = createRequest(state, projectId);
      save.mutate(() => sendBody(TYPE, body), { onSuccess, onError: (error) => showServerError(error, body.kind === "form", state) });
      return;
    }
    if (!stored) return;
    const requests = editRequests(state, version);
    save.mutate(
      async () => {
        const patched = await sendBody(TYPE, requests.patch, stored.id);
        setVersion(patched.version);
        // docs/user-guide.md: the rows, with their ids, go in a second call.
        return requests.data ? sendDataUpdate(stored.id, requests.data, patched.version) : patched;
      },
      { onSuccess, onError: (error) => showServerError(error, requests.patch.kind === "form", state) },
    );
  };

  submitRef.current = submit;

  const methodOptions = useMemo(
    () =>
      FORECAST_METHODS.map((method) => {
        const model = activeModel(models.data, method);
        return {
          value: method,
          label: model
            ? `${METHOD_TITLES[method]} — модель версии ${model.version} (${libraryTitle(model.library)} ${libraryVersion(model.library_version)})`
            : METHOD_TITLES[method],
        };
      }),
    [models.data],
  );
  const modelOptions = useMemo(
    () => [
      { value: "", label: "Самая новая модель компании на этот горизонт, иначе модель платформы" },
      ...horizonModels(models.data, state.method, state.horizon).map((v) => ({
        value: v.id,
        label: v.company ? `Модель компании, версия ${v.version}: ${v.description}` : `Модель платформы: ${v.description}`,
      })),
    ],
    [models.data, state.method, state.horizon],
  );

  const previewLoading = models.isLoading || preview.isLoading;
  const previewStatus = useMemo(
    () => <PreviewStatus model={preview.data} loading={previewLoading} error={preview.error ?? undefined} failed={predictions?.failed} />,
    [preview.data, previewLoading, preview.error, predictions?.failed],
  );

  const status = (target: string) => {
    const error = errorOf(target);
    return error ? { validateStatus: "error" as const, help: error } : {};
  };

  return (
    <>
      <Flex gap={16} wrap>
        <NameField value={state.name} onChange={onName} style={WIDE} {...status("name")} />
        <SelectField
          label="Метод"
          id="forecast-method"
          value={state.method}
          options={methodOptions}
          onChange={onMethod}
          {...status("method")}
        />
        <HorizonField value={state.horizon} onChange={onHorizon} {...status("horizon")} />
        {state.horizon > 0 ? (
          <SelectField
            label="Модель"
            id="forecast-model"
            value={state.model ?? ""}
            options={modelOptions}
            onChange={onModel}
            {...status("model_id")}
          />
        ) : null}
      </Flex>
      {models.error && <Alert type="error" showIcon title={`Не удалось загрузить модели прогноза: ${models.error.message}`} />}
      <SourceField value={state.source} onChange={onSource} />
      {state.source === "file" ? (
        <ForecastFileField
          file={state.file}
          stored={stored}
          projectId={projectId}
          method={state.method}
          horizon={state.horizon}
          model={state.model}
          onChange={onFile}
          {...status("file_data")}
        />
      ) : (
        <ManualRows
          rows={state.rows}
          page={page}
          onPage={setPage}
          onCell={onCell}
          onRemoveRow={onRemoveRow}
          onAddRow={onAddRow}
          predictions={predictions?.values}
          error={errorOf("data")}
          previewStatus={previewStatus}
        />
      )}
      <FormFooter mode={mode} error={topError} saving={save.isPending} onCancel={onDone} onReload={onReload} />
    </>
  );
}

const WIDE = { flex: "1 1 360px" };
const HORIZON_OPTIONS = HORIZONS.map((h) => ({ value: h, label: horizonLabel(h) }));
const SOURCE_OPTIONS = [
  { label: "Ввести вручную", value: "manual" as const },
  { label: "Загрузить файл", value: "file" as const },
];

interface FieldStatus {
  validateStatus?: "error";
  help?: string;
}

interface SelectFieldProps extends FieldStatus {
  label: string;
  id: string;
  value: string;
  options: { value: string; label: string }[];
  onChange(value: string): void;
}

// The fields below are memoized with plain props: a cell typed redraws the rows, not them.
// The method's and the model's selectors.
const SelectField = memo(function SelectField({ label, id, value, options, onChange, validateStatus, help }: SelectFieldProps) {
  return (
    <Form.Item label={label} htmlFor={id} style={WIDE} validateStatus={validateStatus} help={help}>
      <Select<string> id={id} value={value} options={options} onChange={onChange} />
    </Form.Item>
  );
});

const HorizonField = memo(function HorizonField({
  value,
  onChange,
  validateStatus,
  help,
}: FieldStatus & { value: number; onChange(horizon: number): void }) {
  return (
    <Form.Item
      label="Горизонт прогноза"
      htmlFor="forecast-horizon"
      style={{ flex: "0 1 220px" }}
      tooltip="На сколько вперед: 0 — по показаниям того же момента; 10 мин … 6 ч — по показаниям и измеренной концентрации за последний час"
      validateStatus={validateStatus}
      help={help}
    >
      <Select<number> id="forecast-horizon" value={value} options={HORIZON_OPTIONS} onChange={onChange} />
    </Form.Item>
  );
});

const SourceField = memo(function SourceField({
  value,
  onChange,
}: {
  value: ForecastState["source"];
  onChange(source: ForecastState["source"]): void;
}) {
  return (
    <Form.Item label="Данные">
      <Segmented<ForecastState["source"]> value={value} onChange={onChange} options={SOURCE_OPTIONS} />
    </Form.Item>
  );
});

const ForecastFileField = memo(function ForecastFileField({
  file,
  stored,
  projectId,
  method,
  horizon,
  model,
  onChange,
  validateStatus,
  help,
}: FieldStatus & {
  file: ForecastState["file"];
  stored: Calculation | undefined;
  projectId: string;
  method: ForecastMethod;
  horizon: number;
  model: string | undefined;
  onChange(file: ForecastState["file"]): void;
}) {
  // with a model chosen, the preview demands the columns that model reads, as the save does.
  const preview = useMemo(
    () => ({ projectId, fields: model ? { method, horizon: String(horizon), model_id: model } : undefined }),
    [projectId, method, horizon, model],
  );
  return (
    <Form.Item label="Файл с данными" htmlFor="forecast-file" extra={forecastUploadHint()} validateStatus={validateStatus} help={help}>
      <FileField
        id="forecast-file"
        type={TYPE}
        file={file}
        stored={stored}
        preview={preview}
        keepHint="Без нового файла прогноз пересчитывается по сохраненным строкам."
        onChange={onChange}
      />
    </Form.Item>
  );
});

/** The model columns in the order the preview matrix is built (forecast.ts). */
const FORECAST_FEATURE_ORDER = FORECAST_COLUMNS.map((c) => c.name);

function PreviewStatus({ model, loading, error, failed }: { model?: PreviewModel; loading: boolean; error?: Error; failed?: string }) {
  if (error)
    return <Typography.Text type="danger">Не удалось загрузить модель для предварительного прогноза: {error.message}</Typography.Text>;
  if (failed) return <Typography.Text type="danger">{failed}</Typography.Text>;
  if (loading || !model) return <Typography.Text type="secondary">Загрузка модели прогноза…</Typography.Text>;
  return (
    <Typography.Text type="secondary" data-testid="forecast-preview-model">
      Прогноз рассчитывается в браузере моделью {libraryTitle(model.library)} {libraryVersion(model.libraryVersion)}, версия {model.version}
    </Typography.Text>
  );
}

/** What red and bold means, at the limit the values are compared with (a new forecast's: 1 %). */
export function LimitLegend({ limit = METHANE_LIMIT_PERCENT }: { limit?: number }) {
  return (
    <Space size={6}>
      <Tag color="red" style={{ fontWeight: 600, marginInlineEnd: 0 }}>
        &gt; {limitText(limit)} %
      </Tag>
      <Typography.Text type="secondary">выше {limitText(limit)} % (допустимая концентрация метана)</Typography.Text>
    </Space>
  );
}

/**
 * A predicted concentration: 4 decimals, red and bold above the limit (a stored forecast's own, a
 * new one's 1 %); the exact value in data-value. `unit` where no column header gives it (the summary's maximum).
 */
export function PredictionText({
  value,
  testId,
  unit,
  limit,
}: {
  value: number | undefined;
  testId: string;
  unit?: string;
  limit?: number;
}) {
  if (value === undefined || !Number.isFinite(value)) {
    return (
      <Typography.Text type="secondary" data-testid={testId}>
        —
      </Typography.Text>
    );
  }
  const above = isAboveLimit(value, limit);
  return (
    <Typography.Text
      data-testid={testId}
      data-value={String(value)}
      data-above={above ? "true" : undefined}
      strong={above}
      style={above ? { color: "#cf1322" } : undefined}
    >
      {formatAmount(value, RESULT_DECIMALS)}
      {unit ? ` ${unit}` : ""}
    </Typography.Text>
  );
}

function ColumnTitle({ name, label, unit }: { name: string; label: string; unit: string }) {
  return (
    <Tooltip title={`${label}, ${unit}`}>
      <div style={{ lineHeight: 1.2 }}>
        <div>{name}</div>
        <Typography.Text type="secondary" style={{ fontSize: 11, fontWeight: 400 }}>
          {label}, {unit}
        </Typography.Text>
      </div>
    </Tooltip>
  );
}

interface RowsProps {
  rows: readonly EntryRow[];
  page: number;
  onPage(page: number): void;
  onCell(key: string, feature: string, text: string): void;
  onRemoveRow(key: string): void;
  onAddRow(): void;
  predictions: Map<string, number> | undefined;
  error: string | undefined;
  previewStatus: ReactNode;
}

/** One typed cell of the manual rows, memoized: a cell typed redraws itself, not the others. */
const EntryCell = memo(function EntryCell({
  rowKey,
  feature,
  number,
  text,
  onCell,
}: {
  rowKey: string;
  feature: string;
  number: number;
  text: string;
  onCell(key: string, feature: string, text: string): void;
}) {
  const problem = cellError(feature, text);
  return (
    <Tooltip title={problem} open={problem ? undefined : false}>
      <Input
        size="small"
        aria-label={cellLabel(feature, number)}
        value={text}
        status={problem ? "error" : undefined}
        placeholder="пропуск"
        inputMode="decimal"
        autoComplete="off"
        onChange={(event) => onCell(rowKey, feature, event.target.value)}
      />
    </Tooltip>
  );
});

const RemoveRowButton = memo(function RemoveRowButton({
  rowKey,
  number,
  onRemoveRow,
}: {
  rowKey: string;
  number: number;
  onRemoveRow(key: string): void;
}) {
  return (
    <Tooltip title="Удалить строку">
      <Button size="small" aria-label={`Удалить строку ${number}`} icon={<DeleteOutlined />} onClick={() => onRemoveRow(rowKey)} />
    </Tooltip>
  );
});

const MemoPredictionText = memo(PredictionText);
/** The column titles, drawn once: the table's header redraws with each cell typed. */
const COLUMN_TITLES = FORECAST_COLUMNS.map((column) => (
  <ColumnTitle key={column.name} name={column.name} label={column.label} unit={column.unit} />
));
const LIMIT_LEGEND = <LimitLegend />;

const ManualRows = memo(function ManualRows({
  rows,
  page,
  onPage,
  onCell,
  onRemoveRow,
  onAddRow,
  predictions,
  error,
  previewStatus,
}: RowsProps) {
  const cellProblems = rows.flatMap((row, i) =>
    FORECAST_COLUMNS.flatMap((column) => {
      const problem = cellError(column.name, row.texts[column.name] ?? "");
      return problem ? [`Строка ${i + 1}, ${column.name}: ${problem}`] : [];
    }),
  );
  const lastPage = Math.max(1, Math.ceil(rows.length / ENTRY_PAGE_SIZE));
  const current = Math.min(page, lastPage);

  const columns = useMemo((): TableColumnsType<EntryRow> => {
    const numberOf = new Map(rows.map((r, i) => [r.key, i + 1]));
    return [
      { title: "№", key: "number", width: 48, render: (_, row) => numberOf.get(row.key) },
      ...FORECAST_COLUMNS.map((column, i) => ({
        title: COLUMN_TITLES[i],
        key: column.name,
        width: 124,
        render: (_: unknown, row: EntryRow) => (
          <EntryCell
            rowKey={row.key}
            feature={column.name}
            number={numberOf.get(row.key) ?? 0}
            text={row.texts[column.name] ?? ""}
            onCell={onCell}
          />
        ),
      })),
      {
        title: "Прогноз, %",
        key: "result",
        width: 96,
        align: "right",
        render: (_, row) => (
          <MemoPredictionText
            value={isBlankRow(row) ? undefined : predictions?.get(row.key)}
            testId={`preview-result-${numberOf.get(row.key)}`}
          />
        ),
      },
      {
        title: "",
        key: "remove",
        width: 44,
        render: (_, row) => <RemoveRowButton rowKey={row.key} number={numberOf.get(row.key) ?? 0} onRemoveRow={onRemoveRow} />,
      },
    ];
  }, [rows, predictions, onCell, onRemoveRow]);

  return (
    <Flex vertical gap={8}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        {previewStatus}
        {LIMIT_LEGEND}
      </Flex>
      {error && <Alert type="error" showIcon role="alert" title={error} />}
      <Table<EntryRow>
        size="small"
        rowKey="key"
        columns={columns}
        dataSource={rows as EntryRow[]}
        scroll={{ x: "max-content" }}
        pagination={{
          current,
          pageSize: ENTRY_PAGE_SIZE,
          total: rows.length,
          showSizeChanger: false,
          onChange: onPage,
          showTotal: (total) => `Строк: ${total}`,
        }}
        data-testid="forecast-rows"
      />
      {cellProblems.length > 0 && (
        // Inline and always visible: a cell's own tooltip shows only on hover, and the row may be on another page.
        <div role="alert" data-testid="forecast-cell-problems">
          {cellProblems.slice(0, MAX_CELL_PROBLEMS).map((text) => (
            <div key={text}>
              <Typography.Text type="danger">{text}</Typography.Text>
            </div>
          ))}
          {cellProblems.length > MAX_CELL_PROBLEMS && (
            <Typography.Text type="danger">и еще {cellProblems.length - MAX_CELL_PROBLEMS}</Typography.Text>
          )}
        </div>
      )}
      <div>
        <Button icon={<PlusOutlined />} onClick={onAddRow}>
          Добавить строку
        </Button>
      </div>
    </Flex>
  );
});
