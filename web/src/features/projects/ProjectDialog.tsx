// Add and edit share one dialog (SPEC 2). Inline messages come from the shared schema; a server
// refusal is shown in the dialog too: under its field when the detail names one, else on top.
import { useState } from "react";
import { Alert, App, Button, DatePicker, Flex, Form, Input, Modal } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useAtom } from "jotai";
import { DATE_FORMAT } from "../../shared/dates";
import { PROJECT_NAME_MAX } from "../../../../functions/src/schemas/project";
import type { ApiError } from "../../api/client";
import { useCreateProject, usePatchProject, type Project, type ProjectFields } from "./api";
import { projectDialogAtom } from "./atoms";
import { projectFieldErrors, splitFieldDetail, type ProjectField } from "./projectForm";

interface FormValues {
  name?: string;
  start_date?: Dayjs | null;
  end_date?: Dayjs | null;
}

function toFields(values: FormValues): ProjectFields {
  return {
    name: (values.name ?? "").trim(),
    start_date: values.start_date ? values.start_date.format(DATE_FORMAT) : "",
    end_date: values.end_date ? values.end_date.format(DATE_FORMAT) : "",
  };
}

function initialValues(project: Project | undefined): FormValues {
  if (!project) return {};
  return { name: project.name, start_date: dayjs(project.start_date), end_date: dayjs(project.end_date) };
}

export function ProjectDialog({ owner }: { owner: { company: string; user: string } }) {
  const [dialog, setDialog] = useAtom(projectDialogAtom);
  const close = () => setDialog(null);
  const editing = dialog?.mode === "edit" ? dialog.project : undefined;

  return (
    <Modal
      open={dialog !== null}
      title={editing ? "Редактирование проекта" : "Новый проект"}
      onCancel={close}
      footer={null}
      destroyOnHidden
    >
      {dialog && <ProjectForm key={editing?.id ?? "new"} project={editing} owner={owner} onDone={close} />}
    </Modal>
  );
}

function ProjectForm({
  project,
  owner,
  onDone,
}: {
  project: Project | undefined;
  owner: { company: string; user: string };
  onDone: () => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const create = useCreateProject(owner);
  const patch = usePatchProject();
  const { message } = App.useApp();
  const [serverError, setServerError] = useState<string | null>(null);

  // Every field validates against the whole draft, because end ≥ start needs both dates.
  const rule = (field: ProjectField) => ({
    validator: () => {
      const error = projectFieldErrors(toFields(form.getFieldsValue(true)))[field];
      return error ? Promise.reject(new Error(error)) : Promise.resolve();
    },
  });

  // A 409 (someone saved first) has no field: it shows on top, and the list behind is reloaded.
  const showServerError = ({ detail }: ApiError) => {
    const { field, message: text } = splitFieldDetail(detail);
    if (field) form.setFields([{ name: field, errors: [text] }]);
    else setServerError(detail);
  };

  const onFinish = (values: FormValues) => {
    setServerError(null);
    const fields = toFields(values);
    const handlers = {
      onSuccess: () => {
        message.success(project ? "Проект сохранен" : "Проект создан");
        onDone();
      },
      onError: showServerError,
    };
    if (project) patch.mutate({ project, changes: fields }, handlers);
    else create.mutate(fields, handlers);
  };

  return (
    <Form<FormValues> form={form} layout="vertical" initialValues={initialValues(project)} onFinish={onFinish} name="project">
      <Form.Item label="Название" name="name" rules={[rule("name")]}>
        <Input maxLength={PROJECT_NAME_MAX} showCount autoFocus />
      </Form.Item>
      <Flex gap={16}>
        <Form.Item label="Дата начала" name="start_date" rules={[rule("start_date")]} style={{ flex: 1 }}>
          <DatePicker format={DATE_FORMAT} style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item
          label="Дата окончания"
          name="end_date"
          dependencies={["start_date"]}
          rules={[rule("end_date")]}
          style={{ flex: 1 }}
        >
          <DatePicker format={DATE_FORMAT} style={{ width: "100%" }} />
        </Form.Item>
      </Flex>
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
