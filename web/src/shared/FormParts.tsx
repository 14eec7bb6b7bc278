// What every calculation form has (docs/user-guide.md): the name first, focused when the dialog opens; at the
// foot, the save's error that belongs to no field — after a 409 with «Загрузить заново», which
// restarts the form from the calculation as stored now — then «Отмена» and «Создать» or «Сохранить».
import type { CSSProperties, ReactNode } from "react";
import { Alert, Button, Flex, Form, Input } from "antd";
import { CALCULATION_NAME_MAX } from "@server/contract";

interface NameProps {
  value: string;
  onChange(name: string): void;
  style?: CSSProperties;
  /** The field's message, as the form's status() gives it. */
  validateStatus?: "error" | "warning";
  help?: ReactNode;
}

export function NameField({ value, onChange, style, validateStatus, help }: NameProps) {
  return (
    <Form.Item label="Название расчета" htmlFor="calc-name" style={style} validateStatus={validateStatus} help={help}>
      <Input id="calc-name" value={value} maxLength={CALCULATION_NAME_MAX} autoFocus onChange={(event) => onChange(event.target.value)} />
    </Form.Item>
  );
}

/** A save error no field shows; `conflict`: another change was saved first (409). */
export interface TopError {
  text: string;
  conflict: boolean;
}

interface Props {
  mode: "create" | "edit";
  error: TopError | null;
  saving: boolean;
  onCancel(): void;
  onReload(): void;
}

export function FormFooter({ mode, error, saving, onCancel, onReload }: Props) {
  return (
    <>
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={error.text}
          description={error.conflict ? "Загрузите данные заново и повторите сохранение." : undefined}
          action={error.conflict ? <Button onClick={onReload}>Загрузить заново</Button> : undefined}
          style={{ marginTop: 16 }}
        />
      )}
      <Flex justify="end" gap={8} style={{ marginTop: 16 }}>
        <Button onClick={onCancel}>Отмена</Button>
        <Button type="primary" htmlType="submit" loading={saving}>
          {mode === "edit" ? "Сохранить" : "Создать"}
        </Button>
      </Flex>
    </>
  );
}
