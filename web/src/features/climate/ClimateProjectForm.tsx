// A climate project's form (docs/user-guide.md «Климатические проекты»): its name, facility, dates and
// methodology, and each device with the meters of its monitoring plan chosen from the facility's sensor
// register — only the channels the device's kind uses, each offering the sensors of the kind it takes.
import { Alert, Button, Card, DatePicker, Flex, Form, Input, Select, Typography, type SelectProps } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import dayjs, { type Dayjs } from "dayjs";
import { useFacilities } from "../../api/facilities";
import { usePoints } from "../../api/inventory";
import { useSensors } from "../../api/monitoring";
import { DATE_FIELD_FORMATS, DATE_FORMAT, DATE_TYPED } from "../../shared/dates";
import { DEVICE_KINDS as DEVICE_KINDS_IN_ORDER, deviceKindOf } from "@core/climate-devices";
import { deviceOfOption } from "@core/climate-options";
import { LoadError } from "../../shared/LoadError";
import { PageLoading } from "../../shared/PageLoading";
import { formatResult, numberText, parseNumericInput } from "../../shared/decimals";
import { NumericInput } from "../../shared/NumericInput";
import { useAssessment } from "../../api/abatement";
import { type ClimateProject, type ClimateProjectBody, useSaveClimateProject } from "./api";
import { CHANNELS, DEVICE_KINDS, FLOW_BASES, channelsOf, type Channel, type DeviceKind } from "./texts";

interface DeviceValues {
  name?: string;
  point?: string;
  kind: DeviceKind;
  flow_basis: "standard_20C" | "normal_0C" | "actual";
  eta_option?: "default" | "measured";
  sensors: Partial<Record<Channel, string>>;
}

/** The project's EF_grid default as sent: none while no value is typed. */
function gridOf(values: Pick<Values, "ef_grid" | "ef_grid_source">): ClimateProjectBody["ef_grid"] {
  const value = parseNumericInput(values.ef_grid ?? "");
  return value === undefined ? null : { t_per_mwh: value, source: values.ef_grid_source?.trim() ?? "" };
}

interface Values {
  name: string;
  facility?: string;
  start?: Dayjs;
  end?: Dayjs | null;
  methodology: { code: string; name: string; version: string; source: string };
  devices: DeviceValues[];
  e_own_sensor?: string;
  /** the EF_grid the period form proposes, with its source. */
  ef_grid?: string;
  ef_grid_source?: string;
}

const FIRST_METHODOLOGY = {
  code: "CDM-ACM0008",
  name: "ACM0008: Abatement of methane from coal mines",
  version: "08.0",
  source: "UNFCCC CDM",
};
const FLARING_TOOL = { code: "TOOL06", name: "Project emissions from flaring", version: "04.0" };

function SensorSelect({
  facility,
  kinds,
  value,
  onChange,
  id,
}: {
  facility: string;
  kinds: readonly string[];
  value?: string;
  onChange?: (v: string) => void;
  id?: string;
}) {
  const sensors = useSensors(facility);
  const options = (sensors.data ?? []).filter((s) => kinds.includes(s.kind) && s.is_active).map((s) => ({ value: s.code, label: s.code }));
  return (
    <Select
      id={id}
      allowClear
      showSearch
      value={value}
      onChange={onChange}
      options={options}
      loading={sensors.isLoading}
      placeholder="код датчика"
    />
  );
}

/** Whether the kind's efficiency has a measured option (its module says: an enclosed flare's). */
const hasEtaOption = (kind: string | undefined) => deviceKindOf(kind ?? "")?.efficiency.measured === "option";

/** The efficiency options of a kind that has them, its default as its module gives it («по умолчанию (90 %)»). */
const etaOptions = (kind: string | undefined) => [
  { value: "default", label: `по умолчанию (${Math.round((deviceKindOf(kind ?? "")?.efficiency.parameter.value ?? 0) * 100)} %)` },
  { value: "measured", label: "измеренный анализатором" },
];

/** One of a device's choices: its label, its field under the device, what is said while none is
 *  chosen where one is required, its least width. */
function DeviceChoice({
  index,
  name,
  label,
  required,
  width = 220,
  ...select
}: {
  index: number;
  name: keyof DeviceValues;
  label: string;
  required?: string;
  width?: number;
} & Pick<SelectProps, "options" | "loading">) {
  return (
    <Form.Item
      label={label}
      name={[index, name]}
      rules={required ? [{ required: true, message: required }] : undefined}
      style={{ minWidth: width }}
    >
      <Select {...select} />
    </Form.Item>
  );
}

function DeviceCard({ facility, index, remove }: { facility: string; index: number; remove(): void }) {
  const points = usePoints(facility);
  const form = Form.useFormInstance<Values>();
  const kind = Form.useWatch(["devices", index, "kind"], form) as DeviceKind | undefined;
  const basis = Form.useWatch(["devices", index, "flow_basis"], form) as DeviceValues["flow_basis"] | undefined;
  const eta = Form.useWatch(["devices", index, "eta_option"], form) as DeviceValues["eta_option"];
  const channels = channelsOf(kind ?? DEVICE_KINDS_IN_ORDER[0], basis ?? "standard_20C", eta);
  return (
    <Card
      size="small"
      title={`Устройство ${index + 1}`}
      extra={<Button size="small" icon={<DeleteOutlined />} aria-label="Удалить устройство" onClick={remove} />}
    >
      <Flex wrap gap={12}>
        <Form.Item label="Название" name={[index, "name"]} style={{ minWidth: 160 }}>
          <Input placeholder="Ф-1" />
        </Form.Item>
        <DeviceChoice
          index={index}
          name="kind"
          label="Вид"
          required="Выберите вид устройства"
          options={Object.entries(DEVICE_KINDS).map(([value, label]) => ({ value, label }))}
        />
        <DeviceChoice
          index={index}
          name="point"
          label="Источник газа"
          required="Выберите источник выбросов"
          options={(points.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          loading={points.isLoading}
        />
        <DeviceChoice
          index={index}
          name="flow_basis"
          label="Условия расхода"
          options={Object.entries(FLOW_BASES).map(([value, label]) => ({ value, label }))}
        />
        {hasEtaOption(kind) && <DeviceChoice index={index} name="eta_option" label="КПД" width={200} options={etaOptions(kind)} />}
      </Flex>
      <Typography.Text strong>Датчики плана мониторинга</Typography.Text>
      <Flex wrap gap={12} style={{ marginTop: 8 }}>
        {channels.map(({ channel, required }) => (
          <Form.Item
            key={channel}
            label={CHANNELS[channel].label}
            name={[index, "sensors", channel]}
            rules={required ? [{ required: true, message: `Выберите датчик: ${CHANNELS[channel].label.toLowerCase()}` }] : []}
            style={{ minWidth: 200 }}
          >
            <SensorSelect facility={facility} kinds={CHANNELS[channel].kinds} />
          </Form.Item>
        ))}
      </Flex>
    </Card>
  );
}

/** a new project started from an assessment's stream («Снижение выбросов»): the stored
 *  assessment is read first, and the form starts with a device of its chosen option's kind. */
export function ClimateProjectForm(props: {
  project?: ClimateProject;
  from?: { assessment: string; stream: string };
  onSaved(p: ClimateProject): void;
  onCancel(): void;
}) {
  const assessment = useAssessment(props.from?.assessment);
  if (!props.from) return <ProjectForm project={props.project} onSaved={props.onSaved} onCancel={props.onCancel} />;
  if (assessment.error) return <LoadError what="оценку" message={assessment.error.message} retry={() => void assessment.refetch()} />;
  if (!assessment.data) return <PageLoading />;
  const stream = assessment.data.result.streams.find((s) => s.code === props.from?.stream);
  const option = stream?.options.find((o) => o.option_code === stream.chosen);
  const kind = deviceOfOption(option?.option_code);
  if (!stream || !option || !kind) {
    return (
      <Alert
        type="warning"
        showIcon
        title={`В оценке «${assessment.data.name}» для потока «${props.from.stream}» не выбран факел, газопоршневая установка или котельная`}
      />
    );
  }
  const from = {
    ...props.from,
    text: `По оценке «${assessment.data.name}», поток «${stream.code}»: ${option.label}. Ожидаемое сокращение ${formatResult(option.er_t_co2e, 3)} т CO2-экв. в год (${formatResult(option.carbon_units, 0)} углеродных единиц) хранится с проектом и сравнивается с измеренным по каждому отчетному периоду.`,
    kind,
    name: `${option.label}, поток ${stream.code}`,
  };
  return <ProjectForm project={props.project} from={from} onSaved={props.onSaved} onCancel={props.onCancel} />;
}

function ProjectForm({
  project,
  from,
  onSaved,
  onCancel,
}: {
  project?: ClimateProject;
  from?: { assessment: string; stream: string; text: string; kind: DeviceKind; name: string };
  onSaved(p: ClimateProject): void;
  onCancel(): void;
}) {
  const [form] = Form.useForm<Values>();
  const facilities = useFacilities();
  const save = useSaveClimateProject();
  const facility = Form.useWatch("facility", form);
  const initial: Partial<Values> = project
    ? {
        name: project.name,
        facility: project.facility,
        start: dayjs(project.start),
        end: project.end ? dayjs(project.end) : null,
        methodology: project.methodology,
        devices: project.devices.map((d) => ({
          ...d,
          eta_option: d.eta_option ?? undefined,
          sensors: Object.fromEntries(Object.entries(d.sensors).filter(([, code]) => code)) as DeviceValues["sensors"],
        })),
        e_own_sensor: project.e_own_sensor ?? undefined,
        ef_grid: project.ef_grid ? numberText(project.ef_grid.t_per_mwh) : undefined,
        ef_grid_source: project.ef_grid?.source,
      }
    : {
        name: from?.name,
        methodology: FIRST_METHODOLOGY,
        devices: [{ kind: from?.kind ?? DEVICE_KINDS_IN_ORDER[0], flow_basis: "standard_20C", sensors: {} }],
      };
  const submit = (values: Values) => {
    const body: ClimateProjectBody = {
      name: values.name,
      facility: values.facility as string,
      start: (values.start as Dayjs).format(DATE_FORMAT),
      end: values.end ? values.end.format(DATE_FORMAT) : null,
      methodology: { ...values.methodology, tools: project?.methodology.tools ?? [FLARING_TOOL] },
      devices: values.devices.map((d) => ({
        name: d.name || undefined,
        point: d.point as string,
        kind: d.kind,
        flow_basis: d.flow_basis,
        eta_option: hasEtaOption(d.kind) ? (d.eta_option ?? "default") : null,
        sensors: { q: d.sensors.q as string, c: d.sensors.c as string, ...d.sensors },
      })),
      e_own_sensor: values.e_own_sensor ?? null,
      ...(gridOf(values) || project?.ef_grid ? { ef_grid: gridOf(values) } : {}),
      ...(from && !project ? { from_assessment: { assessment: from.assessment, stream: from.stream } } : {}),
    };
    save.mutate({ id: project?.id, body, version: project?.version }, { onSuccess: onSaved });
  };
  return (
    <Card title={project ? `Проект «${project.name}»` : "Новый климатический проект"} data-testid="climate-project-form">
      {from && <Alert type="info" showIcon title={from.text} style={{ marginBottom: 12 }} data-testid="climate-project-from" />}
      <Form form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        <Flex wrap gap={12}>
          <Form.Item
            label="Название"
            name="name"
            rules={[{ required: true, message: "Укажите название проекта" }]}
            style={{ minWidth: 280, flex: 1 }}
          >
            <Input />
          </Form.Item>
          <Form.Item label="Площадка" name="facility" rules={[{ required: true, message: "Выберите площадку" }]} style={{ minWidth: 220 }}>
            <Select options={(facilities.data ?? []).map((f) => ({ value: f.id, label: f.name }))} loading={facilities.isLoading} />
          </Form.Item>
          <Form.Item label="Начало проекта" name="start" rules={[{ required: true, message: `Укажите дату: ${DATE_TYPED}` }]}>
            <DatePicker format={DATE_FIELD_FORMATS} placeholder={DATE_TYPED} />
          </Form.Item>
          <Form.Item label="Окончание периода кредитования" name="end">
            <DatePicker format={DATE_FIELD_FORMATS} placeholder={DATE_TYPED} />
          </Form.Item>
        </Flex>
        <Typography.Text strong>Методология</Typography.Text>
        <Flex wrap gap={12} style={{ marginTop: 8 }}>
          <Form.Item label="Код" name={["methodology", "code"]} rules={[{ required: true }]} style={{ minWidth: 160 }}>
            <Input />
          </Form.Item>
          <Form.Item label="Название" name={["methodology", "name"]} rules={[{ required: true }]} style={{ minWidth: 280, flex: 1 }}>
            <Input />
          </Form.Item>
          <Form.Item label="Версия" name={["methodology", "version"]} rules={[{ required: true }]} style={{ width: 100 }}>
            <Input />
          </Form.Item>
          <Form.Item label="Источник" name={["methodology", "source"]} rules={[{ required: true }]} style={{ minWidth: 200 }}>
            <Input />
          </Form.Item>
        </Flex>
        {facility ? (
          <Form.List name="devices">
            {(fields, { add, remove }) => (
              <Flex vertical gap={12}>
                {fields.map((field) => (
                  <DeviceCard key={field.key} facility={facility} index={field.name} remove={() => remove(field.name)} />
                ))}
                <Button
                  icon={<PlusOutlined />}
                  onClick={() => add({ kind: DEVICE_KINDS_IN_ORDER[0], flow_basis: "standard_20C", sensors: {} })}
                  style={{ alignSelf: "start" }}
                >
                  Добавить устройство
                </Button>
                <Form.Item label="Счетчик собственных нужд (ГПУ)" name="e_own_sensor" style={{ maxWidth: 320 }}>
                  <SensorSelect facility={facility} kinds={["electricity"]} />
                </Form.Item>
                <Flex wrap gap={12}>
                  <Form.Item label="EF_grid по умолчанию для периодов, т CO2/МВт·ч" name="ef_grid" style={{ width: 260 }}>
                    <NumericInput decimals={4} />
                  </Form.Item>
                  <Form.Item
                    label="Источник EF_grid"
                    name="ef_grid_source"
                    style={{ minWidth: 220, flex: 1 }}
                    dependencies={["ef_grid"]}
                    rules={[
                      ({ getFieldValue }) => ({
                        validator: (_, text?: string) =>
                          getFieldValue("ef_grid") && !text?.trim()
                            ? Promise.reject(new Error("Укажите источник EF_grid"))
                            : Promise.resolve(),
                      }),
                    ]}
                  >
                    <Input />
                  </Form.Item>
                </Flex>
              </Flex>
            )}
          </Form.List>
        ) : (
          <Typography.Paragraph type="secondary">Выберите площадку: устройства и датчики берутся из ее реестра.</Typography.Paragraph>
        )}
        {save.error && <Alert type="error" showIcon message={save.error.message} style={{ margin: "12px 0" }} />}
        <Flex gap={8} style={{ marginTop: 12 }}>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            Сохранить
          </Button>
          <Button onClick={onCancel}>Отмена</Button>
        </Flex>
      </Form>
    </Card>
  );
}
