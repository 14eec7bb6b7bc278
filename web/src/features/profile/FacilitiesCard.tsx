// The company's facilities on the profile (mines, open pits, plants): the inventory is kept by
// them. Any user of the company adds, edits and archives them and, per facility, its emission
// points (D25: ventilation shafts, drainage stations, flares, boilers); a server refusal shows in
// the dialog.
import { useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { Alert, Button, Card, Checkbox, Flex, Form, Modal, Select, Space, Tag, type TableColumnsType } from "antd";
import { ListTable } from "../../shared/LazyTable";
import { ShiftCalendarDialog } from "./ShiftCalendarDialog";
import { TextItem } from "../../shared/TextItem";
import { InServiceItems } from "../../shared/InServiceItems";
import { NumericInput } from "../../shared/NumericInput";
import { numericInputProblem, parseNumericInput } from "../../shared/decimals";
import { EMISSION_POINT_KINDS, FACILITY_KINDS, type EmissionPointKind, type FacilityKind } from "@core/inventory";
import { FACILITY_ADDRESS_MAX, FACILITY_LICENCE_MAX, FACILITY_NAME_MAX, POINT_NAME_MAX, POINT_NOTE_MAX } from "@server/contract";
import {
  usePoints,
  useFacilities,
  useSaveFacility,
  useSavePoint,
  type EmissionPoint,
  type Facility,
  type FacilityFields,
  type PointFields,
} from "../../api/inventory";
import { ruDate } from "@core/dates";

const kindOptions = (Object.entries(FACILITY_KINDS) as [FacilityKind, string][]).map(([value, label]) => ({ value, label }));

/** A facility's or an emission point's name, «В архиве» after it once archived. */
const nameColumn = <T extends { name: string; is_active: boolean }>(title: string): TableColumnsType<T>[number] => ({
  title,
  dataIndex: "name",
  render: (name: string, row) => (
    <Space size={4}>
      {name}
      {row.is_active ? null : <Tag>В архиве</Tag>}
    </Space>
  ),
});

const orDash = (text: string) => text || "—";

/** A row's small buttons, side by side, under no title. */
const buttonsColumn = <T,>(key: string, width: number, buttons: (row: T) => ReactNode): TableColumnsType<T>[number] => ({
  title: "",
  key,
  width,
  render: (_: unknown, row) => <Space size={4}>{buttons(row)}</Space>,
});

const columns = (
  edit: (facility: Facility) => void,
  points: (facility: Facility) => void,
  calendar: (facility: Facility) => void,
): TableColumnsType<Facility> => [
  nameColumn("Название"),
  { title: "Тип", dataIndex: "kind", render: (kind: FacilityKind) => FACILITY_KINDS[kind] },
  { title: "Лицензия", dataIndex: "licence_number", render: orDash },
  { title: "Адрес", dataIndex: "address", render: orDash },
  buttonsColumn("edit", 440, (facility) => (
    <>
      <Button size="small" onClick={() => points(facility)}>
        Источники выбросов
      </Button>
      {facility.kind === "underground_mine" && <Link to={`/facilities/${facility.id}/sensors`}>Датчики</Link>}
      {/* D90: the mine's shifts, which the journal and the shift reports follow. */}
      {facility.kind === "underground_mine" && (
        <Button size="small" onClick={() => calendar(facility)}>
          Календарь смен
        </Button>
      )}
      <Button size="small" onClick={() => edit(facility)}>
        Изменить
      </Button>
    </>
  )),
];

export function FacilitiesCard() {
  const facilities = useFacilities();
  const [editing, setEditing] = useState<Facility | "new" | null>(null);
  const [pointsOf, setPointsOf] = useState<Facility | null>(null);
  const [calendarOf, setCalendarOf] = useState<Facility | null>(null);
  return (
    <Card
      title="Площадки"
      extra={
        <Button type="primary" onClick={() => setEditing("new")}>
          Добавить площадку
        </Button>
      }
    >
      {facilities.isError && <Alert type="error" showIcon title={facilities.error.message} />}
      <ListTable<Facility>
        rowKey="id"
        loading={facilities.isPending}
        scroll={{ x: 700 }}
        columns={columns(setEditing, setPointsOf, setCalendarOf)}
        dataSource={facilities.data ?? []}
        locale={{ emptyText: "Площадок пока нет: добавьте шахты, разрезы и фабрики компании" }}
      />
      {editing && <FacilityDialog facility={editing === "new" ? undefined : editing} onClose={() => setEditing(null)} />}
      {pointsOf && <PointsDialog facility={pointsOf} onClose={() => setPointsOf(null)} />}
      {calendarOf && <ShiftCalendarDialog facility={calendarOf} onClose={() => setCalendarOf(null)} />}
    </Card>
  );
}

function FacilityDialog({ facility, onClose }: { facility?: Facility; onClose: () => void }) {
  const [form] = Form.useForm<FacilityFields>();
  const save = useSaveFacility();
  const submit = (values: FacilityFields) => save.mutate({ facility, fields: values }, { onSuccess: onClose });
  return (
    <Modal open title={facility ? "Изменить площадку" : "Новая площадка"} onCancel={onClose} footer={null} destroyOnHidden>
      <Form<FacilityFields> form={form} layout="vertical" initialValues={facility ?? { kind: "underground_mine" }} onFinish={submit}>
        <TextItem
          label="Название"
          name="name"
          maxLength={FACILITY_NAME_MAX}
          rules={[{ required: true, whitespace: true, message: "Введите название площадки" }]}
        />
        <Form.Item label="Тип" name="kind">
          <Select aria-label="Тип площадки" options={kindOptions} />
        </Form.Item>
        <TextItem label="Номер лицензии" name="licence_number" maxLength={FACILITY_LICENCE_MAX} />
        <TextItem label="Адрес" name="address" maxLength={FACILITY_ADDRESS_MAX} />
        {save.isError && <Alert type="error" showIcon title={save.error.message} style={{ marginBottom: 16 }} role="alert" />}
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {facility ? "Сохранить" : "Добавить"}
          </Button>
          {facility && (
            // A mine closed or sold: its years keep their figures, the next raises no «нет данных».
            <Button
              loading={save.isPending}
              onClick={() =>
                save.mutate(
                  { facility, fields: { name: facility.name, kind: facility.kind, is_active: !facility.is_active } },
                  { onSuccess: onClose },
                )
              }
            >
              {facility.is_active ? "Отправить в архив" : "Восстановить из архива"}
            </Button>
          )}
        </Space>
      </Form>
    </Modal>
  );
}

const pointKindOptions = (Object.entries(EMISSION_POINT_KINDS) as [EmissionPointKind, string][]).map(([value, label]) => ({
  value,
  label,
}));
const day = (iso: string | null) => (iso ? ruDate(iso) : "");
const inService = (p: EmissionPoint) =>
  p.in_service_from || p.in_service_to ? `${day(p.in_service_from) || "…"} – ${day(p.in_service_to) || "н. в."}` : "—";

/** D25: the facility's emission points, each a source of its own: listed, added, edited, archived. */
function PointsDialog({ facility, onClose }: { facility: Facility; onClose: () => void }) {
  const points = usePoints(facility.id);
  const save = useSavePoint(facility.id);
  const [editing, setEditing] = useState<EmissionPoint | "new" | null>(null);
  const pointColumns: TableColumnsType<EmissionPoint> = [
    nameColumn("Источник"),
    { title: "Вид", dataIndex: "kind", render: (kind: EmissionPointKind) => EMISSION_POINT_KINDS[kind] },
    { title: "Средство измерений", dataIndex: "instrument", render: orDash },
    { title: "Периодичность", dataIndex: "frequency", render: orDash },
    { title: "В эксплуатации", key: "service", render: (_: unknown, p) => inService(p) },
    {
      ...buttonsColumn<EmissionPoint>("actions", 230, (p) => (
        <>
          <Button size="small" onClick={() => setEditing(p)}>
            Изменить
          </Button>
          <Button size="small" loading={save.isPending} onClick={() => save.mutate({ point: p, fields: { is_active: !p.is_active } })}>
            {p.is_active ? "В архив" : "Восстановить"}
          </Button>
        </>
      )),
      // Kept in view at the right when the table scrolls: «Восстановить» is the widest.
      fixed: "right",
    },
  ];
  return (
    <Modal open title={`Источники выбросов: ${facility.name}`} onCancel={onClose} footer={null} width={1000} destroyOnHidden>
      <Flex vertical gap={12}>
        <Alert
          type="info"
          showIcon
          title="Каждый источник учитывается отдельно: вентиляционный ствол и дегазационная установка — два источника, факел и котельная сжигают каптированный газ. Измеренные расчеты указывают свой источник."
        />
        {(points.isError || save.isError) && <Alert type="error" showIcon role="alert" title={(points.error ?? save.error)?.message} />}
        <ListTable<EmissionPoint>
          rowKey="id"
          loading={points.isPending}
          scroll={{ x: 900 }}
          columns={pointColumns}
          dataSource={points.data ?? []}
          locale={{ emptyText: "Источников пока нет: добавьте вентиляционные стволы, дегазационные установки, факелы и котельные" }}
        />
        <div>
          <Button type="primary" onClick={() => setEditing("new")}>
            Добавить источник
          </Button>
        </div>
      </Flex>
      {editing && <PointDialog facility={facility.id} point={editing === "new" ? undefined : editing} onClose={() => setEditing(null)} />}
    </Modal>
  );
}

/** D92: a drainage station's flow meter placed after a take-off to use does not see all the drained gas:
 *  accepting its АГК month then asks the basis. Shown for a drainage station only. */
function TakeoffMeterItem() {
  return (
    <Form.Item noStyle shouldUpdate={(a, b) => a.kind !== b.kind}>
      {({ getFieldValue }) =>
        getFieldValue("kind") === "drainage_station" ? (
          <Form.Item
            name="meter_after_takeoff"
            valuePropName="checked"
            extra="Иначе месяц «по данным АГК» принимается как валовый: счетчик на трубопроводе до отбора измеряет весь каптированный газ"
          >
            <Checkbox>Счетчик стоит после отбора газа на использование</Checkbox>
          </Form.Item>
        ) : null
      }
    </Form.Item>
  );
}

type PointForm = Omit<PointFields, "in_service_from" | "in_service_to" | "co2_content_pct"> & {
  in_service_from?: string;
  in_service_to?: string;
  /** typed as the user writes it («0,35»). */
  co2_content_pct?: string;
};
/** «01.03.1998» → «1998-03-01»; "" → null. */
const isoOf = (text: string | undefined) => {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text?.trim() ?? "");
  return match ? `${match[3]}-${match[2]}-${match[1]}` : text?.trim() ? text.trim() : null;
};

function PointDialog({ facility, point, onClose }: { facility: string; point?: EmissionPoint; onClose: () => void }) {
  const [form] = Form.useForm<PointForm>();
  const save = useSavePoint(facility);
  const submit = (values: PointForm) => {
    if (numericInputProblem(values.co2_content_pct ?? "", { decimals: 4 })) return;
    const co2 = (values.co2_content_pct ?? "").trim() === "" ? null : (parseNumericInput(values.co2_content_pct ?? "") ?? null);
    save.mutate(
      {
        point,
        fields: {
          ...values,
          in_service_from: isoOf(values.in_service_from),
          in_service_to: isoOf(values.in_service_to),
          co2_content_pct: co2,
          co2_content_source: co2 === null ? "" : (values.co2_content_source ?? ""),
          // D92: a drainage station's only.
          meter_after_takeoff: values.kind === "drainage_station" && values.meter_after_takeoff === true,
        },
      },
      { onSuccess: onClose },
    );
  };
  const initial: Partial<PointForm> = point
    ? {
        ...point,
        in_service_from: day(point.in_service_from),
        in_service_to: day(point.in_service_to),
        co2_content_pct:
          point.co2_content_pct === null || point.co2_content_pct === undefined
            ? ""
            : point.co2_content_pct.toLocaleString("ru-RU", { maximumFractionDigits: 4, useGrouping: false }),
      }
    : { kind: "ventilation_shaft" };
  return (
    <Modal open title={point ? "Изменить источник выбросов" : "Новый источник выбросов"} onCancel={onClose} footer={null} destroyOnHidden>
      <Form<PointForm> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        <TextItem
          label="Название"
          name="name"
          maxLength={POINT_NAME_MAX}
          placeholder="Вентиляционный ствол № 1"
          rules={[{ required: true, whitespace: true, message: "Введите название источника" }]}
        />
        <Form.Item label="Вид источника" name="kind">
          <Select aria-label="Вид источника" options={pointKindOptions} />
        </Form.Item>
        <TextItem label="Средство измерений" name="instrument" maxLength={POINT_NOTE_MAX} placeholder="Расходомер, метанометр" />
        <TextItem label="Периодичность измерений" name="frequency" maxLength={POINT_NOTE_MAX} placeholder="непрерывно" />
        <Form.Item
          label="Содержание CO2 в газе источника"
          name="co2_content_pct"
          extra="АГК не измеряет CO2: месяцы «по данным АГК» берут это содержание, паспорт печатает его источник"
        >
          <NumericInput decimals={4} unit="% об." />
        </Form.Item>
        <TextItem
          label="Откуда содержание CO2"
          name="co2_content_source"
          maxLength={POINT_NOTE_MAX}
          placeholder="анализ проб, протокол № 7 от 12.10.2026"
        />
        <TakeoffMeterItem />
        <InServiceItems />
        {save.isError && <Alert type="error" showIcon title={save.error.message} style={{ marginBottom: 16 }} role="alert" />}
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {point ? "Сохранить" : "Добавить"}
        </Button>
      </Form>
    </Modal>
  );
}
