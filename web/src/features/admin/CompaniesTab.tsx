// «Компании»: every company of the platform, created and edited here. The requisites are checked in
// the form by the same rules as on the server (functions/src/contract/schemas/company.ts).
import { useState } from "react";
import { useUrlPage } from "../../shared/urlState";
import { Button, Form, Input, Modal, Space } from "antd";
import { Table } from "../../shared/LazyTable";
import { EditOutlined, PlusOutlined, TeamOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Rule } from "antd/es/form";
import { isValidInn, isValidOgrn, isValidPhone, KPP_RE, OKVED_RE } from "@server/contract";
import { adminKeys, createCompany, errorText, fieldError, patchCompany, useCompanies, type Company, type CompanyBody } from "./api";
import { useFeedback } from "../../shared/feedback";
import { CompanyRequisiteFields } from "../../shared/CompanyRequisiteFields";

const FIELDS = [
  "name",
  "email",
  "ogrn",
  "inn",
  "kpp",
  "okved",
  "region",
  "postal_address",
  "responsible_name",
  "responsible_position",
  "responsible_phone",
  "responsible_email",
] as const;
type CompanyForm = Record<(typeof FIELDS)[number], string>;

const RULES: Partial<Record<keyof CompanyForm, Rule[]>> = {
  name: [{ required: true, whitespace: true, message: "Укажите название компании" }, { max: 200 }],
  email: [{ type: "email", message: "Укажите корректный e-mail" }],
  ogrn: [
    {
      validator: (_, value?: string) =>
        !value || isValidOgrn(value.trim())
          ? Promise.resolve()
          : Promise.reject(new Error("ОГРН — 13 цифр, ОГРНИП — 15 цифр, с верной контрольной цифрой")),
    },
  ],
  inn: [
    {
      validator: (_, value?: string) =>
        !value || isValidInn(value.trim())
          ? Promise.resolve()
          : Promise.reject(new Error("ИНН — 10 цифр (организация) или 12 цифр, с верными контрольными цифрами")),
    },
  ],
  kpp: [
    {
      validator: (_, value?: string) =>
        !value || KPP_RE.test(value.trim()) ? Promise.resolve() : Promise.reject(new Error("КПП — 9 знаков, например 420501001")),
    },
  ],
  responsible_phone: [
    {
      validator: (_, value?: string) =>
        !value || isValidPhone(value.trim())
          ? Promise.resolve()
          : Promise.reject(new Error("Телефон — от 5 до 15 цифр, например +7 (3842) 12-34-56")),
    },
  ],
  responsible_email: [{ type: "email", message: "Укажите корректный e-mail" }],
  okved: [
    {
      validator: (_, value?: string) =>
        !value || OKVED_RE.test(value.trim()) ? Promise.resolve() : Promise.reject(new Error("Код ОКВЭД в формате NN.NN или NN.NN.NN")),
    },
  ],
};

function CompanyDialog({ company, open, onClose }: { company?: Company; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<CompanyForm>();
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const save = useMutation({
    mutationFn: (values: CompanyForm) => {
      const body = Object.fromEntries(FIELDS.map((f) => [f, (values[f] ?? "").trim()])) as CompanyBody;
      return company ? patchCompany(company, body) : createCompany(body);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.companies });
      await queryClient.invalidateQueries({ queryKey: adminKeys.auditAll });
      message.success(company ? "Реквизиты сохранены" : "Компания создана");
      onClose();
    },
    onError: (error) => {
      const field = fieldError(error, FIELDS);
      if (field) form.setFields([field]);
      else message.error(errorText(error));
    },
  });

  return (
    <Modal
      open={open}
      title={company ? `Реквизиты: ${company.name}` : "Новая компания"}
      okText={company ? "Сохранить" : "Создать"}
      cancelText="Отмена"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<CompanyForm> form={form} layout="vertical" initialValues={company} onFinish={(values) => save.mutate(values)} preserve={false}>
        <Form.Item label="Название" name="name" rules={RULES.name}>
          <Input />
        </Form.Item>
        <Form.Item label="E-mail" name="email" rules={RULES.email}>
          <Input />
        </Form.Item>
        <CompanyRequisiteFields rules={RULES} withRegion />
      </Form>
    </Modal>
  );
}

export function CompaniesTab({ onShowUsers }: { onShowUsers: (companyId: string) => void }) {
  const { data, isLoading } = useCompanies();
  const [editing, setEditing] = useState<Company | "new" | null>(null);
  const { page, setPage } = useUrlPage();

  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} style={{ marginBottom: 16 }}>
        Добавить компанию
      </Button>
      <Table<Company>
        rowKey="id"
        loading={isLoading}
        dataSource={data?.results ?? []}
        locale={{ emptyText: "Компаний пока нет" }}
        pagination={{ current: page, onChange: (next) => setPage(next), pageSize: 10, hideOnSinglePage: true }}
        columns={[
          { title: "Название", dataIndex: "name" },
          { title: "ОГРН", dataIndex: "ogrn", width: 160 },
          { title: "ОКВЭД", dataIndex: "okved", width: 100 },
          { title: "Регион", dataIndex: "region" },
          { title: "E-mail", dataIndex: "email" },
          {
            title: "Действия",
            key: "actions",
            width: 120,
            render: (_, company) => (
              <Space>
                <Button
                  icon={<EditOutlined />}
                  aria-label={`Изменить ${company.name}`}
                  title="Изменить реквизиты"
                  onClick={() => setEditing(company)}
                />
                <Button
                  icon={<TeamOutlined />}
                  aria-label={`Пользователи ${company.name}`}
                  title="Пользователи"
                  onClick={() => onShowUsers(company.id)}
                />
              </Space>
            ),
          },
        ]}
      />
      <CompanyDialog
        open={editing !== null}
        company={editing === "new" || editing === null ? undefined : editing}
        onClose={() => setEditing(null)}
      />
    </>
  );
}
