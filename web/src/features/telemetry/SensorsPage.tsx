// «Датчики» of a facility (methodology D56): the sensors of the mine's gas monitoring (АГК) — code, kind,
// emission point, role, levels W/A, cross-section, flow conditions, dates in service — added, changed
// and retired; and the facility's gateway keys, each shown once when made, listed by label and first
// characters, revoked. Everything shown from a mine's readings is advisory (ADVISORY_NOTE).
import { useState } from "react";
import { Alert, Button, Card, Flex, Form, Input, Modal, Popconfirm, Select, Space, Tag, Typography, type TableColumnsType } from "antd";
import { Link, useParams } from "react-router-dom";
import { ADVISORY_NOTE, SENSOR_KINDS, SENSOR_KIND_NAMES, type SensorKind } from "@core/telemetry";
import { GATEWAY_KEY_LABEL_MAX, SENSOR_CODE_MAX, SENSOR_WORKING_MAX } from "@server/contract";
import { ListTable } from "../../shared/LazyTable";
import { LoadError } from "../../shared/LoadError";
import { NumericInput } from "../../shared/NumericInput";
import { numericInputProblem, parseNumericInput } from "../../shared/decimals";
import { TextItem } from "../../shared/TextItem";
import { DATE_TYPED, displayDate, displayDateTime } from "../../shared/dates";
import { useFacilities, usePoints, type EmissionPoint } from "../../api/inventory";
import {
  useCreateGatewayKey,
  useGatewayKeys,
  useRetireSensor,
  useRevokeGatewayKey,
  useSaveSensor,
  useSensors,
  type CreatedGatewayKey,
  type GatewayKey,
  type Sensor,
  type SensorFields,
} from "../../api/telemetry";

const ROLES = { signalling: "сигнализирующий", cut_off: "отключающий", recording: "регистрирующий" } as const;
/** «Скорость воздуха, м/с»; a label that names its unit already («Метан (0–4 % об.)») as it is. */
const kindText = (kind: SensorKind) =>
  SENSOR_KINDS[kind].label.includes(SENSOR_KINDS[kind].unit)
    ? SENSOR_KINDS[kind].label
    : `${SENSOR_KINDS[kind].label}, ${SENSOR_KINDS[kind].unit}`;
const kindOptions = SENSOR_KIND_NAMES.map((kind) => ({ value: kind, label: kindText(kind) }));
const roleOptions = Object.entries(ROLES).map(([value, label]) => ({ value, label }));
const conditionOptions = [
  { value: "standard", label: "стандартные (20 °C, 101,325 кПа)" },
  { value: "actual", label: "рабочие (по датчикам давления и температуры)" },
];
const number = (value: number | null) => (value === null ? "" : value.toLocaleString("ru-RU", { maximumFractionDigits: 6 }));
const levels = (s: Sensor) => (s.warning === null && s.alarm === null ? "—" : `${number(s.warning) || "—"} / ${number(s.alarm) || "—"}`);
const inService = (s: Sensor) =>
  s.in_service_from || s.in_service_to ? `${displayDate(s.in_service_from) || "…"} – ${displayDate(s.in_service_to) || "н. в."}` : "—";

export default function SensorsPage() {
  const { facilityId = "" } = useParams();
  const facilities = useFacilities();
  const facility = facilities.data?.find((f) => f.id === facilityId);
  const sensors = useSensors(facilityId);
  const points = usePoints(facilityId);
  const retire = useRetireSensor(facilityId);
  const [editing, setEditing] = useState<Sensor | "new" | null>(null);
  const pointName = new Map((points.data ?? []).map((p) => [p.id, p.name]));
  const columns: TableColumnsType<Sensor> = [
    {
      title: "Код",
      dataIndex: "code",
      render: (code: string, s) => (
        <Space size={4}>
          {code}
          {s.is_active ? null : <Tag>Выведен</Tag>}
        </Space>
      ),
    },
    { title: "Вид", dataIndex: "kind", render: (kind: SensorKind) => kindText(kind) },
    { title: "Источник выбросов", dataIndex: "point", render: (point: string) => pointName.get(point) ?? "" },
    { title: "Роль", dataIndex: "role", render: (role: keyof typeof ROLES) => ROLES[role] },
    { title: "Выработка", dataIndex: "working", render: (w: string) => w || "—" },
    { title: "W / A, % об.", key: "levels", render: (_: unknown, s) => levels(s) },
    { title: "В эксплуатации", key: "service", render: (_: unknown, s) => inService(s) },
    {
      title: "",
      key: "actions",
      width: 300,
      fixed: "right",
      render: (_: unknown, s) => (
        <Space size={4}>
          <Button size="small" onClick={() => setEditing(s)}>
            Изменить
          </Button>
          {s.is_active && (
            <Popconfirm
              title={`Вывести датчик «${s.code}» из эксплуатации?`}
              description="Его показания и история сохранятся."
              okText="Вывести"
              cancelText="Отмена"
              onConfirm={() => retire.mutate(s)}
            >
              <Button size="small">Вывести из эксплуатации</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Датчики{facility ? `: ${facility.name}` : ""}
      </Typography.Title>
      <Typography.Text>
        <Link to="/profile">Профиль › Площадки</Link> · <Link to={`/facilities/${facilityId}/telemetry`}>Данные АГК и предложения</Link>
      </Typography.Text>
      <Alert type="info" showIcon title={ADVISORY_NOTE} />
      <Card
        title="Датчики АГК"
        extra={
          <Button type="primary" onClick={() => setEditing("new")} disabled={!points.data?.length}>
            Добавить датчик
          </Button>
        }
      >
        {sensors.isError && <LoadError what="датчики" message={sensors.error.message} retry={() => sensors.refetch()} />}
        {retire.isError && <Alert type="error" showIcon role="alert" title={retire.error.message} />}
        {points.data && points.data.length === 0 && (
          <Alert type="warning" showIcon title="У площадки нет источников выбросов: добавьте их на странице «Профиль», затем датчики." />
        )}
        <ListTable<Sensor>
          rowKey="id"
          loading={sensors.isPending}
          scroll={{ x: 1100 }}
          columns={columns}
          dataSource={sensors.data ?? []}
          locale={{ emptyText: "Датчиков пока нет: добавьте метанометры, анемометры и датчики дегазационной установки" }}
        />
      </Card>
      <GatewayKeysCard facility={facilityId} />
      {editing && (
        <SensorDialog
          facility={facilityId}
          sensor={editing === "new" ? undefined : editing}
          points={(points.data ?? []).filter((p) => p.is_active || (editing !== "new" && p.id === editing.point))}
          onClose={() => setEditing(null)}
        />
      )}
    </Flex>
  );
}

interface SensorForm {
  code: string;
  kind: SensorKind;
  point: string;
  role: keyof typeof ROLES;
  working: string;
  warning: string;
  alarm: string;
  area_m2: string;
  conditions: "standard" | "actual";
  in_service_from: string;
  in_service_to: string;
}

/** «01.03.1998» → «1998-03-01»; "" → null. */
const isoOf = (text: string | undefined) => {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text?.trim() ?? "");
  return match ? `${match[3]}-${match[2]}-${match[1]}` : null;
};
const dateRule = { pattern: /^(\d{2}\.\d{2}\.\d{4})?$/, message: "Дата в виде ДД.ММ.ГГГГ" };
const typed = (value: number | null) => (value === null ? "" : number(value));
const numberOrNull = (text: string) => (text.trim() === "" ? null : (parseNumericInput(text) ?? null));

function SensorDialog({
  facility,
  sensor,
  points,
  onClose,
}: {
  facility: string;
  sensor?: Sensor;
  points: EmissionPoint[];
  onClose: () => void;
}) {
  const [form] = Form.useForm<SensorForm>();
  const save = useSaveSensor(facility);
  const kind = Form.useWatch("kind", form) ?? sensor?.kind ?? "methane";
  const initial: SensorForm = sensor
    ? {
        ...sensor,
        warning: typed(sensor.warning),
        alarm: typed(sensor.alarm),
        area_m2: typed(sensor.area_m2),
        in_service_from: displayDate(sensor.in_service_from),
        in_service_to: displayDate(sensor.in_service_to),
      }
    : {
        code: "",
        kind: "methane",
        point: points[0]?.id ?? "",
        role: "recording",
        working: "",
        warning: "",
        alarm: "",
        area_m2: "",
        conditions: "standard",
        in_service_from: "",
        in_service_to: "",
      };
  const submit = (values: SensorForm) => {
    if ([values.warning, values.alarm, values.area_m2].some((text) => numericInputProblem(text ?? "", { decimals: 4 }))) return;
    const fields: SensorFields = {
      code: values.code,
      kind: values.kind,
      point: values.point,
      role: values.role,
      working: values.working ?? "",
      warning: numberOrNull(values.warning ?? ""),
      alarm: numberOrNull(values.alarm ?? ""),
      area_m2: numberOrNull(values.area_m2 ?? ""),
      conditions: values.conditions,
      in_service_from: isoOf(values.in_service_from),
      in_service_to: isoOf(values.in_service_to),
    };
    save.mutate({ sensor, fields }, { onSuccess: onClose });
  };
  const methane = kind === "methane" || kind === "methane_high";
  return (
    <Modal
      open
      title={sensor ? `Изменить датчик «${sensor.code}»` : "Новый датчик"}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={640}
    >
      <Form<SensorForm> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        <TextItem
          label="Код датчика в АГК"
          name="code"
          maxLength={SENSOR_CODE_MAX}
          placeholder="М-12"
          rules={[{ required: true, whitespace: true, message: "Введите код датчика, как его называет АГК шахты" }]}
        />
        <Form.Item label="Вид датчика" name="kind">
          <Select aria-label="Вид датчика" options={kindOptions} />
        </Form.Item>
        <Form.Item label="Источник выбросов" name="point" rules={[{ required: true, message: "Выберите источник выбросов" }]}>
          <Select aria-label="Источник выбросов" options={points.map((p) => ({ value: p.id, label: p.name }))} />
        </Form.Item>
        <Form.Item label="Роль" name="role">
          <Select aria-label="Роль датчика" options={roleOptions} />
        </Form.Item>
        <TextItem label="Выработка" name="working" maxLength={SENSOR_WORKING_MAX} placeholder="Лава 24-58" />
        {methane && (
          <Space align="start">
            <Form.Item label="Предупредительный уровень W" name="warning">
              <NumericInput decimals={4} unit="% об." />
            </Form.Item>
            <Form.Item label="Аварийный уровень A" name="alarm">
              <NumericInput decimals={4} unit="% об." />
            </Form.Item>
          </Space>
        )}
        {kind === "air_velocity" && (
          <Form.Item
            label="Площадь сечения выработки"
            name="area_m2"
            rules={[{ required: true, message: "Для анемометра укажите площадь сечения" }]}
          >
            <NumericInput decimals={4} unit="м²" />
          </Form.Item>
        )}
        {(kind === "flow" || kind === "methane_flow") && (
          <Form.Item label="Условия расхода" name="conditions">
            <Select aria-label="Условия расхода" options={conditionOptions} />
          </Form.Item>
        )}
        <Space>
          <TextItem
            label="В эксплуатации с"
            name="in_service_from"
            maxLength={DATE_TYPED.length}
            placeholder={DATE_TYPED}
            rules={[dateRule]}
          />
          <TextItem label="по" name="in_service_to" maxLength={DATE_TYPED.length} placeholder={DATE_TYPED} rules={[dateRule]} />
        </Space>
        {sensor && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title="Изменение действует с этого момента: показания до него читаются с прежними данными датчика."
          />
        )}
        {save.isError && <Alert type="error" showIcon title={save.error.message} style={{ marginBottom: 16 }} role="alert" />}
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {sensor ? "Сохранить" : "Добавить"}
        </Button>
      </Form>
    </Modal>
  );
}

/** The facility's gateway keys: made (the key shown once), listed without the key, revoked. */
function GatewayKeysCard({ facility }: { facility: string }) {
  const keys = useGatewayKeys(facility);
  const create = useCreateGatewayKey(facility);
  const revoke = useRevokeGatewayKey(facility);
  const [label, setLabel] = useState("");
  const [made, setMade] = useState<CreatedGatewayKey | null>(null);
  const columns: TableColumnsType<GatewayKey> = [
    { title: "Ключ", dataIndex: "label" },
    { title: "Начало ключа", dataIndex: "prefix", render: (prefix: string) => <Typography.Text code>{prefix}…</Typography.Text> },
    { title: "Создан", key: "created", render: (_: unknown, k) => `${displayDateTime(k.created_at)}, ${k.created_by}` },
    {
      title: "Состояние",
      key: "state",
      render: (_: unknown, k) => (k.revoked_at ? <Tag>Отозван {displayDateTime(k.revoked_at)}</Tag> : <Tag color="green">Действует</Tag>),
    },
    {
      title: "",
      key: "actions",
      width: 120,
      render: (_: unknown, k) =>
        k.revoked_at ? null : (
          <Popconfirm
            title={`Отозвать ключ «${k.label}»?`}
            description="Шлюз с этим ключом больше не сможет передавать показания."
            okText="Отозвать"
            cancelText="Отмена"
            onConfirm={() => revoke.mutate(k)}
          >
            <Button size="small" danger>
              Отозвать
            </Button>
          </Popconfirm>
        ),
    },
  ];
  return (
    <Card title="Ключи шлюза">
      <Flex vertical gap={12}>
        <Typography.Paragraph style={{ margin: 0 }}>
          Шлюз диспетчерской передает показания датчиков этой площадки с заголовком «Authorization: Gateway &lt;ключ&gt;». Ключ только
          передает показания: читать данные с ним нельзя. Ключ показывается один раз при создании.
        </Typography.Paragraph>
        {keys.isError && <LoadError what="ключи шлюза" message={keys.error.message} retry={() => keys.refetch()} />}
        {(create.isError || revoke.isError) && <Alert type="error" showIcon role="alert" title={(create.error ?? revoke.error)?.message} />}
        <ListTable<GatewayKey>
          rowKey="id"
          loading={keys.isPending}
          scroll={{ x: 800 }}
          columns={columns}
          dataSource={keys.data ?? []}
          locale={{ emptyText: "Ключей пока нет" }}
        />
        <Space.Compact style={{ maxWidth: 520 }}>
          <Input
            aria-label="Название ключа"
            placeholder="Шлюз диспетчерской"
            maxLength={GATEWAY_KEY_LABEL_MAX}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
          />
          <Button
            type="primary"
            loading={create.isPending}
            disabled={!label.trim()}
            onClick={() =>
              create.mutate(label.trim(), {
                onSuccess: (key) => {
                  setMade(key);
                  setLabel("");
                },
              })
            }
          >
            Создать ключ
          </Button>
        </Space.Compact>
      </Flex>
      {made && (
        <Modal
          open
          title={`Ключ «${made.label}»`}
          onCancel={() => setMade(null)}
          onOk={() => setMade(null)}
          okText="Я сохранил ключ"
          cancelButtonProps={{ style: { display: "none" } }}
        >
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title="Скопируйте ключ сейчас: он показывается один раз и больше не будет доступен."
          />
          <Typography.Paragraph copyable={{ text: made.key }} code style={{ wordBreak: "break-all" }}>
            {made.key}
          </Typography.Paragraph>
        </Modal>
      )}
    </Card>
  );
}
