// The company's facilities on the profile (mines, open pits, plants): the inventory is kept by
// them. Any user of the company adds and edits them; a server refusal shows in the dialog.
import { useState } from "react";
import { Alert, Button, Card, Form, Input, Modal, Select, type TableColumnsType } from "antd";
import { Table } from "../../shared/LazyTable";
import { FACILITY_KINDS, type FacilityKind } from "@core/inventory";
import { useFacilities, useSaveFacility, type Facility, type FacilityFields } from "../inventory/api";

const kindOptions = (Object.entries(FACILITY_KINDS) as [FacilityKind, string][]).map(([value, label]) => ({ value, label }));

const columns = (edit: (facility: Facility) => void): TableColumnsType<Facility> => [
  { title: "Название", dataIndex: "name" },
  { title: "Тип", dataIndex: "kind", render: (kind: FacilityKind) => FACILITY_KINDS[kind] },
  { title: "Лицензия", dataIndex: "licence_number", render: (v: string) => v || "—" },
  { title: "Адрес", dataIndex: "address", render: (v: string) => v || "—" },
  {
    title: "",
    key: "edit",
    width: 120,
    render: (_: unknown, facility) => (
      <Button size="small" onClick={() => edit(facility)}>
        Изменить
      </Button>
    ),
  },
];

export function FacilitiesCard() {
  const facilities = useFacilities();
  const [editing, setEditing] = useState<Facility | "new" | null>(null);
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
      <Table<Facility>
        rowKey="id"
        size="small"
        pagination={false}
        loading={facilities.isPending}
        scroll={{ x: 700 }}
        columns={columns(setEditing)}
        dataSource={facilities.data ?? []}
        locale={{ emptyText: "Площадок пока нет: добавьте шахты, разрезы и фабрики компании" }}
      />
      {editing && <FacilityDialog facility={editing === "new" ? undefined : editing} onClose={() => setEditing(null)} />}
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
        <Form.Item label="Название" name="name" rules={[{ required: true, whitespace: true, message: "Введите название площадки" }]}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item label="Тип" name="kind">
          <Select aria-label="Тип площадки" options={kindOptions} />
        </Form.Item>
        <Form.Item label="Номер лицензии" name="licence_number">
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item label="Адрес" name="address">
          <Input maxLength={500} />
        </Form.Item>
        {save.isError && <Alert type="error" showIcon title={save.error.message} style={{ marginBottom: 16 }} role="alert" />}
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {facility ? "Сохранить" : "Добавить"}
        </Button>
      </Form>
    </Modal>
  );
}
