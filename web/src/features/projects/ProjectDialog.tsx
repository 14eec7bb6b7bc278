// Add and edit share one dialog (docs/user-guide.md). Inline messages come from the shared schema; a server
// refusal is shown in the dialog too: under its field when the detail names one, else on top.
import { useState } from "react";
import { Alert, Button, DatePicker, Flex, Form, Input, Select, Table, Typography, type TableColumnsType } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { DATE_FIELD_FORMATS, DATE_FORMAT } from "../../shared/dates";
import { PROJECT_NAME_MAX } from "@server/contract";
import type { ApiError } from "../../api/client";
import { formatResult, formatStored } from "../../shared/decimals";
import { useInputDecimals } from "../../shared/useInputDecimals";
import { useDictionaries } from "../../api/calculations";
import {
  fetchGwpRecompute,
  useApplyGwpRecompute,
  useCreateProject,
  usePatchProject,
  type GwpRecompute,
  type Project,
  type ProjectFields,
} from "../../api/projects";
import { projectDialogAtom } from "./atoms";
import { EditDialog } from "../../shared/EditDialog";
import { useFacilities } from "../../api/inventory";
import { draftReportingYear, projectFieldErrors, splitFieldDetail, type ProjectField } from "./projectForm";
import { useFeedback } from "../../shared/feedback";

interface FormValues {
  name?: string;
  start_date?: Dayjs | null;
  end_date?: Dayjs | null;
  /** D12: typed; follows the end date's year until the user types one. */
  reporting_year?: string;
  /** "" for none. */
  facility?: string;
}

function toDraft(values: FormValues) {
  return {
    name: (values.name ?? "").trim(),
    start_date: values.start_date ? values.start_date.format(DATE_FORMAT) : "",
    end_date: values.end_date ? values.end_date.format(DATE_FORMAT) : "",
    reporting_year: values.reporting_year ?? "",
  };
}

function toFields(values: FormValues): ProjectFields {
  const { reporting_year: _typed, ...draft } = toDraft(values);
  const year = draftReportingYear(toDraft(values));
  return {
    ...draft,
    ...(year !== undefined && !Number.isNaN(year) ? { reporting_year: year } : {}),
    facility: values.facility || null,
  };
}

function initialValues(project: Project | undefined): FormValues {
  if (!project) return { facility: "" };
  return {
    name: project.name,
    start_date: dayjs(project.start_date),
    end_date: dayjs(project.end_date),
    reporting_year: String(project.reporting_year),
    facility: project.facility ?? "",
  };
}

export function ProjectDialog({ owner }: { owner: { company: string; user: string } }) {
  return (
    <EditDialog state={projectDialogAtom} record="project" titles={{ create: "Новый проект", edit: "Редактирование проекта" }}>
      {(editing, close) => <ProjectBody key={editing?.id ?? "new"} project={editing} owner={owner} onDone={close} />}
    </EditDialog>
  );
}

/** The form, then (D12: the reporting year of a saved project changed) the offer to recompute. */
function ProjectBody(props: { project: Project | undefined; owner: { company: string; user: string }; onDone: () => void }) {
  const [recompute, setRecompute] = useState<{ projectId: string; preview: GwpRecompute } | null>(null);
  if (recompute) return <RecomputeStep {...recompute} onDone={props.onDone} />;
  return <ProjectForm {...props} onRecompute={(projectId, preview) => setRecompute({ projectId, preview })} />;
}

function ProjectForm({
  project,
  owner,
  onDone,
  onRecompute,
}: {
  project: Project | undefined;
  owner: { company: string; user: string };
  onDone: () => void;
  onRecompute: (projectId: string, preview: GwpRecompute) => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const startDate = Form.useWatch("start_date", form) ?? undefined;
  const facilities = useFacilities();
  const create = useCreateProject(owner);
  const patch = usePatchProject();
  const { message } = useFeedback();
  const [serverError, setServerError] = useState<string | null>(null);

  // Every field validates against the whole draft, because end ≥ start needs both dates.
  const rule = (field: ProjectField) => ({
    validator: () => {
      const error = projectFieldErrors(toDraft(form.getFieldsValue(true)))[field];
      return error ? Promise.reject(new Error(error)) : Promise.resolve();
    },
  });

  // A 409 (someone saved first) has no field: it shows on top, and the list behind is reloaded.
  const showServerError = (error: ApiError) => {
    const { field, message: text } = splitFieldDetail(error);
    if (field) form.setFields([{ name: field, errors: [text] }]);
    else setServerError(error.detail);
  };

  const onFinish = (values: FormValues) => {
    setServerError(null);
    const fields = toFields(values);
    const handlers = {
      onSuccess: (saved: Project) => {
        message.success(project ? "Проект сохранен" : "Проект создан");
        if (!project || saved.reporting_year === project.reporting_year) return onDone();
        // D12: the year changed: show what the set in force would change, if anything.
        fetchGwpRecompute(saved.id).then(
          (preview) => (preview.count > 0 ? onRecompute(saved.id, preview) : onDone()),
          () => onDone(),
        );
      },
      onError: showServerError,
    };
    if (project) patch.mutate({ project, changes: fields }, handlers);
    else create.mutate(fields, handlers);
  };

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues(project)}
      onFinish={onFinish}
      name="project"
      // A new project's reporting year follows the end date until the user types one.
      onValuesChange={(changed: FormValues) => {
        if ("end_date" in changed && !project && !form.isFieldTouched("reporting_year")) {
          form.setFieldValue("reporting_year", changed.end_date ? String(changed.end_date.year()) : "");
        }
      }}
    >
      <Form.Item label="Название" name="name" rules={[rule("name")]}>
        <Input maxLength={PROJECT_NAME_MAX} showCount autoFocus />
      </Form.Item>
      <Flex gap={16}>
        <Form.Item label="Дата начала" name="start_date" rules={[rule("start_date")]} style={{ flex: 1 }}>
          <DatePicker format={DATE_FIELD_FORMATS} placeholder="ДД.ММ.ГГГГ" style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item label="Дата окончания" name="end_date" dependencies={["start_date"]} rules={[rule("end_date")]} style={{ flex: 1 }}>
          {/* The calendar opens at the project's start, not at today's month. */}
          <DatePicker format={DATE_FIELD_FORMATS} placeholder="ДД.ММ.ГГГГ" defaultPickerValue={startDate} style={{ width: "100%" }} />
        </Form.Item>
      </Flex>
      <Form.Item
        label="Отчетный год"
        name="reporting_year"
        dependencies={["end_date"]}
        rules={[rule("reporting_year")]}
        extra="По нему выбирается действующий набор ПГП; по умолчанию — год даты окончания"
      >
        <Input inputMode="numeric" maxLength={"ГГГГ".length} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item
        label="Площадка"
        name="facility"
        rules={[rule("facility")]}
        extra="Шахта, разрез или фабрика: по ним ведется инвентаризация"
      >
        <Select
          aria-label="Площадка"
          options={[{ value: "", label: "Без площадки" }, ...(facilities.data ?? []).map((f) => ({ value: f.id, label: f.name }))]}
        />
      </Form.Item>
      {serverError && <Alert type="error" showIcon title={serverError} style={{ marginBottom: 16 }} role="alert" />}
      <Flex justify="end" gap={8}>
        <Button onClick={onDone}>Отмена</Button>
        <Button type="primary" htmlType="submit" loading={create.isPending || patch.isPending}>
          {project ? "Сохранить" : "Создать"}
        </Button>
      </Flex>
    </Form>
  );
}

const GWP_SETS = ["get_gwp"];

interface RecomputeRow {
  key: string;
  name: string;
  set: string;
  co2: string;
}

/** D12: before → after for every calculation whose GWP set differs from the one now in force. */
function RecomputeStep({ projectId, preview, onDone }: { projectId: string; preview: GwpRecompute; onDone: () => void }) {
  const apply = useApplyGwpRecompute();
  const decimals = useInputDecimals("edit");
  const { message } = useFeedback();
  const [error, setError] = useState<string | null>(null);
  const co2 = (side: GwpRecompute["results"][number]["before"]) =>
    formatResult(side.results.sum_co2 ?? side.results.res_ch4_to_co2, decimals);
  const sets = useDictionaries(GWP_SETS).data?.get_gwp?.results ?? [];
  const setName = (id: number | undefined) =>
    id === preview.gwp_set.id ? preview.gwp_set.name : (sets.find((e) => e.id === id)?.name ?? (id === undefined ? "—" : `набор ${id}`));
  const rows: RecomputeRow[] = preview.results.map((r) => ({
    key: r.id,
    name: r.name,
    set: `${setName(r.before.gwp_set)}: ${formatStored(r.before.gwp_ch4)} → ${setName(r.after.gwp_set)}: ${formatStored(r.after.gwp_ch4)}`,
    co2: `${co2(r.before)} → ${co2(r.after)}`,
  }));
  const columns: TableColumnsType<RecomputeRow> = [
    { title: "Расчет", dataIndex: "name" },
    { title: "Набор ПГП, CH4", dataIndex: "set" },
    { title: "CO2-экв., т", dataIndex: "co2", align: "right", width: 150 },
  ];
  const recompute = () => {
    setError(null);
    apply.mutate(
      { projectId, calculations: preview.results.map((r) => r.id) },
      {
        onSuccess: ({ count }) => {
          message.success(`Пересчитано расчетов: ${count}`);
          onDone();
        },
        onError: ({ detail }) => setError(detail),
      },
    );
  };
  return (
    <Flex vertical gap={12} data-testid="gwp-recompute">
      <Typography.Paragraph style={{ marginBottom: 0 }}>
        Для отчетного года {preview.reporting_year} действует набор ПГП «{preview.gwp_set.name}» (CH4 ={" "}
        {formatStored(preview.gwp_set.gwp_ch4)}). Пересчитать расчеты проекта с этим набором? Расчетов с другим набором: {preview.count}.
      </Typography.Paragraph>
      <Table<RecomputeRow> size="small" rowKey="key" columns={columns} dataSource={rows} pagination={false} />
      {error && <Alert type="error" showIcon title={error} role="alert" />}
      <Flex justify="end" gap={8}>
        <Button onClick={onDone} disabled={apply.isPending}>
          Не пересчитывать
        </Button>
        <Button type="primary" onClick={recompute} loading={apply.isPending}>
          Пересчитать
        </Button>
      </Flex>
    </Flex>
  );
}
