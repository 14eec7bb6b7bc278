// The create/edit dialog (SPEC 2, 4): a Modal that loads what the form needs — the dictionaries
// of the type's bindings and the GWP sets, and on edit the calculation as stored now — and then
// starts the registry-driven form.
import { useEffect, useMemo, useState } from "react";
import { Alert, Button, Modal, Spin } from "antd";
import { useAtom } from "jotai";
import { REGISTRY, type FormulaType } from "../../../../wasm-core/src/registry";
import { useCalculation, useDictionaries, type Calculation, type Dictionary } from "./api";
import { calculationDialogAtom } from "./atoms";
import { CalculationForm } from "./CalculationForm";
import { formLayout, type FormContext } from "./form";

export function CalculationDialog({ type, projectId }: { type: FormulaType; projectId: string }) {
  const [dialog, setDialog] = useAtom(calculationDialogAtom);
  const close = () => setDialog(null);
  const editing = dialog?.mode === "edit" ? dialog.calculation : undefined;

  return (
    <Modal
      open={dialog !== null}
      title={editing ? "Редактирование расчета" : "Новый расчет"}
      onCancel={close}
      footer={null}
      width={1040}
      destroyOnHidden
      maskClosable={false}
    >
      {dialog &&
        (editing ? (
          <EditBody key={editing.id} type={type} projectId={projectId} calculation={editing} onDone={close} />
        ) : (
          <CreateBody type={type} projectId={projectId} onDone={close} />
        ))}
    </Modal>
  );
}

interface BodyProps {
  type: FormulaType;
  projectId: string;
  onDone(): void;
}

function useFormDictionaries(type: FormulaType) {
  const names = useMemo(() => formLayout(type).dictionaries, [type]);
  return useDictionaries(names);
}

function entriesOf(dictionaries: Readonly<Record<string, Dictionary>>) {
  return Object.fromEntries(Object.entries(dictionaries).map(([name, d]) => [name, d.results]));
}

function CreateBody({ type, projectId, onDone }: BodyProps) {
  const dictionaries = useFormDictionaries(type);
  const [generation, setGeneration] = useState(0);
  const ctx = useMemo<FormContext | undefined>(
    () => (dictionaries.data ? { type, mode: "create", dictionaries: entriesOf(dictionaries.data) } : undefined),
    [type, dictionaries.data],
  );
  if (dictionaries.error) return <LoadError text={dictionaries.error.message} retry={() => void dictionaries.refetch()} />;
  if (!ctx || !dictionaries.data) return <Loading />;
  return (
    <CalculationForm
      key={generation}
      ctx={ctx}
      dictionaries={dictionaries.data}
      projectId={projectId}
      onDone={onDone}
      onReload={() => void dictionaries.refetch().then(() => setGeneration((g) => g + 1))}
    />
  );
}

function EditBody({ type, projectId, calculation, onDone }: BodyProps & { calculation: Calculation }) {
  const dictionaries = useFormDictionaries(type);
  const stored = useCalculation(type, calculation.id);
  // The form edits the version fetched when it opened: a later refetch (the list reloads after a
  // 409) must not swap it underneath, or the next save would silently overwrite the other change.
  const [snapshot, setSnapshot] = useState<{ calculation: Calculation; generation: number }>();
  const fresh = stored.isFetchedAfterMount && !stored.isFetching ? stored.data : undefined;
  useEffect(() => {
    if (!snapshot && fresh) setSnapshot({ calculation: fresh, generation: 0 });
  }, [fresh, snapshot]);
  const ctx = useMemo<FormContext | undefined>(
    () =>
      dictionaries.data && snapshot
        ? { type, mode: "edit", dictionaries: entriesOf(dictionaries.data), stored: snapshot.calculation }
        : undefined,
    [type, dictionaries.data, snapshot],
  );
  const error = dictionaries.error ?? stored.error;
  if (error) {
    return (
      <LoadError
        text={error.message}
        retry={() => {
          void dictionaries.refetch();
          void stored.refetch();
        }}
      />
    );
  }
  if (!ctx || !dictionaries.data || !snapshot) return <Loading />;
  if (!REGISTRY[type].editable) return <Alert type="info" showIcon title="Расчет этого типа нельзя изменить: создайте новый" />;
  const reload = async () => {
    const [, again] = await Promise.all([dictionaries.refetch(), stored.refetch()]);
    if (again.data) setSnapshot({ calculation: again.data, generation: snapshot.generation + 1 });
  };
  return (
    <CalculationForm
      key={snapshot.generation}
      ctx={ctx}
      dictionaries={dictionaries.data}
      projectId={projectId}
      onDone={onDone}
      onReload={() => void reload()}
    />
  );
}

function Loading() {
  return (
    <div style={{ padding: 48, textAlign: "center" }}>
      <Spin />
    </div>
  );
}

function LoadError({ text, retry }: { text: string; retry(): void }) {
  return (
    <Alert
      type="error"
      showIcon
      title={`Не удалось загрузить данные расчета: ${text}`}
      action={<Button onClick={retry}>Повторить</Button>}
    />
  );
}
