// The create/edit dialog (docs/user-guide.md): a Modal that loads what the form needs — the dictionaries
// of the type's bindings and the GWP sets, and on edit the calculation as stored now — and then
// starts the form of the type's kind: the registry-driven formula form, the regression's form
// (an extra large dialog, docs/user-guide.md) or the form of a file-based type — these two from the
// registry app/ fills (shared/calculationKindRegistry.ts).
import { Suspense, useEffect, useMemo, useState } from "react";
import { Alert, Spin } from "antd";
import { REGISTRY, isFormulaType, type CalculationType, type FormulaType } from "@core/registry";
import { EditDialog } from "../../shared/EditDialog";
import { LoadError } from "../../shared/LoadError";
import { useCalculation, useDictionaries, useProject, type Calculation, type Dictionary } from "../../api/calculations";
import { calculationDialogAtom } from "./atoms";
import { CalculationForm } from "./CalculationForm";
import { formLayout, gwpSetInForce, GWP_DICTIONARY, type FormContext } from "./form";
import { calculationKind } from "../../shared/calculationKindRegistry";

/** Dialog widths by kind: the regression's data table needs an extra large one (docs/user-guide.md). */
export function dialogWidth(type: CalculationType): number {
  const kind = REGISTRY[type].kind;
  return kind === "forecast" ? 1440 : kind === "file" ? 880 : 1040;
}

export function CalculationDialog({ type, projectId }: { type: CalculationType; projectId: string }) {
  return (
    <EditDialog
      state={calculationDialogAtom}
      record="calculation"
      titles={{ create: "Новый расчет", edit: "Редактирование расчета" }}
      width={dialogWidth(type)}
      maskClosable={false}
    >
      {(editing, close) =>
        !isFormulaType(type) ? (
          <OtherBody key={editing?.id ?? "new"} type={type} projectId={projectId} calculation={editing} onDone={close} />
        ) : editing ? (
          <EditBody key={editing.id} type={type} projectId={projectId} calculation={editing} onDone={close} />
        ) : (
          <CreateBody type={type} projectId={projectId} onDone={close} />
        )
      }
    </EditDialog>
  );
}

interface BodyProps {
  type: FormulaType;
  projectId: string;
  onDone(): void;
}

/** The calculation's data did not load: why, and «Повторить», which asks each of `retry` again. */
function DataLoadError({ error, retry }: { error: Error; retry: Array<() => Promise<unknown>> }) {
  return <LoadError what="данные расчета" message={error.message} retry={() => retry.forEach((again) => void again())} />;
}

function useFormDictionaries(type: FormulaType) {
  const names = useMemo(() => formLayout(type).dictionaries, [type]);
  return useDictionaries(names);
}

function entriesOf(dictionaries: Readonly<Record<string, Dictionary>>) {
  return Object.fromEntries(Object.entries(dictionaries).map(([name, d]) => [name, d.results]));
}

/** D12: the GWP set in force for the project's reporting year, once the project is known. */
function useGwpInForce(projectId: string, dictionaries: Readonly<Record<string, Dictionary>> | undefined) {
  const project = useProject(projectId);
  const ready = project.data !== undefined || project.isError;
  const year = project.data?.reporting_year;
  const id = gwpSetInForce(dictionaries?.[GWP_DICTIONARY]?.results ?? [], year)?.id;
  // D19: the project's dates, for the calculation's period.
  const data = project.data;
  const dates = useMemo(
    () =>
      data
        ? { start_date: data.start_date, end_date: data.end_date, facility: data.facility ?? null, reporting_year: data.reporting_year }
        : undefined,
    [data],
  );
  return { ready, id, dates };
}

function CreateBody({ type, projectId, onDone }: BodyProps) {
  const dictionaries = useFormDictionaries(type);
  const gwp = useGwpInForce(projectId, dictionaries.data);
  const [generation, setGeneration] = useState(0);
  const ctx = useMemo<FormContext | undefined>(
    () =>
      dictionaries.data && gwp.ready
        ? { type, mode: "create", dictionaries: entriesOf(dictionaries.data), gwpInForce: gwp.id, project: gwp.dates }
        : undefined,
    [type, dictionaries.data, gwp.ready, gwp.id, gwp.dates],
  );
  if (dictionaries.error) {
    return <DataLoadError error={dictionaries.error} retry={[dictionaries.refetch]} />;
  }
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

/**
 * Edit starts from the calculation as stored now. The form edits the version fetched when it
 * opened: a later refetch (the list reloads after a 409) must not swap it underneath, or the next
 * save would silently overwrite the other change. `reload` fetches it again and restarts the form.
 */
function useStoredSnapshot(type: CalculationType, id: string | undefined) {
  const stored = useCalculation(type, id ?? "", undefined, id !== undefined);
  const [snapshot, setSnapshot] = useState<{ calculation: Calculation; generation: number }>();
  const fresh = stored.isFetchedAfterMount && !stored.isFetching ? stored.data : undefined;
  useEffect(() => {
    if (!snapshot && fresh) setSnapshot({ calculation: fresh, generation: 0 });
  }, [fresh, snapshot]);
  return { stored, snapshot, setSnapshot };
}

function EditBody({ type, projectId, calculation, onDone }: BodyProps & { calculation: Calculation }) {
  const dictionaries = useFormDictionaries(type);
  const { stored, snapshot, setSnapshot } = useStoredSnapshot(type, calculation.id);
  const gwp = useGwpInForce(projectId, dictionaries.data);
  const ctx = useMemo<FormContext | undefined>(
    () =>
      dictionaries.data && snapshot && gwp.ready
        ? {
            type,
            mode: "edit",
            dictionaries: entriesOf(dictionaries.data),
            stored: snapshot.calculation,
            gwpInForce: gwp.id,
            project: gwp.dates,
          }
        : undefined,
    [type, dictionaries.data, snapshot, gwp.ready, gwp.id, gwp.dates],
  );
  const error = dictionaries.error ?? stored.error;
  if (error) return <DataLoadError error={error} retry={[dictionaries.refetch, stored.refetch]} />;
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

/** regres_methane and the file-based types: their forms, after the stored calculation (edit) and the GWP sets (sensitivity). */
function OtherBody({
  type,
  projectId,
  calculation,
  onDone,
}: {
  type: CalculationType;
  projectId: string;
  calculation?: Calculation;
  onDone(): void;
}) {
  const kind = calculationKind(type);
  const gwpNames = useMemo(() => (kind?.needsGwp(type) ? [GWP_DICTIONARY] : []), [kind, type]);
  const dictionaries = useDictionaries(gwpNames);
  const gwp = useGwpInForce(projectId, dictionaries.data);
  const { stored, snapshot, setSnapshot } = useStoredSnapshot(type, calculation?.id);
  const [generation, setGeneration] = useState(0);
  const error = dictionaries.error ?? (calculation ? stored.error : null);
  if (error) return <DataLoadError error={error} retry={calculation ? [dictionaries.refetch, stored.refetch] : [dictionaries.refetch]} />;
  if (!dictionaries.data || !gwp.ready || (calculation && !snapshot)) return <Loading />;
  const current = snapshot?.calculation;
  const mode = calculation ? "edit" : "create";
  const reload = async () => {
    await dictionaries.refetch();
    if (calculation) {
      const again = await stored.refetch();
      if (again.data) setSnapshot({ calculation: again.data, generation: (snapshot?.generation ?? 0) + 1 });
    } else setGeneration((g) => g + 1);
  };
  const key = `${snapshot?.generation ?? 0}-${generation}`;
  if (!kind) return null;
  return (
    <Suspense fallback={<Loading />}>
      <kind.Form
        key={key}
        type={type}
        mode={mode}
        projectId={projectId}
        gwpEntries={dictionaries.data[GWP_DICTIONARY]?.results ?? []}
        gwpInForce={gwp.id}
        stored={current}
        onDone={onDone}
        onReload={() => void reload()}
      />
    </Suspense>
  );
}

function Loading() {
  return (
    <div style={{ padding: 48, textAlign: "center" }}>
      <Spin />
    </div>
  );
}
