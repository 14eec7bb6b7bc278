// A dialog that holds one antd form: its button submits the form, «Отмена» closes it, and the form
// is dropped on closing, so it opens afresh; what the server refuses shows at the fields it names,
// anything else as a message.
import type { ReactNode } from "react";
import { Modal, type FormInstance } from "antd";
import { fieldErrors } from "./fieldErrors";

interface Props {
  form: FormInstance;
  open: boolean;
  title: ReactNode;
  /** The submit button's text: «Сохранить» unless told. */
  okText?: string;
  saving: boolean;
  onClose(): void;
  /** antd's 520 px unless told. */
  width?: number;
  children: ReactNode;
}

export function FormDialog({ form, open, title, okText = "Сохранить", saving, onClose, width, children }: Props) {
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText="Отмена"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      width={width}
      destroyOnHidden
    >
      {children}
    </Modal>
  );
}

/** A save's refusal at the fields of `form` it names; any other, `otherwise` (a message). */
export function showRefusal(form: FormInstance, error: unknown, fields: readonly string[], otherwise: (error: unknown) => void): void {
  const problems = fieldErrors(error, fields);
  if (problems) form.setFields(problems);
  else otherwise(error);
}

/** The form's text fields as sent: each of `fields`, trimmed, an absent one empty. */
export function trimmedFields<F extends string>(values: Partial<Record<F, string | null>>, fields: readonly F[]): Record<F, string> {
  return Object.fromEntries(fields.map((f) => [f, (values[f] ?? "").trim()])) as Record<F, string>;
}
