// The create/edit form of a formula calculation, drawn row by row from the registry (form.ts):
// selectors of dictionary entries, their values read-only (or typed, in «Фактическое значение»
// mode), free inputs with units, fixed values, the GWP set, and the live preview computed by the
// same wasm core the server uses. A core or server message about a field shows under that field.
import { DESTRUCTION_KINDS, burnsDrainedGas, type InventoryRole } from "@core/inventory";
import type { FormulaType, MeasuredPeriodField, MethaneBasis } from "@core/registry";
import { useCoalOutput, usePoints } from "../../api/inventory";
import { DrainageField } from "./DrainageField";
import type { CalculationCreateBody, CalculationPatchBody } from "@server/contract";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { usePhone } from "../../shared/useMediaQuery";
import { Card, Col, Flex, Row, Typography } from "antd";
import { MEASURED_PERIOD, REGISTRY, productionFieldOf, type NumberField } from "@core/registry";
import { MEASUREMENT_NOTE_NAMES, periodField, type MeasurementNote } from "@core/measured-release";
import { basisAsked } from "@core/methane-balance";
import { decimalPlaces, formatStored, numericInputProblem } from "../../shared/decimals";
import { useInputDecimals } from "../../shared/useInputDecimals";
import { isApiError, type ApiError } from "../../api/client";
import {
  sendBody,
  useCreateCalculation,
  usePatchCalculation,
  useSaveCalculation,
  type Calculation,
  type Dictionary,
} from "../../api/calculations";
// The wasm emission core of the live preview: the same bytes the server computes with, loaded once.
import { useEmissionsCore } from "../../shared/wasmCore";
import { PeriodsEditor, periodInputId } from "./PeriodsEditor";
import { PeriodField } from "./PeriodField";
import { PointField } from "./PointField";
import { takesPoint } from "@core/inventory";
import { uploadEvidence } from "./evidence";
import {
  CUSTOM,
  MEASURED_TYPE,
  GWP_DICTIONARY,
  addPeriod,
  bandWarnings,
  givenByPeriods,
  periodsFileForm,
  compositionHidden,
  removePeriod,
  setPeriodText,
  takesPeriods,
  withPeriods,
  withCoalOutput,
  withPointNotes,
  numberText,
  buildPayload,
  chooseEntry,
  chooseGwp,
  chooseUnit,
  entryUnit,
  fieldValues,
  computePreview,
  formLayout,
  gwpValue,
  initialState,
  isEditable,
  messageTarget,
  previewArgs,
  setJustification,
  setText,
  shownUnit,
  splitDetail,
  boundValue,
  type Choice,
  type FormContext,
  type FormRow,
  type FormState,
  type Preview,
} from "./form";
import { FormFooter, FormOutsideFields, NameField, type SubmitRef, type TopError } from "../../shared/FormParts";
import { ResultValues } from "./ResultValues";
import {
  UncertaintyEditor,
  initialDrafts,
  uncertaintyPayload,
  type UncertaintyDraft,
  type UncertaintyDrafts,
} from "../../shared/uncertainty/UncertaintyEditor";
import {
  BY_YEAR,
  BasisField,
  BoundRow,
  FixedRow,
  FreeRow,
  GwpRow,
  InventoryRoleField,
  MeasurementNoteField,
  PeriodsFileField,
  SelectRow,
  VolumeModeField,
  fieldId,
  fieldStatus,
  type FieldMessages,
} from "./FormRows";
import { useFeedback } from "../../shared/feedback";
import { withoutFieldNames } from "../../shared/fieldErrors";
import { useKeepOwnFactor, useOwnFactors, type OwnFactor } from "../../api/ownFactors";
import { draftOf, keepableOf, keptAs, takeOwnFactor } from "./ownFactors";

export const NAME_REQUIRED = "Введите название расчета";

interface Props {
  ctx: FormContext;
  /** Dictionaries with their titles (the selectors' labels), by name. */
  dictionaries: Readonly<Record<string, Dictionary>>;
  projectId: string;
  onDone(): void;
  /** Edit after a 409: fetch the calculation and dictionaries again and restart the form. */
  onReload(): void;
}

export function CalculationForm(props: Props) {
  return (
    <FormOutsideFields
      name="calculation"
      title={REGISTRY[props.ctx.type].title}
      fields={(submitRef) => <CalculationFields {...props} submitRef={submitRef} />}
    />
  );
}

function CalculationFields({ ctx, dictionaries, projectId, onDone, onReload, submitRef }: Props & { submitRef: SubmitRef }) {
  const layout = useMemo(() => formLayout(ctx.type), [ctx.type]);
  const [state, setState] = useState<FormState>(() => initialState(ctx));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  // Messages of the last submit (blank name, server 400) by dialog target; typing there clears one.
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [topError, setTopError] = useState<TopError | null>(null);
  const [drafts, setDrafts] = useState<UncertaintyDrafts>(() => initialDrafts(ctx.type, ctx.stored));
  const [uncertaintyProblem, setUncertaintyProblem] = useState<string | undefined>();
  const decimals = useInputDecimals(ctx.mode);
  // A value the form itself put in a field (the stored one on edit, the entry's on «Фактическое
  // значение») keeps its own precision: the setting limits what is typed, not what was there.
  const [presetPlaces, setPresetPlaces] = useState<Readonly<Record<string, number>>>(() => placesOf(state.texts));
  const fieldDecimals = (name: string) => Math.max(decimals, presetPlaces[name] ?? 0);
  const core = useEmissionsCore();
  const create = useCreateCalculation(ctx.type);
  const patch = usePatchCalculation(ctx.type);
  // D10: evidence files chosen beside custom values, attached once the calculation is saved.
  const [evidence, setEvidence] = useState<Readonly<Record<string, File>>>({});
  const attach = useSaveCalculation();
  // D14: a file of periods (Excel template or a monitoring system's CSV) instead of typed ones.
  const [periodsFile, setPeriodsFile] = useState<File>();
  const phone = usePhone();
  const byFile = state.periods !== undefined && periodsFile !== undefined;
  const { message } = useFeedback();

  const preview = useMemo((): Preview | { kind: "failed"; message: string } | undefined => {
    if (!core.data) return undefined;
    try {
      return computePreview(core.data, ctx, state);
    } catch (error) {
      return { kind: "failed", message: error instanceof Error ? error.message : String(error) };
    }
  }, [core.data, ctx, state]);
  const warnings = useMemo(() => {
    if (!core.data || preview?.kind !== "results") return {};
    const found = core.data.warnings(ctx.type, previewArgs(ctx, state).inputs);
    return Object.fromEntries(found.map((w) => [w.field, w.message]));
  }, [core.data, preview, ctx, state]);
  // D23: the uncertainty of a «Фактическое значение» sits beside it, not in the section below.
  // Kept while the same fields are typed, so the memoized editor is not redrawn by every key.
  const inlineNames = layout.rows
    .flatMap((r) => (r.kind === "bound" && isEditable(state, r.binding, r.field.name) ? [r.field.name as string] : []))
    .join(" ");
  const inlineUncertainty = useMemo(() => new Set(inlineNames ? inlineNames.split(" ") : []), [inlineNames]);
  // D10: a typed «Фактическое значение» outside its plausible band is warned of as typed.
  const outOfBand = useMemo(() => bandWarnings(ctx, state), [ctx, state]);

  // What NumericInput already says under an editable field: the form neither repeats it nor sends.
  const inputProblems = useMemo(() => {
    const found: Record<string, string> = {};
    for (const r of layout.rows) {
      if (r.kind !== "free" && !(r.kind === "bound" && isEditable(state, r.binding, r.field.name))) continue;
      const problem = numericInputProblem(state.texts[r.field.name] ?? "", {
        decimals: Math.max(decimals, presetPlaces[r.field.name] ?? 0),
      });
      if (problem) found[r.field.name] = problem;
    }
    // D14: the periods' number cells, by «periods[i].field».
    (byFile ? [] : (state.periods ?? [])).forEach((period, index) => {
      for (const field of MEASURED_PERIOD.numbers) {
        const problem = numericInputProblem(period[field.name], { decimals: Math.max(decimals, field.decimals) });
        if (problem) found[periodField(index, field.name)] = problem;
      }
    });
    return found;
  }, [layout, state, decimals, presetPlaces, byFile]);
  const [problemField] = Object.keys(inputProblems);

  const previewTarget = preview?.kind === "error" ? messageTarget(layout, preview.field) : undefined;
  const previewShown = previewTarget !== undefined && (submitted || touched.has(previewTarget));

  // D37: a measured release asks what its meter saw; where the facility burns drained gas (a flare,
  // a boiler or an engine among its points), a new one starts as all the drained gas (gross).
  const measured = ctx.type === MEASURED_TYPE;
  const facilityPoints = usePoints(measured ? ctx.project?.facility : undefined);
  const destroysGas = (facilityPoints.data ?? []).some((p) => p.is_active && DESTRUCTION_KINDS.includes(p.kind));
  useEffect(() => {
    if (measured && destroysGas && !ctx.stored && !touched.has("basis")) setState((s) => ({ ...s, basis: "gross" }));
  }, [measured, destroysGas, ctx.stored, touched]);

  // the facility-year's coal output, typed once on «Инвентаризация», starts a new
  // calculation's coal production; the user may type another figure.
  const productionField = productionFieldOf(ctx.type);
  const coalOutput = useCoalOutput(
    productionField ? ctx.project?.reporting_year : undefined,
    productionField ? ctx.project?.facility : undefined,
  ).data?.t;
  useEffect(() => {
    if (!productionField || coalOutput === null || coalOutput === undefined || ctx.stored || touched.has(productionField)) return;
    setState((s) => withCoalOutput(s, productionField, coalOutput));
    setPresetPlaces((before) => ({ ...before, ...placesOf({ [productionField]: numberText(coalOutput) }) }));
  }, [productionField, coalOutput, ctx.stored, touched]);
  const coalOutputNote =
    coalOutput !== null && coalOutput !== undefined
      ? `Добыча угля площадки за ${ctx.project?.reporting_year} год (Инвентаризация): ${formatStored(coalOutput)} т`
      : undefined;

  /** A change of `target`: `next` makes the new state from the one it replaces. Stable, like the
   *  handlers below, so the memoized rows (FormRows.tsx) keep their props while another field is typed. */
  const update = useCallback((target: string, next: (before: FormState) => FormState) => {
    setState(next);
    setTouched((before) => (before.has(target) ? before : new Set(before).add(target)));
    setErrors((before) => {
      if (!before[target]) return before;
      const { [target]: _cleared, ...rest } = before;
      return rest;
    });
  }, []);
  // The state as last drawn, for a handler that needs more than the next state from it.
  const drawn = useRef(state);
  useLayoutEffect(() => {
    drawn.current = state;
  }, [state]);

  const onName = useCallback((name: string) => update("name", (s) => ({ ...s, name })), [update]);
  const onPeriod = useCallback((period: FormState["period"]) => update("period", (s) => ({ ...s, period })), [update]);
  const onText = useCallback((field: string, text: string) => update(field, (s) => setText(s, field, text)), [update]);
  const onUnit = useCallback((field: string, unit: string) => update(field, (s) => chooseUnit(s, field, unit)), [update]);
  const onJustification = useCallback((field: string, text: string) => update(field, (s) => setJustification(s, field, text)), [update]);
  const onGwp = useCallback((id: number) => update(GWP_DICTIONARY, (s) => chooseGwp(s, id === BY_YEAR ? undefined : id)), [update]);
  const onVolumeMode = useCallback((byPeriods: boolean) => update("periods", (s) => withPeriods(s, byPeriods)), [update]);
  const onPeriodText = useCallback(
    (index: number, field: MeasuredPeriodField, text: string) =>
      update(periodField(index, field), (s) => setPeriodText(s, index, field, text)),
    [update],
  );
  const onAddPeriod = useCallback(() => update("periods", addPeriod), [update]);
  const onRemovePeriod = useCallback((index: number) => update("periods", (s) => removePeriod(s, index)), [update]);
  const onBasis = useCallback((basis: MethaneBasis) => update("basis", (s) => ({ ...s, basis })), [update]);
  const onRole = useCallback((inventoryRole: InventoryRole) => update("inventory_role", (s) => ({ ...s, inventoryRole })), [update]);
  const onNote = useCallback(
    (name: MeasurementNote, text: string) => update(name, (s) => ({ ...s, measurement: { ...s.measurement!, [name]: text } })),
    [update],
  );
  const onDrainage = useCallback((drainagePoints: string[]) => update("drainage_points", (s) => ({ ...s, drainagePoints })), [update]);
  // the point's instrument and frequency come with it into the measurement notes.
  const onPoint = useCallback(
    (point: string | undefined) => {
      const pointOf = (id: string | undefined) => facilityPoints.data?.find((p) => p.id === id);
      update("point", (s) => withPointNotes({ ...s, point }, pointOf(s.point), pointOf(point)));
    },
    [update, facilityPoints.data],
  );
  const onChoose = useCallback(
    (dictionary: string, choice: Choice) => {
      const before = drawn.current;
      const next = chooseEntry(ctx, before, dictionary, choice);
      const preset = Object.fromEntries(Object.entries(next.texts).filter(([name, text]) => text !== before.texts[name]));
      setPresetPlaces((places) => ({ ...places, ...placesOf(preset) }));
      update(dictionary, () => next);
    },
    [ctx, update],
  );
  const onDraft = useCallback(
    (field: string, part: Partial<UncertaintyDraft>) => setDrafts((before) => ({ ...before, [field]: { ...before[field], ...part } })),
    [],
  );
  const onEvidence = useCallback(
    (field: string, file: File | undefined) => setEvidence(({ [field]: _replaced, ...rest }) => (file ? { ...rest, [field]: file } : rest)),
    [],
  );

  // D107: the mine's own factors of this type, offered where a value is typed; a typed value with its
  // own uncertainty and justification may be kept as one.
  const ownFactors = useOwnFactors(ctx.type, inlineNames !== "");
  const keepOwn = useKeepOwnFactor(ctx.type);
  const ownByField = useMemo(() => {
    const by: Record<string, OwnFactor[]> = {};
    for (const entry of ownFactors.data?.results ?? []) {
      by[entry.field] ??= [];
      by[entry.field].push(entry);
    }
    return by;
  }, [ownFactors.data]);
  const boundFields = useMemo(
    () => new Map(layout.rows.flatMap((r) => (r.kind === "bound" ? [[r.field.name as string, r.field] as const] : []))),
    [layout],
  );
  const draftsNow = useRef(drafts);
  useLayoutEffect(() => {
    draftsNow.current = drafts;
  }, [drafts]);
  const onTakeOwn = useCallback(
    (field: string, id: string) => {
      const entry = ownByField[field]?.find((e) => e.id === id);
      if (!entry) return;
      setPresetPlaces((places) => ({ ...places, ...placesOf({ [field]: numberText(entry.value) }) }));
      setDrafts((before) => ({ ...before, [field]: draftOf(entry) }));
      update(field, (s) => takeOwnFactor(s, entry));
    },
    [ownByField, update],
  );
  const keepOwnMutate = keepOwn.mutate;
  const onKeepOwn = useCallback(
    (field: string) => {
      const def = boundFields.get(field);
      const s = drawn.current;
      const keepable = def && keepableOf(ctx.type, def, s.texts[field] ?? "", s.justifications?.[field] ?? "", draftsNow.current[field]);
      if (!keepable?.body) return;
      keepOwnMutate(keepable.body, {
        onSuccess: () => message.success("Сохранено как собственный коэффициент шахты: его можно выбрать в следующих расчетах"),
        onError: (error) => message.error(`Коэффициент не сохранен: ${isApiError(error) ? withoutFieldNames(error) : error.message}`),
      });
    },
    [boundFields, ctx.type, keepOwnMutate, message],
  );

  /** What is said under a dialog target: the last submit's message first, then the core's, then warnings. */
  const messagesOf = (target: string): FieldMessages => ({
    inputProblem: Boolean(inputProblems[target]),
    error: errors[target] ?? (previewShown && previewTarget === target && preview?.kind === "error" ? preview.message : undefined),
    warning: warnings[target],
    bandWarning: outOfBand[target],
  });
  const status = (target: string) => fieldStatus(messagesOf(target));

  const showServerError = (error: ApiError) => {
    if (error.status === 409) {
      setTopError({ text: error.detail, conflict: true });
      return;
    }
    const { target, message: text } = splitDetail(layout, error);
    if (target && error.status === 400) setErrors((before) => ({ ...before, [target]: text }));
    // A field the dialog shows no place for (file_data): its text on top, without the field's name.
    else setTopError({ text: withoutFieldNames(error), conflict: false });
  };

  const submit = () => {
    setSubmitted(true);
    setTopError(null);
    if (!state.name.trim()) {
      // docs/user-guide.md: nothing is sent; the console says so (and the field, for the user).
      console.warn("please enter calculation name");
      setErrors((before) => ({ ...before, name: NAME_REQUIRED }));
      return;
    }
    // A typed text that is no number: its message is under the field; «Создать» says so and goes
    // there, however far up the dialog it is.
    if (!byFile && problemField !== undefined) {
      setTopError({
        text: `Не сохранено: исправьте поле «${labelOf(ctx.type, problemField)}» — ${inputProblems[problemField]}`,
        conflict: false,
      });
      focusField(problemField);
      return;
    }
    // The core already refuses a field (its message is under it now): the server would too.
    if (!byFile && preview?.kind === "error") return;
    const body = buildPayload(ctx, state, projectId);
    const uncertainty = uncertaintyPayload(drafts, ctx.stored);
    setUncertaintyProblem(uncertainty.problem);
    if (uncertainty.problem) return;
    if (uncertainty.value) body.uncertainty = uncertainty.value;
    const saved = () => {
      message.success(ctx.mode === "edit" ? "Расчет сохранен" : "Расчет создан");
      onDone();
    };
    const handlers = {
      onSuccess: (calculation: Calculation) => {
        if (Object.keys(evidence).length === 0) return saved();
        attach.mutate(() => uploadEvidence(calculation, evidence), {
          onSuccess: saved,
          onError: (error) => {
            message.error(`Расчет сохранен, но документ не приложен: ${error.detail}`);
            onDone();
          },
        });
      },
      onError: showServerError,
    };
    if (byFile) {
      // The server reads the periods from the file: the same fields, as a multipart form.
      const form = periodsFileForm(body, periodsFile);
      attach.mutate(() => sendBody(ctx.type, { kind: "form", form }, ctx.stored?.id), handlers);
    }
    // buildPayload sends the registry's fields of the type: the server checks them against the type's schema.
    else if (ctx.mode === "edit" && ctx.stored)
      patch.mutate({ id: ctx.stored.id, body: body as CalculationPatchBody<FormulaType> }, handlers);
    else create.mutate(body as CalculationCreateBody<FormulaType>, handlers);
  };

  const values = useMemo(() => fieldValues(ctx, state), [ctx, state]);
  /** A typed number's props, as the form holds it now. */
  const typed = (field: NumberField) => ({
    text: state.texts[field.name] ?? "",
    decimals: fieldDecimals(field.name),
    unit: shownUnit(ctx, state, field),
    entryUnit: entryUnit(state, field),
    onText,
    onUnit,
  });

  const row = (r: FormRow): ReactNode => {
    switch (r.kind) {
      case "select": {
        const { dictionary } = r.binding.binding;
        return (
          <SelectRow
            key={`select-${dictionary}`}
            binding={r.binding}
            dictionary={dictionaries[dictionary]}
            value={state.choices[dictionary]}
            onChoose={onChoose}
            {...messagesOf(dictionary)}
          />
        );
      }
      case "bound": {
        const name = r.field.name;
        const editable = isEditable(state, r.binding, name);
        // D107: the kept entry the typed value is, else what it lacks to be kept.
        const keepable = editable
          ? keepableOf(ctx.type, r.field, state.texts[name] ?? "", state.justifications?.[name] ?? "", drafts[name])
          : undefined;
        return (
          <BoundRow
            key={name}
            field={r.field}
            editable={editable}
            fixedByCustom={state.choices[r.binding.binding.dictionary] === CUSTOM && !editable}
            value={editable ? undefined : boundValue(ctx, state, r.binding, name)}
            {...typed(r.field)}
            justification={state.justifications?.[name] ?? ""}
            onJustification={onJustification}
            draft={drafts[name]}
            currentUncertainty={ctx.stored?.coefficients[name]?.uncertainty}
            onDraft={onDraft}
            evidence={evidence[name]}
            stored={ctx.stored}
            onEvidence={onEvidence}
            ownEntries={ownByField[name]}
            keptEntry={keptAs(ownByField[name] ?? [], keepable?.body)}
            keepMissing={keepable?.missing}
            keeping={keepOwn.isPending && keepOwn.variables?.field === name}
            onTakeOwn={onTakeOwn}
            onKeepOwn={onKeepOwn}
            {...messagesOf(name)}
          />
        );
      }
      case "free": {
        // D13: typed in another unit, the value is stored in the canonical one: say which number.
        const canonical = values[r.field.name];
        const converted = entryUnit(state, r.field) !== r.field.unit && canonical !== undefined;
        const extra =
          [
            converted ? `Сохраняется как ${formatStored(canonical)} ${r.field.unit}` : undefined,
            r.field.name === productionField ? coalOutputNote : undefined,
            compositionNote(ctx.type, r.field.name),
          ]
            .filter(Boolean)
            .join(". ") || undefined;
        return <FreeRow key={r.field.name} field={r.field} extra={extra} {...typed(r.field)} {...messagesOf(r.field.name)} />;
      }
      case "fixed":
        return <FixedRow key={r.field.name} field={r.field} unit={shownUnit(ctx, state, r.field)} {...messagesOf(r.field.name)} />;
      case "gwp": {
        const kept = ctx.stored !== undefined && state.kept.includes(GWP_DICTIONARY) && state.gwpSet === undefined;
        return (
          <GwpRow
            key="gwp"
            field={r.field}
            dictionary={dictionaries[GWP_DICTIONARY]}
            gwpInForce={ctx.gwpInForce}
            value={kept ? undefined : (state.gwpSet ?? BY_YEAR)}
            current={gwpValue(ctx, state)}
            onGwp={onGwp}
            {...messagesOf(GWP_DICTIONARY)}
          />
        );
      }
    }
  };

  useLayoutEffect(() => {
    submitRef.current = submit;
  });

  const busy = create.isPending || patch.isPending || attach.isPending;
  return (
    <>
      <Flex gap={24} wrap align="flex-start">
        {/* A chosen file's preview needs the dialog's whole width: the result then sits below. */}
        <div style={{ flex: periodsFile ? "1 1 100%" : "1 1 420px", minWidth: 0 }}>
          <NameField value={state.name} onChange={onName} {...status("name")} />
          {takesPeriods(ctx.type) && <VolumeModeField byPeriods={state.periods !== undefined} vertical={phone} onMode={onVolumeMode} />}
          {state.periods && <PeriodsFileField type={ctx.type} file={periodsFile} onChange={setPeriodsFile} projectId={projectId} />}
          {state.periods && !periodsFile && (
            <PeriodsEditor
              periods={state.periods}
              decimals={decimals}
              messagesOf={messagesOf}
              onText={onPeriodText}
              onAdd={onAddPeriod}
              onRemove={onRemovePeriod}
            />
          )}
          {grouped(
            layout.rows.filter(
              (r) => !givenByPeriods(state, r) && !(r.kind !== "select" && compositionHidden(ctx.type, state, r.field.name)),
            ),
          ).map((item) =>
            Array.isArray(item) ? (
              // The values one entry fills sit side by side, under their selector.
              <Row gutter={16} key={`group-${item[0].field.name}`}>
                {item.map((r) => (
                  <Col xs={24} sm={12} key={r.field.name}>
                    {row(r)}
                  </Col>
                ))}
              </Row>
            ) : (
              row(item)
            ),
          )}
          {ctx.project?.facility && takesPoint(ctx.type) && (
            <PointField facility={ctx.project.facility} value={state.point} stored={ctx.stored?.point} onChange={onPoint} />
          )}
          {ctx.project?.facility && burnsDrainedGas(ctx.type) && (
            <DrainageField
              facility={ctx.project.facility}
              value={state.drainagePoints}
              stored={ctx.stored?.drainage_points}
              onChange={onDrainage}
            />
          )}
          {ctx.project && <PeriodField project={ctx.project} value={state.period} onChange={onPeriod} />}
          {state.basis && basisAsked(ctx.type) && (
            <BasisField measured={measured} destroysGas={destroysGas} value={state.basis} onBasis={onBasis} />
          )}
          {state.measurement &&
            MEASUREMENT_NOTE_NAMES.map((name) => (
              <MeasurementNoteField key={name} name={name} value={state.measurement?.[name]} onNote={onNote} {...messagesOf(name)} />
            ))}
          {state.inventoryRole && <InventoryRoleField type={ctx.type} value={state.inventoryRole} onRole={onRole} />}
          <UncertaintyEditor
            type={ctx.type}
            stored={ctx.stored}
            drafts={drafts}
            onChange={setDrafts}
            problem={uncertaintyProblem}
            inline={inlineUncertainty}
          />
        </div>
        {/* Beside the form and sticky, so the result stays in sight while the values change. */}
        <div style={{ flex: "1 1 300px", minWidth: 0, position: "sticky", top: 0 }}>
          <PreviewCard
            type={ctx.type}
            preview={preview}
            problem={problemField === undefined ? undefined : { field: problemField, message: inputProblems[problemField] }}
            coreError={core.error}
            fileNote={byFile ? `Результат будет рассчитан по периодам из файла «${periodsFile.name}» при сохранении` : undefined}
            shownUnderField={previewShown}
            layoutLabel={(field) => labelOf(ctx.type, field)}
          />
        </div>
      </Flex>
      <FormFooter mode={ctx.mode} error={topError} saving={busy} onCancel={onDone} onReload={onReload} />
    </>
  );
}

type BoundFormRow = Extract<FormRow, { kind: "bound" }>;

const placesOf = (texts: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, decimalPlaces(text)]));

/** Rows with each run of dictionary-filled values gathered into one group. */
function grouped(rows: readonly FormRow[]): (FormRow | BoundFormRow[])[] {
  const out: (FormRow | BoundFormRow[])[] = [];
  for (const r of rows) {
    const last = out[out.length - 1];
    if (r.kind === "bound" && Array.isArray(last) && last[0].binding === r.binding) last.push(r);
    else out.push(r.kind === "bound" ? [r] : r);
  }
  return out;
}

/** D28: a boiler's drained mine gas is taken as 100 % CH4, as its fuel's name says, unless its
 *  contents are typed: the contents are asked as optional, and the form says so. */
function compositionNote(type: FormContext["type"], field: string): string | undefined {
  return type === "disposal_co2_stat_sources" && field === "w_ch4"
    ? "Необязательно: без содержаний газ принят за 100 % CH4, как в названии топлива; укажите их, если состав газа измерен"
    : undefined;
}

/** The input of a form field or of a period's cell («periods[i].field»), scrolled to and focused. */
function focusField(field: string) {
  const period = /^periods\[(\d+)\]\.(\w+)$/.exec(field);
  const id = period ? periodInputId(Number(period[1]), period[2] as MeasuredPeriodField) : fieldId(field);
  const input = document.getElementById(id);
  input?.scrollIntoView?.({ block: "center" });
  input?.focus();
}

function labelOf(type: FormContext["type"], field: string): string {
  const def = REGISTRY[type];
  const period = /^periods\[(\d+)\]\.(\w+)$/.exec(field);
  if (period) {
    const column = [...MEASURED_PERIOD.dates, ...MEASURED_PERIOD.numbers].find((c) => c.name === period[2]);
    return `Период ${Number(period[1]) + 1}: ${column?.label ?? period[2]}`;
  }
  if (field === "periods") return "Периоды измерений";
  // As the dialog labels it (the measured volume's own label, D26).
  const row = formLayout(type).rows.find((r) => r.kind !== "select" && r.field.name === field);
  if (row && row.kind !== "select") return row.field.label;
  return [...def.inputs, ...def.settings].find((f) => f.name === field)?.label ?? field;
}

function PreviewCard({
  type,
  preview,
  problem,
  coreError,
  shownUnderField,
  layoutLabel,
  fileNote,
}: {
  type: FormContext["type"];
  preview: Preview | { kind: "failed"; message: string } | undefined;
  /** A typed text that is not an acceptable number: no result until it is corrected. */
  problem: { field: string; message: string } | undefined;
  coreError: Error | null;
  shownUnderField: boolean;
  layoutLabel(field: string): string;
  /** D14: the periods are in a file the server reads: nothing to preview here. */
  fileNote?: string;
}) {
  let body: ReactNode;
  if (fileNote) body = <Typography.Text type="secondary">{fileNote}</Typography.Text>;
  else if (coreError) body = <Typography.Text type="danger">Не удалось загрузить модуль расчета: {coreError.message}</Typography.Text>;
  else if (!preview) body = <Typography.Text type="secondary">Загрузка модуля расчета…</Typography.Text>;
  else if (preview.kind === "failed") body = <Typography.Text type="danger">{preview.message}</Typography.Text>;
  else if (problem) {
    body = (
      <Typography.Text type="secondary" data-testid="preview-pending">
        {`Исправьте поле «${layoutLabel(problem.field)}»: ${problem.message}`}
      </Typography.Text>
    );
  } else if (preview.kind === "error") {
    body = (
      <Typography.Text type="secondary" data-testid="preview-pending">
        {shownUnderField
          ? `Исправьте поле «${layoutLabel(preview.field)}»: ${preview.message}`
          : "Заполните все поля, чтобы увидеть результат"}
      </Typography.Text>
    );
  } else {
    body = <ResultValues type={type} results={preview.results} testId="preview" compact />;
  }
  return (
    <Card size="small" title="Результат расчета (предварительно)" data-testid="preview">
      {body}
    </Card>
  );
}
