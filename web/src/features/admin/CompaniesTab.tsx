// «Компании»: every company of the platform, created and edited here. The requisites are checked in
// the form by the server's own rules (functions/src/contract/schemas/company.ts).
import { zoneOf } from "@core/company-clock";
import { useState } from "react";
import { Button, Form, Space } from "antd";
import { Table } from "../../shared/LazyTable";
import { EditOutlined, PlusOutlined, TeamOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { adminKeys, createCompany, errorText, patchCompany, useCompanies, type Company, type CompanyBody } from "../../api/admin";
import { useFeedback } from "../../shared/feedback";
import { CompanyRequisiteFields, REQUISITE_FIELDS, requisiteForm } from "../../shared/CompanyRequisiteFields";
import { FormDialog, showRefusal, trimmedFields } from "../../shared/FormDialog";
import { actionsColumn, useListPagination } from "./listParts";

type CompanyForm = Record<(typeof REQUISITE_FIELDS)[number], string>;

function CompanyDialog({ company, open, onClose }: { company?: Company; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<CompanyForm>();
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const save = useMutation({
    mutationFn: (values: CompanyForm) => {
      const body: CompanyBody = trimmedFields(values, REQUISITE_FIELDS);
      return company ? patchCompany(company, body) : createCompany(body);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.companies });
      await queryClient.invalidateQueries({ queryKey: adminKeys.auditAll });
      message.success(company ? "Реквизиты сохранены" : "Компания создана");
      onClose();
    },
    onError: (error) => showRefusal(form, error, REQUISITE_FIELDS, () => message.error(errorText(error))),
  });

  return (
    <FormDialog
      form={form}
      open={open}
      title={company ? `Реквизиты: ${company.name}` : "Новая компания"}
      okText={company ? "Сохранить" : "Создать"}
      saving={save.isPending}
      onClose={onClose}
    >
      <Form<CompanyForm>
        form={form}
        layout="vertical"
        initialValues={company && { ...company, time_zone: zoneOf(company) }}
        onFinish={(values) => save.mutate(values)}
        preserve={false}
        {...requisiteForm(form)}
      >
        <CompanyRequisiteFields />
      </Form>
    </FormDialog>
  );
}

export function CompaniesTab({ onShowUsers }: { onShowUsers: (companyId: string) => void }) {
  const { data, isLoading } = useCompanies();
  const [editing, setEditing] = useState<Company | "new" | null>(null);
  const pagination = useListPagination();

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
        pagination={pagination}
        columns={[
          { title: "Название", dataIndex: "name" },
          { title: "ОГРН", dataIndex: "ogrn", width: 160 },
          { title: "ОКВЭД", dataIndex: "okved", width: 100 },
          { title: "Регион", dataIndex: "region" },
          { title: "E-mail", dataIndex: "email" },
          actionsColumn(120, (company) => (
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
          )),
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
