// The user's own uncertainty of a calculation's inputs in its dialog (docs/methodology.md, Uncertainty):
// by default an input takes its dictionary entry's uncertainty (coal-mining emission factors) or
// the activity-data default (production ±2 %, measured gas ±20 %); here the user may set −% / +%
// and the distribution of a value they know better. Sent as `uncertainty` ({field: … | null}).
import { memo } from "react";
import { Checkbox, Collapse, Col, Flex, Row, Select, Typography } from "antd";
import { REGISTRY, isEmissionType, type FormulaType, type NumberField } from "@core/registry";
import type { Distribution } from "@core/uncertainty-core";
import { NumericInput } from "../NumericInput";
import { numberText, parseNumericInput } from "../decimals";
import type { Calculation } from "../../api/calculations";
import { DISTRIBUTION_OPTIONS, uncertaintyText } from "./texts";

export interface UncertaintyDraft {
  on: boolean;
  lower: string;
  upper: string;
  distribution: Distribution;
}

export type UncertaintyDrafts = Readonly<Record<string, UncertaintyDraft>>;

/** Inputs that may carry an uncertainty: the type's numeric inputs the methodology does not fix. */
export function uncertainInputs(type: FormulaType): NumberField[] {
  // The utilisation choice has no emission to be uncertain about.
  if (!isEmissionType(type)) return [];
  return (REGISTRY[type].inputs as readonly { type: string }[]).filter(
    (f): f is NumberField => f.type === "number" && (f as NumberField).fixed === undefined,
  );
}

export function initialDrafts(type: FormulaType, stored?: Calculation): UncertaintyDrafts {
  const drafts: Record<string, UncertaintyDraft> = {};
  for (const field of uncertainInputs(type)) {
    const u = stored?.coefficients[field.name]?.uncertainty;
    drafts[field.name] =
      u?.origin === "user"
        ? { on: true, lower: numberText(u.lower_pct), upper: numberText(u.upper_pct), distribution: u.distribution }
        : { on: false, lower: "", upper: "", distribution: "normal" };
  }
  return drafts;
}

const inRange = (text: string, max: number): number | undefined => {
  const value = parseNumericInput(text);
  return value !== undefined && value >= 0 && value <= max ? value : undefined;
};

export const UNCERTAINTY_PROBLEM = "Неопределенность: введите −% от 0 до 100 и +% от 0 до 1000";

/** The body's `uncertainty`, or a problem to show; undefined when nothing is to be sent. */
export function uncertaintyPayload(drafts: UncertaintyDrafts, stored?: Calculation): { value?: Record<string, unknown>; problem?: string } {
  const value: Record<string, unknown> = {};
  for (const [name, draft] of Object.entries(drafts)) {
    const wasUser = stored?.coefficients[name]?.uncertainty?.origin === "user";
    if (!draft.on) {
      if (wasUser) value[name] = null;
      continue;
    }
    const lower = inRange(draft.lower, 100);
    const upper = inRange(draft.upper, 1000);
    if (lower === undefined || upper === undefined) return { problem: UNCERTAINTY_PROBLEM };
    value[name] = { lower_pct: lower, upper_pct: upper, distribution: draft.distribution };
  }
  return Object.keys(value).length > 0 ? { value } : {};
}

interface Props {
  type: FormulaType;
  stored?: Calculation;
  drafts: UncertaintyDrafts;
  onChange(drafts: UncertaintyDrafts): void;
  problem?: string;
  /** Fields whose uncertainty the form shows beside the value (D23: a «Фактическое значение»). */
  inline?: ReadonlySet<string>;
}

type UsedUncertainty = NonNullable<Calculation["coefficients"][string]["uncertainty"]>;

/** One input's own uncertainty: a checkbox, then −%, +% and the distribution. */
export function UncertaintyField({
  field,
  draft,
  current,
  onChange,
  label = `Своя неопределенность: ${field.label}`,
}: {
  field: NumberField;
  draft: UncertaintyDraft;
  /** As stored: shown when it is not the user's own. */
  current?: UsedUncertainty;
  onChange(change: Partial<UncertaintyDraft>): void;
  label?: string;
}) {
  /** The −% or +% of the interval, in percent to one decimal. */
  const bound = (side: "lower" | "upper", unit: string, placeholder: string) => (
    <Col xs={12} sm={7}>
      <NumericInput
        id={`uncertainty-${field.name}-${side}`}
        value={draft[side]}
        decimals={1}
        unit={unit}
        placeholder={placeholder}
        onChange={(value) => onChange(side === "lower" ? { lower: value } : { upper: value })}
      />
    </Col>
  );
  return (
    <div data-testid={`uncertainty-${field.name}`}>
      <Checkbox checked={draft.on} onChange={(e) => onChange({ on: e.target.checked })}>
        {label}
      </Checkbox>
      {current && current.origin !== "user" && (
        <Typography.Text type="secondary" style={{ display: "block", marginLeft: 24 }}>
          Сейчас: {uncertaintyText(current)}
        </Typography.Text>
      )}
      {draft.on && (
        <Row gutter={8} style={{ marginTop: 8, marginLeft: 16 }}>
          {bound("lower", "−%", "вниз")}
          {bound("upper", "+%", "вверх")}
          <Col xs={24} sm={10}>
            <Select<Distribution>
              aria-label={`Распределение: ${field.label}`}
              value={draft.distribution}
              options={DISTRIBUTION_OPTIONS}
              onChange={(distribution) => onChange({ distribution })}
              style={{ width: "100%" }}
            />
          </Col>
        </Row>
      )}
    </div>
  );
}

/** Memoized: the calculation form passes it stable props, so a key typed in a field does not redraw it. */
export const UncertaintyEditor = memo(function UncertaintyEditor({ type, stored, drafts, onChange, problem, inline }: Props) {
  const fields = uncertainInputs(type);
  if (fields.length === 0) return null;
  const set = (name: string, change: Partial<UncertaintyDraft>) => onChange({ ...drafts, [name]: { ...drafts[name], ...change } });
  const anyOn = fields.some((f) => drafts[f.name]?.on && !inline?.has(f.name));
  return (
    <Collapse
      size="small"
      defaultActiveKey={anyOn ? ["uncertainty"] : []}
      style={{ marginBottom: 16 }}
      items={[
        {
          key: "uncertainty",
          label: "Неопределенность исходных данных (необязательно)",
          children: (
            <Flex vertical gap={12}>
              <Typography.Text type="secondary">
                По умолчанию берется неопределенность из справочника (коэффициенты выбросов МГЭИК, добыча ±2 %, измеренный объем газа ±20
                %). Задайте свою, если знаете значение точнее.
              </Typography.Text>
              {fields
                .filter((field) => !inline?.has(field.name))
                .map((field) => (
                  <UncertaintyField
                    key={field.name}
                    field={field}
                    draft={drafts[field.name]}
                    current={stored?.coefficients[field.name]?.uncertainty}
                    onChange={(change) => set(field.name, change)}
                  />
                ))}
              {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
            </Flex>
          ),
        },
      ]}
    />
  );
});
