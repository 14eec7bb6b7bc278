// The rows of the calculation form (CalculationForm.tsx), one memoized component per kind of row
// (form.ts FormRow), and its other fields. Each takes what it shows as plain values and stable
// callbacks, so a key typed into one field redraws that field (and the live preview), not the form.
import { memo, type ReactNode } from "react";
import { Button, Form, Input, Segmented, Select, Space, Typography, type SelectProps } from "antd";
import { JUSTIFICATION_MAX } from "@server/contract";
import { INVENTORY_ROLES, INVENTORY_ROLE_LABELS, inventorySourceOf, type InventoryRole } from "@core/inventory";
import { MEASUREMENT_NOTES, type MeasurementNote } from "@core/measured-release";
import {
  MEASURED_BASIS_HINT,
  MEASURED_BASIS_LABELS,
  METHANE_BASES,
  METHANE_BASIS_HINT,
  METHANE_BASIS_LABELS,
  customMode,
  type FormulaType,
  type MethaneBasis,
  type NumberField,
} from "@core/registry";
import { FileField } from "../../shared/FileField";
import { NumericInput } from "../../shared/NumericInput";
import { formatStored } from "../../shared/decimals";
import { UncertaintyField, type UncertaintyDraft } from "../../shared/uncertainty/UncertaintyEditor";
import type { Calculation, Dictionary } from "../../api/calculations";
import { EvidenceField } from "./EvidenceField";
import type { OwnFactor } from "../../api/ownFactors";
import { KEEP_OWN_FACTOR, keptText, ownFactorLabel } from "./ownFactors";
import { CUSTOM, GWP_DICTIONARY, type BindingLayout, type Choice } from "./form";

/** The GWP selector's «по отчетному году проекта» option (no set id is 0). */
export const BY_YEAR = 0;
export const fieldId = (name: string) => `calc-field-${name}`;
export const selectId = (dictionary: string) => `calc-dictionary-${dictionary}`;

/** What is said under a dialog target, as plain values (a row redraws only when one changes). */
export interface FieldMessages {
  /** NumericInput already shows its own message under the field. */
  inputProblem: boolean;
  /** The last submit's or the core's message. */
  error: string | undefined;
  /** The core's warning. */
  warning: string | undefined;
  /** D10: a «Фактическое значение» outside its plausible band. */
  bandWarning: string | undefined;
}

/** The Form.Item status of a target: the error first, then the warnings. */
export function fieldStatus({ inputProblem, error, warning, bandWarning }: FieldMessages): {
  validateStatus?: "error" | "warning";
  help?: ReactNode;
} {
  if (inputProblem) return { validateStatus: "error" };
  if (error) return { validateStatus: "error", help: error };
  const found = [warning, bandWarning].filter((w): w is string => Boolean(w));
  if (found.length === 1) return { validateStatus: "warning", help: found[0] };
  if (found.length) return { validateStatus: "warning", help: found.map((w) => <div key={w}>{w}</div>) };
  return {};
}

/** A typed number of a row, as the form holds it now. */
interface Typed {
  text: string;
  decimals: number;
  /** The unit shown beside it (shownUnit). */
  unit: string;
  /** D13: the unit it is typed in (entryUnit), for a field with a unit choice. */
  entryUnit: string;
  onText(field: string, text: string): void;
  onUnit(field: string, unit: string): void;
}

function NumberEntry({ field, text, decimals, unit, entryUnit, onText, onUnit }: Typed & { field: NumberField }) {
  return (
    <NumericInput
      id={fieldId(field.name)}
      value={text}
      decimals={decimals}
      unit={unit}
      unitChoice={
        // D13: an activity input in the unit of the user's records; the canonical one is stored.
        field.units && (
          <Select<string>
            id={`${fieldId(field.name)}-unit`}
            aria-label={`Единица: ${field.label}`}
            value={entryUnit}
            options={field.units.map((u) => ({ label: u.unit, value: u.unit }))}
            popupMatchSelectWidth={false}
            style={{ width: 110 }}
            onChange={(next) => onUnit(field.name, next)}
          />
        )
      }
      onChange={(next) => onText(field.name, next)}
    />
  );
}

function ReadOnlyValue({ field, value, unit }: { field: NumberField; value: number | undefined; unit: string }) {
  return (
    <UnitInput unit={unit}>
      <Input id={fieldId(field.name)} value={formatStored(value)} readOnly aria-readonly="true" variant="filled" placeholder="—" />
    </UnitInput>
  );
}

/** An input with its unit beside it (D8). */
function UnitInput({ unit, children }: { unit: string; children: ReactNode }) {
  if (!unit) return children;
  return (
    <Space.Compact block>
      {children}
      <Space.Addon>{unit}</Space.Addon>
    </Space.Compact>
  );
}

/** A select of the form under its label (which names it by `id`), with what is said under it. */
function SelectField<V>({
  id,
  label,
  extra,
  status,
  ...select
}: {
  id: string;
  label: ReactNode;
  extra?: ReactNode;
  status?: ReturnType<typeof fieldStatus>;
} & Pick<SelectProps<V>, "value" | "options" | "placeholder" | "onChange">) {
  return (
    <Form.Item label={label} htmlFor={id} extra={extra} {...status}>
      <Select<V> id={id} {...select} />
    </Form.Item>
  );
}

export const SelectRow = memo(function SelectRow({
  binding: { binding },
  dictionary,
  value,
  onChoose,
  ...messages
}: FieldMessages & {
  binding: BindingLayout;
  dictionary: Dictionary | undefined;
  value: Choice | undefined;
  onChoose(dictionary: string, choice: Choice): void;
}) {
  const options: { label: string; value: Choice }[] = (dictionary?.results ?? []).map((e) => ({ label: e.name, value: e.id }));
  options.push({ label: customMode(binding).label, value: CUSTOM });
  return (
    <SelectField<Choice>
      id={selectId(binding.dictionary)}
      label={dictionary?.title ?? binding.dictionary}
      status={fieldStatus(messages)}
      value={value}
      options={options}
      placeholder="Значения расчета (нет в справочнике)"
      onChange={(choice) => onChoose(binding.dictionary, choice)}
    />
  );
});

/** A typed number: `row` holds what is said under it and what NumberEntry takes. */
export const FreeRow = memo(function FreeRow({
  field,
  extra,
  ...row
}: FieldMessages & Typed & { field: NumberField; extra: string | undefined }) {
  return (
    <Form.Item label={field.label} htmlFor={fieldId(field.name)} extra={extra} {...fieldStatus(row)}>
      <NumberEntry field={field} {...row} />
    </Form.Item>
  );
});

export const FixedRow = memo(function FixedRow({ field, unit, ...messages }: FieldMessages & { field: NumberField; unit: string }) {
  return (
    <Form.Item label={field.label} htmlFor={fieldId(field.name)} extra="Фиксированное значение" {...fieldStatus(messages)}>
      <ReadOnlyValue field={field} value={field.fixed} unit={unit} />
    </Form.Item>
  );
});

/** A value a dictionary entry fills: read-only, or typed with its justification, own uncertainty
 *  and evidence in «Фактическое значение» mode (D10, D23). */
export const BoundRow = memo(function BoundRow({
  field,
  editable,
  fixedByCustom,
  value,
  justification,
  onJustification,
  draft,
  currentUncertainty,
  onDraft,
  evidence,
  stored,
  onEvidence,
  ownEntries,
  keptEntry,
  keepMissing,
  keeping,
  onTakeOwn,
  onKeepOwn,
  ...row
}: FieldMessages &
  Typed & {
    field: NumberField;
    editable: boolean;
    /** «Фактическое значение» chosen, and the registry fixes this value in it. */
    fixedByCustom: boolean;
    /** The value shown when it is not typed. */
    value: number | undefined;
    justification: string;
    onJustification(field: string, text: string): void;
    draft: UncertaintyDraft | undefined;
    currentUncertainty: NonNullable<Calculation["coefficients"][string]["uncertainty"]> | undefined;
    onDraft(field: string, part: Partial<UncertaintyDraft>): void;
    evidence: File | undefined;
    stored: Calculation | undefined;
    onEvidence(field: string, file: File | undefined): void;
    /** D107: the mine's own factors kept for this input. */
    ownEntries: readonly OwnFactor[] | undefined;
    /** The kept entry the typed value is now. */
    keptEntry: OwnFactor | undefined;
    /** What the typed value lacks to be kept («введите обоснование»). */
    keepMissing: string | undefined;
    keeping: boolean;
    onTakeOwn(field: string, id: string): void;
    onKeepOwn(field: string): void;
  }) {
  return (
    <Form.Item
      label={field.label}
      htmlFor={fieldId(field.name)}
      extra={fixedByCustom ? "Фиксированное значение" : undefined}
      {...fieldStatus(row)}
    >
      {editable ? <NumberEntry field={field} {...row} /> : <ReadOnlyValue field={field} value={value} unit={row.unit} />}
      {editable && ownEntries && ownEntries.length > 0 && (
        // D107: a kept entry fills the value, its uncertainty and justification as they were kept.
        <Select<string>
          id={`${fieldId(field.name)}-own`}
          aria-label={`Собственный коэффициент шахты: ${field.label}`}
          placeholder="Собственные коэффициенты шахты"
          style={{ width: "100%", marginTop: 8 }}
          value={keptEntry?.id ?? null}
          options={ownEntries.map((e) => ({ value: e.id, label: ownFactorLabel(e), title: ownFactorLabel(e) }))}
          popupMatchSelectWidth
          onChange={(id) => onTakeOwn(field.name, id)}
        />
      )}
      {editable && (
        <Input.TextArea
          id={`${fieldId(field.name)}-justification`}
          aria-label={`Обоснование: ${field.label}`}
          placeholder="Обоснование фактического значения (замеры, протокол, документ)"
          style={{ marginTop: 8 }}
          maxLength={JUSTIFICATION_MAX}
          autoSize={{ minRows: 2, maxRows: 6 }}
          value={justification}
          onChange={(e) => onJustification(field.name, e.target.value)}
        />
      )}
      {editable && draft && (
        // D23: an own value carries its own uncertainty, entered with it.
        <div style={{ marginTop: 8 }}>
          <UncertaintyField
            field={field}
            draft={draft}
            current={currentUncertainty}
            label="Своя неопределенность значения (−%, +%, распределение)"
            onChange={(part) => onDraft(field.name, part)}
          />
          {!draft.on && (
            <Typography.Text type="secondary" style={{ display: "block", fontSize: 12 }}>
              Не указана: применится неопределенность справочника, расчет будет отмечен «неопределенность не указана»
            </Typography.Text>
          )}
        </div>
      )}
      {editable &&
        (keptEntry ? (
          <Typography.Text type="secondary" style={{ display: "block", fontSize: 12, marginTop: 8 }}>
            {keptText(keptEntry)}
          </Typography.Text>
        ) : (
          <div style={{ marginTop: 8 }}>
            <Button
              size="small"
              id={`${fieldId(field.name)}-keep`}
              disabled={keepMissing !== undefined}
              loading={keeping}
              style={{ whiteSpace: "normal", height: "auto", textAlign: "left", padding: "3px 10px" }}
              onClick={() => onKeepOwn(field.name)}
            >
              {KEEP_OWN_FACTOR}
            </Button>
            {keepMissing && (
              <Typography.Text type="secondary" style={{ display: "block", fontSize: 12 }}>
                Чтобы сохранить для следующих расчетов: {keepMissing}
              </Typography.Text>
            )}
          </div>
        ))}
      {editable && (
        <EvidenceField
          id={`${fieldId(field.name)}-evidence`}
          field={field.name}
          label={field.label}
          file={evidence}
          stored={stored}
          onChange={(file) => onEvidence(field.name, file)}
        />
      )}
    </Form.Item>
  );
});

export const GwpRow = memo(function GwpRow({
  field,
  dictionary,
  gwpInForce,
  value,
  current,
  onGwp,
  ...messages
}: FieldMessages & {
  field: NumberField;
  dictionary: Dictionary | undefined;
  /** D12: the set in force for the project's reporting year. */
  gwpInForce: number | undefined;
  /** BY_YEAR, a set's id, or undefined while an edit keeps the stored value. */
  value: number | undefined;
  /** The GWP used now. */
  current: number | undefined;
  onGwp(id: number): void;
}) {
  const entries = dictionary?.results ?? [];
  const inForce = entries.find((e) => e.id === gwpInForce);
  const byYearLabel = inForce
    ? `по отчетному году проекта (набор ${inForce.name}: ${formatStored(inForce.gwp_ch4)})`
    : "по отчетному году проекта";
  return (
    <SelectField<number>
      id={selectId(GWP_DICTIONARY)}
      label={`${field.label}, ${field.unit}`}
      status={fieldStatus(messages)}
      // D12: 0 stands for «по отчетному году проекта» (no gwp_set sent on create).
      value={value}
      placeholder={current === undefined ? "Выберите набор ПГП" : `Как в расчете: ${formatStored(current)}`}
      options={[
        { label: byYearLabel, value: BY_YEAR },
        ...entries.map((e) => ({ label: `${e.name}: ${formatStored(e.gwp_ch4)}`, value: e.id })),
      ]}
      onChange={onGwp}
    />
  );
});

/** D14: the volume typed as one value or by measurement periods. */
export const VolumeModeField = memo(function VolumeModeField({
  byPeriods,
  vertical,
  onMode,
}: {
  byPeriods: boolean;
  vertical: boolean;
  onMode(byPeriods: boolean): void;
}) {
  return (
    <Form.Item label="Как задан объём газовой смеси" htmlFor="calc-volume-mode">
      {/* On a phone its two choices stand one under the other, within the dialog's width. */}
      <Segmented<"volume" | "periods">
        id="calc-volume-mode"
        vertical={vertical}
        value={byPeriods ? "periods" : "volume"}
        options={[
          { label: "Одним значением", value: "volume" },
          { label: "По периодам измерений", value: "periods" },
        ]}
        onChange={(mode) => onMode(mode === "periods")}
      />
    </Form.Item>
  );
});

/** D14: the periods from a file (the Excel template or a monitoring system's CSV) instead of typed ones. */
export const PeriodsFileField = memo(function PeriodsFileField({
  type,
  file,
  onChange,
  projectId,
}: {
  type: FormulaType;
  file: File | undefined;
  onChange(file: File | undefined): void;
  projectId: string;
}) {
  return (
    <Form.Item
      label="Периоды из файла (шаблон Excel или CSV системы газового мониторинга)"
      htmlFor="calc-periods-file"
      extra={file ? "Периоды будут прочитаны из файла при сохранении" : "Или введите периоды ниже"}
    >
      <FileField id="calc-periods-file" type={type} file={file} onChange={onChange} preview={{ projectId }} />
    </Form.Item>
  );
});

/** The methane basis, or for a measured release what its meter saw (D37). */
export const BasisField = memo(function BasisField({
  measured,
  destroysGas,
  value,
  onBasis,
}: {
  measured: boolean;
  /** The facility burns drained gas: a measured release starts as gross. */
  destroysGas: boolean;
  value: MethaneBasis;
  onBasis(basis: MethaneBasis): void;
}) {
  return (
    <SelectField<MethaneBasis>
      id="methane-basis"
      label={measured ? "Что измерено" : "Основа выброса метана"}
      extra={
        measured
          ? `${MEASURED_BASIS_HINT}${destroysGas ? " На площадке есть факел или котельная: по умолчанию — валовый." : ""}`
          : METHANE_BASIS_HINT
      }
      value={value}
      options={METHANE_BASES.map((basis) => ({
        value: basis,
        label: (measured ? MEASURED_BASIS_LABELS : METHANE_BASIS_LABELS)[basis],
      }))}
      onChange={onBasis}
    />
  );
});

/** One of a measured release's notes (instrument, frequency and the like). */
export const MeasurementNoteField = memo(function MeasurementNoteField({
  name,
  value,
  onNote,
  ...messages
}: FieldMessages & {
  name: MeasurementNote;
  value: string | undefined;
  onNote(name: MeasurementNote, text: string): void;
}) {
  return (
    <Form.Item label={MEASUREMENT_NOTES[name].label} htmlFor={`measurement-${name}`} {...fieldStatus(messages)}>
      <Input
        id={`measurement-${name}`}
        value={value}
        maxLength={MEASUREMENT_NOTES[name].max}
        placeholder={MEASUREMENT_NOTES[name].placeholder}
        onChange={(event) => onNote(name, event.target.value)}
      />
    </Form.Item>
  );
});

export const InventoryRoleField = memo(function InventoryRoleField({
  type,
  value,
  onRole,
}: {
  type: FormulaType;
  value: InventoryRole;
  onRole(role: InventoryRole): void;
}) {
  const note = inventorySourceOf(type)?.note;
  return (
    <SelectField<InventoryRole>
      id="inventory-role"
      label="Роль в инвентаризации"
      extra={
        <>
          {/* D22: the IPCC flare types are not Order 371's method. */}
          {note && (
            <Typography.Text type="warning" style={{ display: "block" }} data-testid="inventory-note">
              {`Внимание: ${note}; по умолчанию расчет альтернативный`}
            </Typography.Text>
          )}
          Альтернативный расчет (проверка другим методом или сценарий) показывается, но не суммируется
        </>
      }
      value={value}
      options={INVENTORY_ROLES.map((role) => ({ value: role, label: INVENTORY_ROLE_LABELS[role] }))}
      onChange={onRole}
    />
  );
});
