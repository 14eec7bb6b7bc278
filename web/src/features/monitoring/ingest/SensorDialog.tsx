// The sensor register's add and change dialog of «Датчики» (D56), loaded when opened. A sensor hangs at
// a place of its working, in its section; it names an emission point only where it measures
// that point (a shaft's or a drainage line's own channel), so the point list offers only points its
// place measures.
import { Alert, Button, Checkbox, Form, Input, Modal, Select, Space } from "antd";
import { PLACE_AIRFLOW_ORDER } from "@core/air-path";
import { LIMITS, SENSOR_CODE_MAX, SENSOR_WORKING_MAX } from "@server/contract";
import { LEVEL_KINDS, METHANE_KINDS, SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import type { NormPlace } from "@core/methane-limits";
import { placeMeasures, type SensorPlace } from "@core/sensor-places";
import { NumericInput } from "../../../shared/NumericInput";
import { numericInputProblem, parseNumericInput } from "../../../shared/decimals";
import { TextItem } from "../../../shared/TextItem";
import { InServiceItems } from "../../../shared/InServiceItems";
import { displayDate } from "../../../shared/dates";
import type { EmissionPoint } from "../../../api/inventory";
import { useSaveSensor, type Sensor, type SensorFields } from "../../../api/monitoring";
import { conditionOptions, kindOptions, normPlaceOptions, number, placeOptions, type ROLES, roleOptions } from "../texts/sensorTexts";
import { NAMED_OPTIONS } from "../../../shared/namedOptions";

/** D103: a position on the air path as the server takes it (empty: the place's), 0 up to its cap. */
async function airflowOrderCheck(value: string | undefined): Promise<void> {
  const text = (value ?? "").trim();
  if (text !== "" && !(/^\d+$/.test(text) && Number(text) <= LIMITS.monitoring.airflowOrder)) {
    throw new Error(`Целое число 0–${LIMITS.monitoring.airflowOrder}`);
  }
}

interface SensorForm {
  code: string;
  kind: SensorKind;
  point: string | null;
  role: keyof typeof ROLES;
  working: string;
  section: string;
  /** Undefined on a new sensor until chosen: the place sets its norm (D87), so none is offered by default. */
  place: SensorPlace | undefined;
  /** at «другое место», the norm's row it is read against; "" the working's. */
  norm_place: NormPlace | "";
  /** D103: the position on the section's air path; "" the place's. */
  airflow_order: string;
  fresh_air_joins: boolean;
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
const typed = (value: number | null) => (value === null ? "" : number(value));
const numberOrNull = (text: string) => (text.trim() === "" ? null : (parseNumericInput(text) ?? null));

export default function SensorDialog({
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
  const place: SensorPlace | undefined = Form.useWatch("place", form) ?? sensor?.place;
  // Only the points a channel at this place measures (the one it names kept, so a stale choice shows).
  const measured = points.filter((p) => (place !== undefined && placeMeasures(place, p.kind)) || p.id === sensor?.point);
  const initial: SensorForm = sensor
    ? {
        ...sensor,
        norm_place: sensor.norm_place ?? "",
        airflow_order: sensor.airflow_order == null ? "" : String(sensor.airflow_order),
        fresh_air_joins: sensor.fresh_air_joins ?? false,
        warning: typed(sensor.warning),
        alarm: typed(sensor.alarm),
        area_m2: typed(sensor.area_m2),
        in_service_from: displayDate(sensor.in_service_from),
        in_service_to: displayDate(sensor.in_service_to),
      }
    : {
        code: "",
        kind: "methane",
        point: null,
        role: "recording",
        working: "",
        section: "",
        place: undefined,
        norm_place: "",
        airflow_order: "",
        fresh_air_joins: false,
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
      point: values.point || null,
      role: values.role,
      working: values.working ?? "",
      section: values.section ?? "",
      place: values.place!,
      // a row is named only at «другое место»; elsewhere the place's own norm holds.
      norm_place: values.place === "other" && values.norm_place ? values.norm_place : null,
      airflow_order: (values.airflow_order ?? "").trim() === "" ? null : Number(values.airflow_order),
      fresh_air_joins: values.fresh_air_joins ?? false,
      // A kind without levels (oxygen, flow…) sends none, whatever was typed before the kind changed.
      warning: LEVEL_KINDS.has(values.kind) ? numberOrNull(values.warning ?? "") : null,
      alarm: LEVEL_KINDS.has(values.kind) ? numberOrNull(values.alarm ?? "") : null,
      area_m2: numberOrNull(values.area_m2 ?? ""),
      conditions: values.conditions,
      in_service_from: isoOf(values.in_service_from),
      in_service_to: isoOf(values.in_service_to),
    };
    save.mutate({ sensor, fields }, { onSuccess: onClose });
  };
  const levelled = LEVEL_KINDS.has(kind);
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
          <Select aria-label="Вид датчика" options={kindOptions} {...NAMED_OPTIONS} />
        </Form.Item>
        <TextItem
          label="Участок"
          name="section"
          maxLength={SENSOR_WORKING_MAX}
          placeholder="Выемочный участок 24-58"
          extra="Выемочный участок или подготовительная выработка: превышение у двух и более датчиков участка — общее загазирование"
        />
        <TextItem label="Выработка" name="working" maxLength={SENSOR_WORKING_MAX} placeholder="Лава 24-58" />
        <Form.Item
          label="Место датчика"
          name="place"
          rules={[{ required: true, message: "Выберите место датчика: по нему читается норма загазирования" }]}
        >
          {/* All ten places in the list at once (a virtual list showed only those around the chosen one).
              No place is chosen for a new sensor: «Другое место» would silently read the working's norm. */}
          <Select aria-label="Место датчика" options={placeOptions} {...NAMED_OPTIONS} listHeight={320} placeholder="Выберите место" />
        </Form.Item>
        {place === "other" && METHANE_KINDS.has(kind) && (
          <Form.Item
            label="Норма загазирования"
            name="norm_place"
            extra="Для датчика в другом месте: строка допустимых концентраций, по которой он читается; не выбрана — норма выработки"
          >
            <Select aria-label="Норма загазирования" options={normPlaceOptions} {...NAMED_OPTIONS} />
          </Form.Item>
        )}
        {(place ? PLACE_AIRFLOW_ORDER[place] : null) !== null && (
          <Space align="start" wrap>
            <Form.Item
              label="Порядок по струе"
              name="airflow_order"
              rules={[{ validator: async (_, value?: string) => airflowOrderCheck(value) }]}
              extra={`Пусто — по месту: ${place ? PLACE_AIRFLOW_ORDER[place] : null}. У забоя 10, в 10–20 м 20, исходящая лавы 30, участка 40, крыла 50, ствол 60`}
            >
              <Input
                inputMode="numeric"
                aria-label="Порядок по струе"
                placeholder={String(place ? PLACE_AIRFLOW_ORDER[place] : null)}
                style={{ width: 120 }}
              />
            </Form.Item>
            <Form.Item
              label="Свежий воздух перед датчиком"
              name="fresh_air_joins"
              valuePropName="checked"
              extra="Подсвежение: с датчиком выше по струе не сравнивается"
            >
              <Checkbox aria-label="Свежий воздух перед датчиком">поступает</Checkbox>
            </Form.Item>
          </Space>
        )}
        <Form.Item
          label="Измеряет источник выбросов"
          name="point"
          extra={
            measured.length === 0
              ? "Датчик этого места не измеряет источник выбросов: источник измеряют датчики ствола и дегазационного трубопровода"
              : "Только канал самого источника (ствола, дегазационного трубопровода): по нему считается месяц источника в «Данных АГК»"
          }
        >
          <Select
            aria-label="Измеряет источник выбросов"
            allowClear
            placeholder="не измеряет источник"
            options={measured.map((p) => ({ value: p.id, label: p.name }))}
            {...NAMED_OPTIONS}
          />
        </Form.Item>
        <Form.Item label="Роль" name="role">
          <Select aria-label="Роль датчика" options={roleOptions} {...NAMED_OPTIONS} />
        </Form.Item>
        {levelled && (
          <Space align="start">
            <Form.Item label="Предупредительный уровень W" name="warning">
              <NumericInput decimals={4} unit={SENSOR_KINDS[kind].unit} />
            </Form.Item>
            <Form.Item label="Аварийный уровень A" name="alarm">
              <NumericInput decimals={4} unit={SENSOR_KINDS[kind].unit} />
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
            <Select aria-label="Условия расхода" options={conditionOptions} {...NAMED_OPTIONS} />
          </Form.Item>
        )}
        <InServiceItems />
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
