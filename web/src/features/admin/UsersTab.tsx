// «Пользователи»: the users of the company chosen above the table — create, edit names, role and duty
// at the mine (who confirms a gassing book entry),
// deactivate/activate, reset the password, move to another company (the server refuses a user who
// already created projects or calculations).
import { useState } from "react";
import { Alert, Button, Form, Input, Modal, Popconfirm, Select, Space, Tag, Typography, type TableColumnsType } from "antd";
import { PASSWORD_MIN_LENGTH } from "@server/contract/schemas/limits";
import { DUTIES, DUTY_LABELS } from "@core/gassing-book";
import { CHECK_DUTIES, CHECK_DUTY_LABELS, type MineDuty as Duty } from "@core/sensor-checks";
import { EditOutlined, KeyOutlined, PlusOutlined, StopOutlined, SwapOutlined, CheckCircleOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  adminKeys,
  createUser,
  errorText,
  fieldError,
  patchUser,
  resetPassword,
  ROLE_LABELS,
  useCompanies,
  useCompanyUsers,
  type AdminUser,
  type Company,
  type Role,
} from "../../api/admin";
import { useFeedback } from "../../shared/feedback";
import { actionsColumn, ChosenList } from "./listParts";
import { showRefusal } from "../../shared/FormDialog";

const USER_FIELDS = ["email", "password", "first_name", "last_name", "role", "duty"] as const;

interface UserForm {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  role: Role;
  /** who confirms a gassing book entry; "none": nobody. */
  duty: Duty | "none";
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const dutyOptions = [
  { value: "none", label: "Нет" },
  ...DUTIES.map((value) => ({ value, label: `${capital(DUTY_LABELS[value])} (подтверждает книгу загазирований)` })),
  ...CHECK_DUTIES.map((value) => ({ value, label: `${capital(CHECK_DUTY_LABELS[value])} (подписывает проверки датчиков)` })),
];
const dutyOf = (values: UserForm) => (values.duty === "none" ? null : values.duty);

const roleOptions = (Object.keys(ROLE_LABELS) as Role[]).map((value) => ({ value, label: ROLE_LABELS[value] }));

function useInvalidate(companyId: string) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: ["admin", "companies", companyId, "users"] });
    await queryClient.invalidateQueries({ queryKey: adminKeys.auditAll });
  };
}

function UserDialog({ companyId, user, onClose }: { companyId: string; user?: AdminUser; onClose: () => void }) {
  const [form] = Form.useForm<UserForm>();
  const { message } = useFeedback();
  const invalidate = useInvalidate(companyId);
  const save = useMutation({
    mutationFn: (values: UserForm) =>
      user
        ? patchUser(companyId, user.id, {
            first_name: values.first_name ?? "",
            last_name: values.last_name ?? "",
            role: values.role,
            duty: dutyOf(values),
          })
        : createUser(companyId, { ...values, duty: dutyOf(values) }),
    onSuccess: async () => {
      await invalidate();
      message.success(user ? "Пользователь сохранен" : "Пользователь создан");
      onClose();
    },
    onError: (error) => showRefusal(form, error, USER_FIELDS, () => message.error(errorText(error))),
  });

  return (
    <Modal
      open
      title={user ? `Пользователь ${user.email}` : "Новый пользователь"}
      okText={user ? "Сохранить" : "Создать"}
      cancelText="Отмена"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
    >
      <Form<UserForm>
        form={form}
        layout="vertical"
        initialValues={user ? { ...user, duty: user.duty ?? "none" } : { role: "staff", duty: "none" }}
        onFinish={(values) => save.mutate(values)}
      >
        {!user && (
          <>
            <Form.Item
              label="E-mail (логин)"
              name="email"
              rules={[{ required: true, type: "email", message: "Укажите корректный e-mail" }]}
            >
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item
              label="Пароль"
              name="password"
              rules={[{ required: true, min: PASSWORD_MIN_LENGTH, message: `Пароль не короче ${PASSWORD_MIN_LENGTH} символов` }]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </>
        )}
        <Form.Item label="Имя" name="first_name">
          <Input />
        </Form.Item>
        <Form.Item label="Фамилия" name="last_name">
          <Input />
        </Form.Item>
        <Form.Item label="Роль" name="role">
          <Select options={roleOptions} />
        </Form.Item>
        <Form.Item label="Обязанность на шахте" name="duty">
          <Select aria-label="Обязанность на шахте" options={dutyOptions} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function PasswordDialog({ companyId, user, onClose }: { companyId: string; user: AdminUser; onClose: () => void }) {
  const [form] = Form.useForm<{ password?: string }>();
  const { message } = useFeedback();
  const invalidate = useInvalidate(companyId);
  const [generated, setGenerated] = useState<string | null>(null);
  const reset = useMutation({
    mutationFn: (password?: string) => resetPassword(companyId, user.id, password),
    onSuccess: async (out) => {
      await invalidate();
      if (out.password) setGenerated(out.password);
      else {
        message.success("Пароль изменен");
        onClose();
      }
    },
    onError: (error) => {
      const field = fieldError(error, ["password"]);
      if (field) form.setFields([field]);
      else message.error(errorText(error));
    },
  });

  return (
    <Modal
      open
      title={`Сброс пароля: ${user.email}`}
      okText={generated ? "Готово" : "Сбросить пароль"}
      cancelText="Отмена"
      onOk={() => (generated ? onClose() : form.submit())}
      onCancel={onClose}
      confirmLoading={reset.isPending}
    >
      {generated ? (
        <Alert
          type="success"
          showIcon
          title="Новый пароль создан"
          description={
            <>
              Передайте его пользователю; больше он показан не будет:{" "}
              <Typography.Text code copyable>
                {generated}
              </Typography.Text>
            </>
          }
        />
      ) : (
        <Form form={form} layout="vertical" onFinish={(values) => reset.mutate(values.password || undefined)}>
          <Form.Item
            label="Новый пароль"
            name="password"
            extra="Оставьте пустым, чтобы создать случайный пароль."
            rules={[{ min: PASSWORD_MIN_LENGTH, message: `Пароль не короче ${PASSWORD_MIN_LENGTH} символов` }]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

function MoveDialog({
  companyId,
  user,
  companies,
  onClose,
}: {
  companyId: string;
  user: AdminUser;
  companies: Company[];
  onClose: () => void;
}) {
  const [target, setTarget] = useState<string>();
  const { message } = useFeedback();
  const invalidate = useInvalidate(companyId);
  const queryClient = useQueryClient();
  const move = useMutation({
    mutationFn: () => patchUser(companyId, user.id, { company: target }),
    onSuccess: async () => {
      await invalidate();
      await queryClient.invalidateQueries({ queryKey: adminKeys.users(target!) });
      message.success("Пользователь переведен");
      onClose();
    },
  });
  return (
    <Modal
      open
      title={`Перевод в другую компанию: ${user.email}`}
      okText="Перевести"
      cancelText="Отмена"
      okButtonProps={{ disabled: !target }}
      onOk={() => move.mutate()}
      onCancel={onClose}
      confirmLoading={move.isPending}
    >
      <Typography.Paragraph type="secondary">
        Перевод невозможен, если пользователь уже создал проекты или расчеты в своей компании.
      </Typography.Paragraph>
      <CompanySelect
        companies={companies.filter((c) => c.id !== companyId)}
        value={target}
        onChange={setTarget}
        label="Новая компания"
        placeholder="Компания"
        width="100%"
      />
      {move.isError && <Alert type="error" showIcon style={{ marginTop: 12 }} title={errorText(move.error)} />}
    </Modal>
  );
}

/** A company chosen by its name, found as it is typed. */
function CompanySelect({
  companies,
  loading,
  value,
  onChange,
  label,
  placeholder,
  width,
}: {
  companies: Company[];
  loading?: boolean;
  value: string | undefined;
  onChange(id: string): void;
  label: string;
  placeholder: string;
  width: number | string;
}) {
  return (
    <Select
      style={{ width }}
      placeholder={placeholder}
      aria-label={label}
      loading={loading}
      value={value}
      onChange={onChange}
      options={companies.map((c) => ({ value: c.id, label: c.name }))}
      showSearch={{ optionFilterProp: "label" }}
    />
  );
}

type Dialog = { kind: "create" } | { kind: "edit" | "password" | "move"; user: AdminUser } | null;

export function UsersTab({ companyId, onCompanyChange }: { companyId?: string; onCompanyChange: (id: string) => void }) {
  const companies = useCompanies();
  const users = useCompanyUsers(companyId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const { message } = useFeedback();
  const invalidate = useInvalidate(companyId ?? "");
  const setActive = useMutation({
    mutationFn: ({ user, active }: { user: AdminUser; active: boolean }) => patchUser(companyId!, user.id, { is_active: active }),
    onSuccess: async (_, { active }) => {
      await invalidate();
      message.success(active ? "Пользователь включен" : "Пользователь отключен");
    },
    onError: (error) => message.error(errorText(error)),
  });

  const columns: TableColumnsType<AdminUser> = [
    { title: "E-mail", dataIndex: "email" },
    { title: "Имя", key: "name", render: (_, u) => [u.first_name, u.last_name].filter(Boolean).join(" ") || "—" },
    {
      title: "Роль",
      dataIndex: "role",
      render: (role: Role) => <Tag color={role === "admin" ? "gold" : "default"}>{ROLE_LABELS[role]}</Tag>,
    },
    {
      title: "Статус",
      dataIndex: "is_active",
      render: (active: boolean) => (active ? <Tag color="green">Активен</Tag> : <Tag color="red">Отключен</Tag>),
    },
    actionsColumn(200, (user) => (
      <Space>
        <Button
          icon={<EditOutlined />}
          title="Изменить"
          aria-label={`Изменить ${user.email}`}
          onClick={() => setDialog({ kind: "edit", user })}
        />
        <Button
          icon={<KeyOutlined />}
          title="Сбросить пароль"
          aria-label={`Сбросить пароль ${user.email}`}
          onClick={() => setDialog({ kind: "password", user })}
        />
        <Button
          icon={<SwapOutlined />}
          title="Перевести в другую компанию"
          aria-label={`Перевести ${user.email}`}
          onClick={() => setDialog({ kind: "move", user })}
        />
        <Popconfirm
          title={user.is_active ? "Отключить пользователя?" : "Включить пользователя?"}
          description={user.is_active ? "Он не сможет войти, выданные токены перестанут действовать." : undefined}
          okText={user.is_active ? "Отключить" : "Включить"}
          cancelText="Отмена"
          onConfirm={() => setActive.mutate({ user, active: !user.is_active })}
        >
          <Button
            danger={user.is_active}
            icon={user.is_active ? <StopOutlined /> : <CheckCircleOutlined />}
            title={user.is_active ? "Отключить" : "Включить"}
            aria-label={`${user.is_active ? "Отключить" : "Включить"} ${user.email}`}
          />
        </Popconfirm>
      </Space>
    )),
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <CompanySelect
          companies={companies.data?.results ?? []}
          loading={companies.isLoading}
          value={companyId}
          onChange={onCompanyChange}
          label="Компания"
          placeholder="Выберите компанию"
          width={360}
        />
        <Button type="primary" icon={<PlusOutlined />} disabled={!companyId} onClick={() => setDialog({ kind: "create" })}>
          Добавить пользователя
        </Button>
      </Space>
      <ChosenList<AdminUser>
        chosen={Boolean(companyId)}
        list={users}
        empty="В компании нет пользователей"
        choose="Выберите компанию"
        columns={columns}
      />
      {companyId && dialog?.kind === "create" && <UserDialog companyId={companyId} onClose={() => setDialog(null)} />}
      {companyId && dialog?.kind === "edit" && <UserDialog companyId={companyId} user={dialog.user} onClose={() => setDialog(null)} />}
      {companyId && dialog?.kind === "password" && (
        <PasswordDialog companyId={companyId} user={dialog.user} onClose={() => setDialog(null)} />
      )}
      {companyId && dialog?.kind === "move" && (
        <MoveDialog companyId={companyId} user={dialog.user} companies={companies.data?.results ?? []} onClose={() => setDialog(null)} />
      )}
    </>
  );
}
