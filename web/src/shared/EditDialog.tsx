// The dialog that makes a record or changes one (a project, a calculation), opened by its atom:
// {mode: "create"}, or {mode: "edit"} with the record. Its title says which, its form brings its own
// buttons, and it is dropped on closing; its body is drawn while it is open, given the record edited
// (none for a new one) and what closes the dialog.
import type { ReactNode } from "react";
import { Modal } from "antd";
import { useAtom, type PrimitiveAtom } from "jotai";

/** The state of such a dialog: closed (null), making a record, or changing the one under `K`. */
export type EditState<K extends string, R> = { mode: "create" } | ({ mode: "edit" } & Record<K, R>) | null;

/** The record an edit state `S` holds under `K`. */
type Edited<S, K extends string> = S extends { mode: "edit" } & Record<K, infer R> ? R : never;

interface Props<K extends string, S extends EditState<K, unknown>> {
  state: PrimitiveAtom<S>;
  /** The record's name in the state: «project». */
  record: K;
  titles: { create: string; edit: string };
  /** antd's 520 px unless told. */
  width?: number;
  /** Whether a click beside the dialog closes it: it does unless told. */
  maskClosable?: boolean;
  children(editing: Edited<S, K> | undefined, close: () => void): ReactNode;
}

export function EditDialog<K extends string, S extends EditState<K, unknown>>({
  state,
  record,
  titles,
  width,
  maskClosable,
  children,
}: Props<K, S>) {
  const [dialog, setDialog] = useAtom(state);
  const close = () => setDialog(null as S);
  const editing = dialog?.mode === "edit" ? (dialog as Record<K, Edited<S, K>>)[record] : undefined;
  return (
    <Modal
      open={dialog !== null}
      title={editing ? titles.edit : titles.create}
      onCancel={close}
      footer={null}
      width={width}
      destroyOnHidden
      maskClosable={maskClosable}
    >
      {dialog && children(editing, close)}
    </Modal>
  );
}
