// The «Снижение выбросов» editor (AbatementPage.tsx loads it lazily): the streams and prices, the live
// preview computed by the core in the page (the same code the server stores with), each stream's
// options with their reductions and economics, the MACC, the tornado of NPV and LAC and what the plan
// closes of the company's targets.
import { useDeferredValue, useMemo, useState } from "react";
import { useNavigate } from "react-router-dom";
import { Alert, Button, Card, Flex, Input, Radio, Select, Space, Tag, Typography, type TableColumnsType } from "antd";
import { ListTable } from "../../shared/LazyTable";
import { TargetClosuresTable } from "../../shared/TargetClosuresTable";
import { DeleteOutlined, DownloadOutlined, PlusOutlined } from "@ant-design/icons";
import {
  ABATEMENT_DECIMALS,
  ESTIMATE_LABEL,
  ETA_LABEL,
  abatementKernels,
  evaluateAbatement,
  measuredMonthsText,
  missingInputLabel,
  ownValue,
  type AbatementOptionResult,
  type AbatementRequest,
  type AbatementResult,
} from "@core/abatement";
import { deviceOfOption } from "@core/climate-options";
import { FieldError } from "@core/emissions-core";
import { REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "@core/gwp-in-force";
import { api } from "../../api/client";
import { Chart } from "../../shared/charts/Chart";
import { formatResult, groupedNumberText } from "../../shared/decimals";
import { LoadError } from "../../shared/LoadError";
import { NumericInput } from "../../shared/NumericInput";
import { PageLoading } from "../../shared/PageLoading";
import { saveBlob } from "../../shared/saveBlob";
import { useEmissionsCore } from "../../shared/wasmCore";
import { useAssessment } from "../../api/abatement";
import {
  assessmentExportPath,
  useSaveAssessment,
  useTargets,
  useThresholds,
  useYearStreams,
  type Assessment,
  type AssessmentBody,
} from "./api";
import {
  EMPTY_PARAMS,
  OVERRIDE_FIELDS,
  overrideFieldsOf,
  overridesOf,
  type OverrideKey,
  type OverridesDraft,
  PARAM_FIELDS,
  maccFigure,
  planFigures,
  requestOf,
  sensitivityBars,
  targetClosures,
  tornadoOf,
  withValidChoices,
  type ParamsDraft,
  type StreamDraft,
} from "./abatement";

const KIND_OPTIONS = [
  { value: "drainage", label: "Дегазация" },
  { value: "ventilation", label: "Вентиляционная струя" },
];
const T_CO2E = "т CO2-экв.";

const fmt = (value: number | null | undefined, decimals: number) =>
  value === null || value === undefined ? "—" : formatResult(value, decimals);
/** A number as the editor reopens a stored value: the Russian way, grouped as people type it. */
const typed = (value: number | null | undefined) => groupedNumberText(value);

let streamCount = 0;
const newStream = (): StreamDraft => {
  streamCount += 1;
  return {
    code: `s${Date.now().toString(36)}${streamCount}`,
    name: "",
    kind: "drainage",
    flow: "",
    c: "",
    hours: "",
    point: null,
    chosen: null,
  };
};

/** The editor's form: an assessment's body (the contract's AssessmentBody) with its streams, parameters
 *  and overrides as typed, their numbers still text, and the year not yet chosen. */
export type Draft = Pick<AssessmentBody, "name"> & {
  year: NonNullable<AssessmentBody["year"]> | null;
  streams: StreamDraft[];
  params: ParamsDraft;
  overrides: OverridesDraft;
};

function draftOf(a: Assessment | undefined): Draft {
  if (!a) return { name: "", year: null, streams: [newStream()], params: { ...EMPTY_PARAMS }, overrides: {} };
  const params = a.input.params as Record<string, number | null | undefined>;
  return {
    name: a.name,
    year: a.year,
    streams: a.input.streams.map((s) => ({
      code: s.code,
      name: s.name ?? "",
      kind: s.kind,
      flow: typed(s.kind === "ventilation" ? s.q_air_m3_s : s.q_mix_m3_min),
      c: typed(s.c_ch4_pct),
      hours: typed(s.hours_per_year),
      point: s.point ?? null,
      chosen: ownValue(a.input.chosen, s.code) ?? null,
    })),
    params: Object.fromEntries(PARAM_FIELDS.map((f) => [f.key, typed(params[f.key])])) as ParamsDraft,
    overrides: Object.fromEntries(
      Object.entries(a.input.overrides ?? {}).map(([code, options]) => [
        code,
        Object.fromEntries(
          Object.entries(options).map(([option, values]) => [
            option,
            Object.fromEntries(OVERRIDE_FIELDS.map((f) => [f.key, typed((values as Record<string, number | null | undefined>)[f.key])])),
          ]),
        ),
      ]),
    ) as OverridesDraft,
  };
}

/** What was typed when a version was saved: the editor of that version shows it as typed («6 000»
 *  stays «6 000»), any other version reads its stored numbers. */
export interface TypedDraft {
  id: string;
  version: number;
  draft: Draft;
}

export function StoredEditor({ id, typed, onSaved }: { id: string; typed?: TypedDraft; onSaved?: (saved: TypedDraft) => void }) {
  const assessment = useAssessment(id);
  if (assessment.error) return <LoadError what="оценку" message={assessment.error.message} retry={() => void assessment.refetch()} />;
  if (!assessment.data) return <PageLoading />;
  const { version } = assessment.data;
  return (
    <Editor
      key={`${id}:${version}`}
      assessment={assessment.data}
      initial={typed?.id === id && typed.version === version ? typed.draft : undefined}
      onSaved={onSaved}
    />
  );
}

export default function Editor({
  assessment,
  initial,
  onSaved,
}: {
  assessment?: Assessment;
  initial?: Draft;
  onSaved?: (saved: TypedDraft) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => initial ?? draftOf(assessment));
  const core = useEmissionsCore();
  const thresholdsNow = useThresholds();
  const yearStreams = useYearStreams(draft.year);
  const targets = useTargets();
  const save = useSaveAssessment();
  const [saveError, setSaveError] = useState<string>();
  const [exportError, setExportError] = useState<string>();
  // A stored assessment keeps the thresholds it was made with (D47); a new one takes the dictionary's.
  const thresholds = assessment ? assessment.thresholds : thresholdsNow.data;
  const measured = yearStreams.data?.results ?? NO_MEASURED;

  // The preview follows the typing a render behind (React's deferred value), so a key typed never waits for the charts.
  const shown = useDeferredValue(draft);
  const request = useMemo(
    () => requestOf(shown.streams, shown.params, measured, overridesOf(shown.overrides)),
    [shown.streams, shown.params, measured, shown.overrides],
  );
  const evaluate = useMemo(() => {
    if (!core.data || !thresholds) return undefined;
    const kernels = abatementKernels(core.data, thresholds as Record<string, number>);
    return (r: AbatementRequest) => evaluateAbatement(r, kernels);
  }, [core.data, thresholds]);
  const preview = useMemo((): { result?: AbatementResult; problem?: string } => {
    if (!evaluate) return {};
    try {
      const all = evaluate({ ...request, chosen: {} });
      const allowed = (code: string) => all.streams.find((s) => s.code === code)?.options.map((o) => o.option_code);
      return { result: evaluate(withValidChoices(request, allowed)) };
    } catch (error) {
      if (error instanceof FieldError) return { problem: problemText(error, shown.streams) };
      throw error;
    }
  }, [evaluate, request, shown.streams]);
  const result = preview.result;
  const names = useMemo(() => Object.fromEntries(draft.streams.map((s, i) => [s.code, s.name || `Поток ${i + 1}`])), [draft.streams]);
  const shownNames = useMemo(() => Object.fromEntries(shown.streams.map((s, i) => [s.code, s.name || `Поток ${i + 1}`])), [shown.streams]);

  const setStream = (index: number, change: Partial<StreamDraft>) =>
    setDraft((d) => ({ ...d, streams: d.streams.map((s, i) => (i === index ? { ...s, ...change } : s)) }));

  async function store() {
    setSaveError(undefined);
    try {
      const body = { name: draft.name.trim(), year: draft.year, ...request } as unknown as AssessmentBody;
      const saved = await save.mutateAsync({ id: assessment?.id, body, version: assessment?.version });
      onSaved?.({ id: saved.id, version: saved.version, draft });
    } catch (error) {
      setSaveError(error instanceof Error ? error.message : String(error));
    }
  }

  async function download(format: "xlsx" | "pdf") {
    if (!assessment) return;
    setExportError(undefined);
    try {
      const file = await api.download(await assessmentExportPath(assessment.id, format));
      saveBlob(file.blob, file.fileName ?? `Снижение выбросов.${format}`);
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error));
    }
  }

  const thisYear = new Date().getFullYear();
  const years = Array.from({ length: 15 }, (_, i) => thisYear - i).filter((y) => y >= REPORTING_YEAR_MIN && y <= REPORTING_YEAR_MAX);

  return (
    <Flex vertical gap={16} data-testid="abatement-editor">
      <Card title={assessment ? `Оценка «${assessment.name}», версия ${assessment.version}` : "Новая оценка"} size="small">
        <Flex wrap gap={12}>
          <label htmlFor="abatement-name" style={{ flex: "1 1 260px" }}>
            Название
            <Input id="abatement-name" value={draft.name} onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))} />
          </label>
          <label htmlFor="abatement-year" style={{ flex: "0 1 200px" }}>
            Год данных инвентаризации
            <Select
              id="abatement-year"
              style={{ width: "100%" }}
              allowClear
              placeholder="без года"
              value={draft.year ?? undefined}
              options={years.map((y) => ({ value: y, label: String(y) }))}
              onChange={(year?: number) => setDraft((d) => ({ ...d, year: year ?? null }))}
            />
          </label>
        </Flex>
      </Card>

      <Card
        title="Цены и параметры"
        size="small"
        extra={<Typography.Text type="secondary">у цен нет значений по умолчанию</Typography.Text>}
      >
        <Flex wrap gap={12}>
          {PARAM_FIELDS.map((f) => (
            <label key={f.key} htmlFor={`param-${f.key}`} style={{ flex: "1 1 220px" }}>
              {f.label}
              {f.required ? " *" : ""}
              <NumericInput
                id={`param-${f.key}`}
                decimals={Math.max(f.decimals, 6)}
                unit={f.unit || undefined}
                value={draft.params[f.key]}
                onChange={(text) => setDraft((d) => ({ ...d, params: { ...d.params, [f.key]: text } }))}
              />
            </label>
          ))}
        </Flex>
      </Card>

      <Card
        title="Потоки"
        size="small"
        extra={
          <Button icon={<PlusOutlined />} onClick={() => setDraft((d) => ({ ...d, streams: [...d.streams, newStream()] }))}>
            Добавить поток
          </Button>
        }
      >
        <Flex vertical gap={12}>
          {draft.streams.map((s, i) => (
            <Card
              key={s.code}
              size="small"
              type="inner"
              title={names[s.code]}
              data-testid={`stream-${i}`}
              extra={
                draft.streams.length > 1 ? (
                  <Button
                    size="small"
                    aria-label="Удалить поток"
                    icon={<DeleteOutlined />}
                    onClick={() => setDraft((d) => ({ ...d, streams: d.streams.filter((_, j) => j !== i) }))}
                  />
                ) : null
              }
            >
              <Flex wrap gap={12}>
                <label htmlFor={`stream-${i}-name`} style={{ flex: "1 1 200px" }}>
                  Название потока
                  <Input id={`stream-${i}-name`} value={s.name} onChange={(e) => setStream(i, { name: e.target.value })} />
                </label>
                <label htmlFor={`stream-${i}-source`} style={{ flex: "1 1 200px" }}>
                  Источник данных
                  <Select
                    id={`stream-${i}-source`}
                    style={{ width: "100%" }}
                    value={s.point ?? "manual"}
                    options={[
                      { value: "manual", label: "Ввести вручную" },
                      ...measured.map((m) => ({
                        value: m.point,
                        label: `${m.name}: ${fmt(m.to_air_t, 2)} т CH4 за ${draft.year}${m.months.length < 12 ? ` (${m.months.length} из 12 мес.)` : ""}`,
                      })),
                    ]}
                    onChange={(v: string) => {
                      const m = measured.find((x) => x.point === v);
                      setStream(
                        i,
                        v === "manual" ? { point: null } : { point: v, kind: m?.kind ?? s.kind, name: s.name || (m?.name ?? "") },
                      );
                    }}
                  />
                </label>
                <label htmlFor={`stream-${i}-kind`} style={{ flex: "1 1 180px" }}>
                  Вид потока
                  <Select
                    id={`stream-${i}-kind`}
                    style={{ width: "100%" }}
                    value={s.kind}
                    disabled={s.point !== null}
                    options={KIND_OPTIONS}
                    onChange={(kind: StreamDraft["kind"]) => setStream(i, { kind, chosen: null })}
                  />
                </label>
                {s.point === null && (
                  <label htmlFor={`stream-${i}-flow`} style={{ flex: "1 1 180px" }}>
                    {s.kind === "ventilation" ? "Расход воздуха" : "Расход смеси"}
                    <NumericInput
                      id={`stream-${i}-flow`}
                      decimals={6}
                      unit={s.kind === "ventilation" ? "м³/с" : "м³/мин"}
                      value={s.flow}
                      onChange={(flow) => setStream(i, { flow })}
                    />
                  </label>
                )}
                <label htmlFor={`stream-${i}-c`} style={{ flex: "1 1 140px" }}>
                  Концентрация CH4
                  <NumericInput id={`stream-${i}-c`} decimals={6} unit="%" value={s.c} onChange={(c) => setStream(i, { c })} />
                </label>
                <label htmlFor={`stream-${i}-hours`} style={{ flex: "1 1 140px" }}>
                  Часы работы в год
                  <NumericInput
                    id={`stream-${i}-hours`}
                    decimals={0}
                    unit="ч"
                    placeholder="8 000"
                    value={s.hours}
                    onChange={(hours) => setStream(i, { hours })}
                  />
                </label>
              </Flex>
              {s.point !== null && <MeasuredMonths stream={measured.find((m) => m.point === s.point)} testId={`stream-${i}-months`} />}
            </Card>
          ))}
        </Flex>
      </Card>

      <Flex wrap gap={8} align="center">
        <Button type="primary" onClick={() => void store()} loading={save.isPending} disabled={!draft.name.trim() || !result}>
          Сохранить оценку
        </Button>
        {assessment && (
          <>
            <Button icon={<DownloadOutlined />} onClick={() => void download("xlsx")}>
              Таблица (xlsx)
            </Button>
            <Button icon={<DownloadOutlined />} onClick={() => void download("pdf")}>
              Отчет (PDF)
            </Button>
          </>
        )}
        {!draft.name.trim() && <Typography.Text type="secondary">Чтобы сохранить, дайте оценке название</Typography.Text>}
      </Flex>
      {saveError && <Alert type="error" showIcon title={saveError} />}
      {exportError && <Alert type="error" showIcon title={exportError} />}
      {core.error && <Alert type="error" showIcon title="Не удалось загрузить расчетное ядро" />}
      {preview.problem && <Alert type="warning" showIcon title={preview.problem} data-testid="abatement-problem" />}
      {result && (
        <Results
          result={result}
          names={shownNames}
          onChoose={(code, option) =>
            setDraft((d) => ({ ...d, streams: d.streams.map((s) => (s.code === code ? { ...s, chosen: option } : s)) }))
          }
          overrides={draft.overrides}
          onOverride={(code, option, key, text) =>
            setDraft((d) => ({
              ...d,
              overrides: {
                ...d.overrides,
                [code]: { ...ownValue(d.overrides, code), [option]: { ...ownValue(ownValue(d.overrides, code), option), [key]: text } },
              },
            }))
          }
          request={withValidChoices(request, (code) => result.streams.find((s) => s.code === code)?.options.map((o) => o.option_code))}
          evaluate={evaluate}
          targets={targets.data?.targets ?? []}
          projectLink={(code) => {
            // The stored assessment's choice, the one the project will keep (a draft's unsaved choice is not).
            const stored = assessment?.result.streams.find((s) => s.code === code);
            return assessment && deviceOfOption(stored?.chosen)
              ? `/climate-projects?new=1&assessment=${encodeURIComponent(assessment.id)}&stream=${encodeURIComponent(code)}`
              : undefined;
          }}
        />
      )}
    </Flex>
  );
}

/** the months a stream from the inventory was measured in, and whether all twelve are in. */
function MeasuredMonths({ stream, testId }: { stream?: { months: string[]; hours: number; year_hours: number }; testId: string }) {
  if (!stream) return null;
  const text = `Метан из инвентаризации: ${measuredMonthsText(stream.months, stream.hours, stream.year_hours)}.`;
  return stream.hours < stream.year_hours ? (
    <Alert type="warning" showIcon title={text} style={{ marginTop: 8 }} data-testid={testId} />
  ) : (
    <Typography.Text type="secondary" data-testid={testId} style={{ display: "block", marginTop: 8 }}>
      {text}
    </Typography.Text>
  );
}

/** The core's refusal as the editor says it: the field in words. */
/** The year's measured streams before they have come: one array, so the preview's request keeps its identity. */
const NO_MEASURED: never[] = [];

function problemText(error: FieldError, streams: Draft["streams"]): string {
  const stream = /^streams\[(\d+)\]\.(\w+)/.exec(error.field);
  if (stream) {
    const s = streams[Number(stream[1])];
    const what: Record<string, string> = {
      c_ch4_pct: "концентрация CH4",
      q_mix_m3_min: "расход смеси",
      q_air_m3_s: "расход воздуха",
      hours_per_year: "часы работы",
      m_ch4_t: "метан года",
    };
    return `${s?.name || `Поток ${Number(stream[1]) + 1}`}, ${what[stream[2]] ?? "поле"}: ${error.message}`;
  }
  if (error.field.startsWith("params.")) {
    const field = PARAM_FIELDS.find((f) => `params.${f.key}` === error.field);
    return error.message.startsWith("Не задано") ? error.message : `${field?.label ?? "Параметр"}: ${error.message}`;
  }
  return error.message;
}

function Results({
  result,
  names,
  onChoose,
  overrides,
  onOverride,
  request,
  evaluate,
  targets,
  projectLink,
}: {
  result: AbatementResult;
  names: Record<string, string>;
  onChoose: (code: string, option: string) => void;
  overrides: OverridesDraft;
  onOverride: (code: string, option: string, key: OverrideKey, text: string) => void;
  request: AbatementRequest;
  evaluate?: (r: AbatementRequest) => AbatementResult;
  targets: Parameters<typeof targetClosures>[0];
  /** where «Создать климатический проект» of a stream leads, if it offers one. */
  projectLink?: (code: string) => string | undefined;
}) {
  const plan = planFigures(result);
  const macc = useMemo(() => maccFigure(result, names), [result, names]);
  const tornado = useMemo(
    () => (evaluate && plan.er > 0 ? sensitivityBars(request, result, evaluate) : undefined),
    [evaluate, request, result, plan.er],
  );
  const closures = useMemo(() => targetClosures(targets, result), [targets, result]);

  return (
    <Flex vertical gap={16} data-testid="abatement-results">
      <Typography.Text type="secondary">
        {ETA_LABEL}. Расчет в браузере тем же ядром, что и на сервере; методика {result.version}.
      </Typography.Text>
      {result.streams.map((stream) => (
        <StreamOptions
          key={stream.code}
          stream={stream}
          name={names[stream.code]}
          onChoose={(option) => onChoose(stream.code, option)}
          overrides={ownValue(overrides, stream.code) ?? {}}
          onOverride={(option, key, text) => onOverride(stream.code, option, key, text)}
          projectLink={projectLink?.(stream.code)}
        />
      ))}
      <Card title="Итог плана" size="small">
        <Flex wrap gap={24}>
          <Typography.Text data-testid="plan-er">
            Сокращение: <b>{fmt(plan.er, ABATEMENT_DECIMALS.er_t_co2e)}</b> {T_CO2E}/год
          </Typography.Text>
          <Typography.Text data-testid="plan-units">
            Углеродные единицы: <b>{fmt(result.totals.carbon_units, 0)}</b> в год
          </Typography.Text>
          <Typography.Text data-testid="plan-npv">
            ЧДД: <b>{fmt(plan.npv, 0)}</b> ₽
          </Typography.Text>
          <Typography.Text>
            Средняя LAC: <b>{fmt(plan.lac, ABATEMENT_DECIMALS.lac_rub_per_t)}</b> ₽/{T_CO2E}
          </Typography.Text>
        </Flex>
      </Card>
      {result.macc.length > 0 && (
        <>
          <Chart figure={macc} height={380} testId="macc-chart" />
          <Card title="MACC: варианты по возрастанию удельной стоимости" size="small">
            <ListTable
              rowKey={(b) => `${b.stream}:${b.option_code}`}
              scroll={{ x: 560 }}
              dataSource={result.macc}
              data-testid="macc-table"
              columns={[
                { title: "Поток", dataIndex: "stream", render: (code: string) => names[code] ?? code },
                { title: "Вариант", dataIndex: "label" },
                {
                  title: `Начало, ${T_CO2E}/год`,
                  dataIndex: "x_start",
                  align: "right",
                  render: (v: number) => <span data-value={v}>{fmt(v, 1)}</span>,
                },
                {
                  title: `Ширина (ER), ${T_CO2E}/год`,
                  dataIndex: "width",
                  align: "right",
                  render: (v: number) => <span data-value={v}>{fmt(v, 1)}</span>,
                },
                {
                  title: `LAC, ₽/${T_CO2E}`,
                  dataIndex: "lac_rub_per_t",
                  align: "right",
                  render: (v: number) => <span data-value={v}>{fmt(v, 2)}</span>,
                },
              ]}
            />
          </Card>
        </>
      )}
      {tornado && (
        <Flex wrap gap={16}>
          <div style={{ flex: "1 1 420px", minWidth: 0 }}>
            <Chart
              figure={tornadoOf(tornado.npv, "Чувствительность ЧДД плана к входным данным (±20 %)", "₽", 0)}
              height={360}
              testId="tornado-npv"
            />
          </div>
          {tornado.lac.length > 0 && (
            <div style={{ flex: "1 1 420px", minWidth: 0 }}>
              <Chart
                figure={tornadoOf(tornado.lac, "Чувствительность средней LAC плана к входным данным (±20 %)", `₽/${T_CO2E}`, 2)}
                height={360}
                testId="tornado-lac"
              />
            </div>
          )}
        </Flex>
      )}
      <Card title="Что план закрывает в целях компании" size="small" data-testid="plan-targets">
        {closures.length === 0 ? (
          <Typography.Text type="secondary">У компании нет целей (задаются на экране «Динамика»).</Typography.Text>
        ) : (
          <TargetClosuresTable closures={closures} />
        )}
      </Card>
    </Flex>
  );
}

function StreamOptions({
  stream,
  name,
  onChoose,
  overrides,
  onOverride,
  projectLink,
}: {
  stream: AbatementResult["streams"][number];
  name: string;
  onChoose: (option: string) => void;
  overrides: OverridesDraft[string];
  onOverride: (option: string, key: OverrideKey, text: string) => void;
  projectLink?: string;
}) {
  const navigate = useNavigate();
  /** A figure as shown, its unrounded value beside it for the tests (data-value). */
  const figure = (key: string, o: AbatementOptionResult, value: number | null, decimals: number, scale = 1) => (
    <span data-testid={`${key}-${stream.code}-${o.option_code}`} data-value={value === null ? "" : String(value)}>
      {fmt(value === null ? null : value * scale, decimals)}
    </span>
  );
  /** A right-aligned column of one of an option's figures, `key` naming it for the tests. */
  const figureColumn = (
    title: string,
    dataIndex: keyof AbatementOptionResult,
    key: string,
    decimals: number,
    scale = 1,
  ): TableColumnsType<AbatementOptionResult>[number] => ({
    title,
    dataIndex,
    align: "right",
    render: (v: number | null, o: AbatementOptionResult) => figure(key, o, v, decimals, scale),
  });
  const columns: TableColumnsType<AbatementOptionResult> = [
    {
      title: "В MACC",
      key: "chosen",
      width: 80,
      render: (_, o) => (
        <Radio
          checked={stream.chosen === o.option_code}
          disabled={o.lac_rub_per_t === null}
          aria-label={`В MACC: ${o.label}`}
          onChange={() => onChoose(o.option_code)}
        />
      ),
    },
    {
      title: "Вариант",
      dataIndex: "label",
      render: (label: string, o) => (
        <Space direction="vertical" size={0}>
          {label}
          {o.costs_estimated && <Tag color="gold">{ESTIMATE_LABEL}</Tag>}
          {o.missing.length > 0 && (
            <Typography.Text type="warning" data-testid={`missing-${stream.code}-${o.option_code}`}>
              Экономика не рассчитана, укажите: {o.missing.map(missingInputLabel).join("; ")}
              {o.missing.some((m) => m.startsWith("overrides.")) ? " (раскройте строку)" : ""}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    figureColumn("η", "eta_destruction", "eta", 3),
    figureColumn(`Метан, т/год`, "m_ch4_t", "m", ABATEMENT_DECIMALS.m_ch4_t),
    figureColumn(`BE, ${T_CO2E}`, "be_t_co2e", "be", ABATEMENT_DECIMALS.be_t_co2e),
    figureColumn("PE_MD, т CO2", "pe_md_t_co2", "pe-md", ABATEMENT_DECIMALS.pe_md_t_co2),
    figureColumn(`PE_UM, ${T_CO2E}`, "pe_um_t_co2e", "pe-um", ABATEMENT_DECIMALS.pe_um_t_co2e),
    figureColumn("PE_ME, т CO2", "pe_me_t_co2", "pe-me", ABATEMENT_DECIMALS.pe_me_t_co2),
    figureColumn(`ER, ${T_CO2E}/год`, "er_t_co2e", "er", ABATEMENT_DECIMALS.er_t_co2e),
    figureColumn("Единицы в год", "carbon_units", "units", 0),
    figureColumn("Электроэнергия, МВт·ч/год", "e_el_net_mwh", "el", ABATEMENT_DECIMALS.e_el_net_mwh),
    figureColumn("Тепло, МВт·ч/год", "q_heat_sold_mwh", "heat", ABATEMENT_DECIMALS.q_heat_sold_mwh),
    figureColumn("Капзатраты, ₽", "capex_rub", "capex", 0),
    figureColumn("Затраты в год, ₽", "opex_rub", "opex", 0),
    figureColumn("Доход от энергии, ₽/год", "revenue_energy_rub", "revenue", 0),
    figureColumn("ЧДД, ₽", "npv_rub", "npv", 0),
    figureColumn("ВНД, %", "irr", "irr", ABATEMENT_DECIMALS.irr_pct, 100),
    {
      title: "Окупаемость, лет (простая / дисконт.)",
      dataIndex: "payback_simple_yr",
      align: "right",
      render: (v: number | null, o) => (
        <>
          {figure("payback", o, v, ABATEMENT_DECIMALS.payback_yr)} /{" "}
          {figure("payback-discounted", o, o.payback_discounted_yr, ABATEMENT_DECIMALS.payback_yr)}
        </>
      ),
    },
    figureColumn(`LAC, ₽/${T_CO2E}`, "lac_rub_per_t", "lac", ABATEMENT_DECIMALS.lac_rub_per_t),
  ];
  return (
    <Card
      size="small"
      title={`${name}: ${fmt(stream.c_ch4_pct, 2)} % CH4, ${fmt(stream.q_ch4_m3_min, 2)} м³/мин метана`}
      data-testid={`options-${stream.code}`}
      extra={
        projectLink && (
          <Button size="small" onClick={() => navigate(projectLink)} data-testid={`climate-project-${stream.code}`}>
            Создать климатический проект
          </Button>
        )
      }
    >
      {stream.notice && (
        <Alert type="warning" showIcon title={stream.notice} style={{ marginBottom: 8 }} data-testid={`notice-${stream.code}`} />
      )}
      {stream.options.length > 0 && (
        <ListTable
          rowKey="option_code"
          scroll={{ x: 1800 }}
          dataSource={stream.options}
          columns={columns}
          expandable={{
            expandRowByClick: false,
            // An option waiting for an input of its own (the heat the mine can use …) opens with its fields.
            defaultExpandedRowKeys: stream.options
              .filter((o) => o.missing.some((m) => m.startsWith("overrides.")))
              .map((o) => o.option_code),
            expandedRowRender: (o) => (
              <Flex wrap gap={12} data-testid={`own-values-${stream.code}-${o.option_code}`}>
                <Typography.Text type="secondary" style={{ flex: "1 1 100%" }}>
                  Свои значения вместо оценок методики (пусто — по умолчанию)
                </Typography.Text>
                {overrideFieldsOf(o.option_code).map((f) => {
                  const id = `own-${stream.code}-${o.option_code}-${f.key}`;
                  return (
                    <label key={f.key} htmlFor={id} style={{ flex: "1 1 220px" }}>
                      {f.label}
                      <NumericInput
                        id={id}
                        decimals={f.decimals}
                        unit={f.unit}
                        value={ownValue(ownValue(overrides, o.option_code), f.key) ?? ""}
                        onChange={(text) => onOverride(o.option_code, f.key, text)}
                      />
                    </label>
                  );
                })}
              </Flex>
            ),
          }}
        />
      )}
    </Card>
  );
}
