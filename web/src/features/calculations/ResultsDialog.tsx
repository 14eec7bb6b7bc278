// A row's read-only results (docs/user-guide.md) with everything needed to audit them (methodology D9): each
// result with its unit — for the regression its rows and model, for the file-based types their
// tables and charts per element — then every input and coefficient with its value, unit, source
// (dictionary entry and version, «Фактическое значение», fixed or typed) and reference, the GWP
// set, the methodology version, and who created and changed it when.
import { Suspense, type CSSProperties } from "react";
import { Alert, Button, Descriptions, Flex, Modal, Spin, Table, Typography, type TableColumnsType } from "antd";
import { useAtom } from "jotai";
import {
  METHANE_BASIS_LABELS,
  REGISTRY,
  isFormulaType,
  type CalculationDefinition,
  type CalculationType,
  type NumberField,
  unitWith,
  usedEntry,
} from "@core/registry";
import { useCalculation, type Calculation, type CoefficientUse } from "../../api/calculations";
import { resultsDialogAtom } from "./atoms";
import { formatStored, sourceText, withUnit } from "../../shared/format";
import { displayDateTime } from "../../shared/dates";
import { DEFAULT_DECIMALS, formatStoredAtMost } from "../../shared/decimals";
import { useInputDecimals } from "../../shared/useInputDecimals";
import { ResultValues } from "./ResultValues";
import { calculationKind } from "../../shared/calculationKindRegistry";
import { CalculationInterval } from "../../shared/uncertainty/CalculationInterval";
import { uncertaintyText } from "../../shared/uncertainty/texts";
import { flagTexts } from "../../shared/calculationFlags";
import { EvidenceLink } from "./EvidenceField";
import { enteredText } from "@core/entry-units";
import { periodText } from "@core/source-periods";
import { TIER_LABELS, tierOf } from "@core/coefficient-sources";
import { PURE_METHANE_NOTE, assumesPureMethane, basisAsked, basisOf } from "@core/methane-balance";
import { actorText } from "../../shared/text";

export function ResultsDialog({ type }: { type: CalculationType }) {
  const [row, setRow] = useAtom(resultsDialogAtom);
  const close = () => setRow(null);
  return (
    <Modal
      open={row !== null}
      title={row?.name}
      // The long name wraps before the close ×, not under it.
      styles={{ header: { paddingRight: 32 } }}
      onCancel={close}
      width={isFormulaType(type) ? 900 : 1240}
      destroyOnHidden
      footer={<Button onClick={close}>Закрыть</Button>}
    >
      {row && <ResultsBody type={type} row={row} />}
    </Modal>
  );
}

interface CoefficientRow {
  key: string;
  label: string;
  value: string;
  /** D13: the value as typed in another unit, or "". */
  entered: string;
  source: string;
  reference: string;
  uncertainty: string;
  uncertaintySource: string;
  /** D29: «Уровень 3 (измерения организации)» and so on; "" for a value with no recorded source. */
  tier: string;
}

const NOWRAP: CSSProperties = { whiteSpace: "nowrap" };

/** A cell's text and, under it, its small grey note when it has one. */
const withNote = (text: string, note: string, textStyle: CSSProperties, noteStyle?: CSSProperties) => (
  <span>
    <span style={textStyle}>{text}</span>
    {note && (
      <Typography.Text type="secondary" style={{ display: "block", fontSize: 12, ...noteStyle }}>
        {note}
      </Typography.Text>
    )}
  </span>
);

/** The columns of the coefficients table; a custom value's evidence file links under its justification. */
const columnsFor = (calculation: Calculation): TableColumnsType<CoefficientRow> => [
  { title: "Показатель", dataIndex: "label" },
  {
    title: "Значение",
    dataIndex: "value",
    width: 170,
    render: (text: string, row) => withNote(text, row.entered, NOWRAP, NOWRAP),
  },
  {
    title: "Источник",
    dataIndex: "source",
    width: 230,
    render: (text: string, row) => withNote(text, row.tier, { display: "block" }),
  },
  {
    title: "Неопределенность (95 %)",
    dataIndex: "uncertainty",
    width: 210,
    render: (text: string, row) => withNote(text, row.uncertaintySource, NOWRAP),
  },
  {
    title: "Обоснование",
    dataIndex: "reference",
    render: (text: string, row) => (
      <>
        <Typography.Text type="secondary">{text}</Typography.Text>
        {calculation.coefficients[row.key]?.source === "custom" && (
          <div>
            <EvidenceLink calculation={calculation} field={row.key} />
          </div>
        )}
      </>
    ),
  },
];

/** D13: «введено: 3 100 тыс. т» for a value typed in another unit than the stored one. */
const enteredNote = (calculation: Calculation, field: string): string => {
  const entered = calculation.entered?.[field];
  return entered ? `введено: ${enteredText(entered)}` : "";
};

/** Inputs, then settings, in registry order: what the calculation was computed from. */
export function coefficientRows(calculation: Calculation, decimals = DEFAULT_DECIMALS): CoefficientRow[] {
  const def: CalculationDefinition = REGISTRY[calculation.type];
  const fields = [...def.inputs, ...def.settings].filter((f): f is NumberField => f.type === "number");
  return fields.flatMap((field) => {
    const use: CoefficientUse | undefined = calculation.coefficients[field.name];
    const value = use?.value ?? calculation[field.name];
    if (typeof value !== "number") return [];
    return [
      {
        key: field.name,
        label: field.label,
        // A value derived from the measurement periods is a mean of many digits: shown to at most
        // the settings' decimals, without trailing zeros («9 232 128 тыс. м³», never «9 232 128,0000»),
        // the stored one being exact (D14).
        // 4.8: a fuel's consumption in its entry's unit, also where stored before it was recorded so.
        value: withUnit(
          use?.source === "periods" ? formatStoredAtMost(value, decimals) : formatStored(value),
          use?.unit && use.unit !== field.unit && use.unit !== "—"
            ? use.unit
            : unitWith(def, field, (d) => usedEntry(calculation.coefficients, d)),
        ),
        entered: enteredNote(calculation, field.name),
        source: sourceText(use),
        tier: use ? TIER_LABELS[tierOf(calculation.type, field.name, use.source)] : "",
        // D10: a custom value's justification is what a later reader needs.
        reference: use?.source === "custom" ? (use.justification ?? "Обоснование не указано") : (use?.reference ?? ""),
        uncertainty: use?.uncertainty ? uncertaintyText(use.uncertainty) : "—",
        uncertaintySource:
          use?.uncertainty?.origin === "activity" ? (use.uncertainty.source.split(":")[0] ?? "") : (use?.uncertainty?.source ?? ""),
      },
    ];
  });
}

/** The results proper: by the type's kind. */
function Results({ type, calculation }: { type: CalculationType; calculation: Calculation }) {
  if (isFormulaType(type)) return <ResultValues type={type} results={calculation} testId="stored" />;
  const kind = calculationKind(type);
  if (!kind) return null;
  return (
    <Suspense fallback={<Spin />}>
      <kind.Results calculation={calculation} />
    </Suspense>
  );
}

function ResultsBody({ type, row }: { type: CalculationType; row: Calculation }) {
  // A forecast's results need its list row only: its rows and chart are asked apart, a page and
  // at most 2 000 points (ForecastResults), never the whole history of single_calc.
  const lean = type === "regres_methane";
  const query = useCalculation(type, row.id, row, !lean);
  const calculation = query.data ?? row;
  const gwp = calculation.coefficients.gwp_ch4;
  const coefficients = coefficientRows(calculation, useInputDecimals("create"));
  // Post-mining methane has no basis to choose (always all of it): nothing to say.
  const basis = basisAsked(type) ? basisOf(type, calculation) : undefined;
  const audit = [
    ...(gwp ? [{ key: "gwp", label: "Набор ПГП", children: `${gwp.item_name ?? sourceText(gwp)}: CH4 = ${formatStored(gwp.value)}` }] : []),
    // D19: the part of the project's dates it covers.
    {
      key: "period",
      label: "Период расчета",
      children: calculation.period ? periodText(calculation.period) : "весь период проекта",
    },
    // D17: whether the inventory subtracts the facility's flared and used methane from it.
    ...(basis ? [{ key: "basis", label: "Основа выброса метана", children: METHANE_BASIS_LABELS[basis] }] : []),
    // D24: the CO2 the drained gas carries is not in this figure.
    ...(assumesPureMethane({ type, inputs: calculation, coefficients: calculation.coefficients })
      ? [{ key: "pure-methane", label: "Состав газа", children: PURE_METHANE_NOTE }]
      : []),
    { key: "methodology", label: "Версия методики", children: calculation.methodology_version },
    { key: "created", label: "Создан", children: `${displayDateTime(calculation.created_at)}, ${actorText(calculation.created_by)}` },
    { key: "updated", label: "Изменен", children: `${displayDateTime(calculation.updated_at)}, ${actorText(calculation.updated_by)}` },
  ];
  return (
    <Flex vertical gap={16} data-testid="results-dialog">
      <Typography.Text type="secondary">{REGISTRY[type].title}</Typography.Text>
      {/* A list row lacks the bulky parts (the forecast's rows): wait for single_calc. */}
      {query.isPlaceholderData && !isFormulaType(type) && !lean ? (
        <Flex justify="center" style={{ padding: 32 }}>
          <Spin />
        </Flex>
      ) : (
        <Results type={type} calculation={calculation} />
      )}
      {isFormulaType(type) && <CalculationInterval calculation={calculation} />}
      {(calculation.flags?.length ?? 0) > 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="calculation-flags"
          message="Проверьте фактические значения"
          description={flagTexts(type, calculation.flags).map((text) => <div key={text}>{text}</div>)}
        />
      )}
      {calculation.gwp_not_in_force === true && (
        <Alert
          type="warning"
          showIcon
          data-testid="gwp-not-in-force"
          message="Набор ПГП не совпадает с действующим для отчетного года проекта"
          description="Расчет выполнен с набором ПГП, выбранным вручную. Чтобы применить действующий набор, измените отчетный год проекта и пересчитайте расчеты или выберите набор «по отчетному году проекта» при изменении расчета."
        />
      )}
      {coefficients.length > 0 && (
        <div>
          <Typography.Title level={5}>{isFormulaType(type) ? "Исходные данные и коэффициенты" : "Параметры расчета"}</Typography.Title>
          <Table<CoefficientRow> size="small" rowKey="key" columns={columnsFor(calculation)} dataSource={coefficients} pagination={false} />
        </div>
      )}
      <Descriptions size="small" column={1} bordered items={audit} />
    </Flex>
  );
}
