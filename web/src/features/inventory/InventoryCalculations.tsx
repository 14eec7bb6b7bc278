// The calculations behind the year's inventory, a page at a time from inventory/calculations:
// a line's (the category table's expanded row) or the ones the total leaves out (the checks).
// Each opens the calculation itself and shows its type, project, period, notes and flags, its
// gases and the coefficients it used.
import { useState } from "react";
import { Link } from "react-router-dom";
import { Flex, Tag, Typography, type TableColumnsType } from "antd";
import { ResponsiveTable } from "../../shared/ResponsiveTable";
import { LazyLoading } from "../../shared/LazyLoading";
import { LoadError } from "../../shared/LoadError";
import { METHOD_LABELS, INVENTORY_SOURCES, NETTING_LABEL } from "@core/inventory";
import { REGISTRY, isCalculationType, type CalculationType } from "@core/registry";
import { periodText } from "@core/source-periods";
import { formatResult, formatStoredAtMost } from "../../shared/decimals";
import { flagTexts } from "../../shared/calculationFlags";
import {
  INVENTORY_CALCULATIONS_PAGE,
  useInventoryCalculations,
  type InventoryCalculation,
  type InventoryCalculationsOf,
} from "../../api/inventory";

export const T_CO2E = "т CO2-экв.";
export const tonnes = (value: number) => formatResult(value, 2);

/** The calculation itself: its project's list of its type with its results open. */
export function calculationLink(calculation: { id: string; type: string; project: { id: string } }) {
  const { id, type, project } = calculation;
  return `/projects/${encodeURIComponent(project.id)}/calculations?type=${encodeURIComponent(type)}&open=${encodeURIComponent(id)}`;
}

/** The field as the dialog shows it (never its API name). */
function fieldOf(type: string, name: string) {
  if (!isCalculationType(type)) return undefined;
  const def = REGISTRY[type];
  return [...def.inputs, ...def.settings].find((f) => f.name === name);
}

/** A coefficient's places: its field's, else four (a content, a density, a factor). */
const COEFFICIENT_PLACES = 4;

function coefficientsText(row: InventoryCalculation): string {
  return Object.entries(row.coefficients)
    .filter(([name]) => name !== "gwp_ch4")
    .map(([name, use]) => {
      const origin = use.source === "custom" ? "фактическое значение" : (use.item_name ?? use.reference ?? "");
      const field = fieldOf(row.type, name);
      const places =
        field && "decimals" in field && typeof field.decimals === "number"
          ? Math.max(field.decimals, COEFFICIENT_PLACES)
          : COEFFICIENT_PLACES;
      return `${field?.label ?? name}: ${formatStoredAtMost(use.value, places)} ${use.unit}${origin ? ` (${origin})` : ""}`;
    })
    .join("; ");
}

const columns: TableColumnsType<InventoryCalculation> = [
  {
    title: "Расчет",
    key: "name",
    render: (_: unknown, row) => (
      <Flex vertical gap={2}>
        <Link to={calculationLink(row)}>{row.name}</Link>
        <Typography.Text type="secondary">
          {row.type_title}; проект «{row.project.name}»{row.period && `; ${periodText(row.period)}`}
        </Typography.Text>
        {/* D16, D22: notes on the line; D10, D23: what a reader should check. */}
        {[...(row.notes ?? []), ...(isCalculationType(row.type) ? flagTexts(row.type, row.flags) : [])].map((text) => (
          <Typography.Text key={text} type="warning" style={{ fontSize: 12 }}>
            {text}
          </Typography.Text>
        ))}
      </Flex>
    ),
  },
  {
    title: "Роль",
    key: "role",
    width: 150,
    // D43: a primary calculation left out while it duplicates another says so.
    render: (_: unknown, row) =>
      row.counted ? (
        <Tag color="blue">основной</Tag>
      ) : row.not_counted ? (
        <Tag color="orange">{row.not_counted}</Tag>
      ) : (
        <Tag>альтернативный</Tag>
      ),
  },
  {
    title: "Метод",
    key: "method",
    width: 200,
    render: (_: unknown, row) => row.method ?? METHOD_LABELS[INVENTORY_SOURCES[row.type as CalculationType]?.method ?? "coefficients"],
  },
  {
    title: "Выбросы",
    key: "gases",
    width: 230,
    render: (_: unknown, row) =>
      row.gases.map((g) => {
        // D26: the line carries the net figure; the calculation's gross result, what the netting
        // takes off it and what is left are printed beside each other.
        const off = row.netting?.find((n) => n.gas === g.gas);
        return (
          <div key={g.gas}>
            {g.gas}: {tonnes(g.t)} т ({tonnes(g.t_co2e)} {T_CO2E})
            {off && (
              <Typography.Text type="secondary" data-testid="netting-note">
                <br />
                {NETTING_LABEL}: {tonnes(off.t)} т ({tonnes(off.t_co2e)} {T_CO2E}); в строке: {tonnes(g.t - off.t)} т (
                {tonnes(g.t_co2e - off.t_co2e)} {T_CO2E})
              </Typography.Text>
            )}
          </div>
        );
      }),
  },
  { title: "Коэффициенты", key: "coefficients", render: (_: unknown, row) => coefficientsText(row) || "—" },
];

/** The calculations `of` asks for, paged by the server; `testId` names the list for the tests. */
export function InventoryCalculations({ of, emptyText, testId }: { of: InventoryCalculationsOf; emptyText: string; testId?: string }) {
  const [page, setPage] = useState(1);
  const calculations = useInventoryCalculations(of, page);
  if (calculations.isPending) return <LazyLoading label="Загрузка расчетов…" />;
  if (calculations.isError)
    return <LoadError what="расчеты" message={calculations.error.message} retry={() => void calculations.refetch()} />;
  return (
    <div data-testid={testId}>
      <ResponsiveTable<InventoryCalculation>
        rowKey="id"
        size="small"
        loading={calculations.isPlaceholderData}
        columns={columns}
        dataSource={calculations.data.results}
        locale={{ emptyText }}
        pagination={{
          current: page,
          pageSize: INVENTORY_CALCULATIONS_PAGE,
          total: calculations.data.count,
          onChange: setPage,
          showSizeChanger: false,
          showTotal: (total) => `Всего расчетов: ${total}`,
        }}
      />
    </div>
  );
}
