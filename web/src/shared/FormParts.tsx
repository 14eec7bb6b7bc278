// What every calculation form has (docs/user-guide.md): the name first, focused when the dialog opens; at the
// foot, the save's error that belongs to no field — after a 409 with «Загрузить заново», which
// restarts the form from the calculation as stored now — then «Отмена» and «Создать» or «Сохранить».
import { memo, useCallback, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from "react";
import { Alert, Button, Flex, Form, Input, Typography } from "antd";
import { CALCULATION_NAME_MAX } from "@server/contract";

/** Where a form's fields put their submit, for the Form around them to call. */
export type SubmitRef = RefObject<(() => void) | undefined>;

/**
 * A calculation form's antd Form with the type's title, outside the fields' state: antd's Form hands
 * its items a new context value each time it is drawn, which redraws every Form.Item, so the fields,
 * whose state changes with each key typed, are drawn inside it and hand their submit in submitRef.
 */
export function FormOutsideFields({ name, title, fields }: { name: string; title: string; fields(submitRef: SubmitRef): ReactNode }) {
  const submitRef = useRef<() => void>(undefined);
  const onFinish = useCallback(() => submitRef.current?.(), []);
  return (
    <Form layout="vertical" onFinish={onFinish} name={name} requiredMark={false}>
      <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
        {title}
      </Typography.Paragraph>
      {fields(submitRef)}
    </Form>
  );
}

interface NameProps {
  value: string;
  onChange(name: string): void;
  style?: CSSProperties;
  /** The field's message, as the form's status() gives it. */
  validateStatus?: "error" | "warning";
  help?: ReactNode;
}

// Memoized, as FormFooter: a form that passes stable props does not redraw them for a key typed elsewhere.
export const NameField = memo(function NameField({ value, onChange, style, validateStatus, help }: NameProps) {
  return (
    <Form.Item label="Название расчета" htmlFor="calc-name" style={style} validateStatus={validateStatus} help={help}>
      <Input id="calc-name" value={value} maxLength={CALCULATION_NAME_MAX} autoFocus onChange={(event) => onChange(event.target.value)} />
    </Form.Item>
  );
});

/** A save error no field shows; `conflict`: another change was saved first (409). */
export interface TopError {
  text: string;
  conflict: boolean;
}

/** A calculation form's errors: `submitted` once a save was first tried (the form's own checks show
 *  from then), the server's refusals by field, and the one no field shows (`topError`, for FormFooter). */
export function useSaveErrors() {
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Readonly<Record<string, string>>>({});
  const [topError, setTopError] = useState<TopError | null>(null);
  return {
    submitted,
    serverErrors,
    topError,
    /** A save starts: the form's checks show, the earlier refusals go. */
    start() {
      setSubmitted(true);
      setTopError(null);
      setServerErrors({});
    },
    /** The field was changed: the server's message under it goes. */
    clear(target: string) {
      if (serverErrors[target]) setServerErrors(({ [target]: _cleared, ...rest }) => rest);
    },
    /** The server's refusal: under its field, or at the foot (a 409 with «Загрузить заново»). */
    refused(target: string | undefined, text: string, status: number) {
      if (target) setServerErrors((before) => ({ ...before, [target]: text }));
      else setTopError({ text, conflict: status === 409 });
    },
  };
}

interface Props {
  mode: "create" | "edit";
  error: TopError | null;
  saving: boolean;
  onCancel(): void;
  onReload(): void;
}

export const FormFooter = memo(function FormFooter({ mode, error, saving, onCancel, onReload }: Props) {
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
});
