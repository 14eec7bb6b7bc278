// The calculations of one type in a project (docs/user-guide.md): name cut to 50 characters, the result the
// type totals in CO2-eq (or its technology), edit (when the type allows it), archive or restore.
// A row click opens the read-only results. The list of every type (D18) adds each row's type.
import { Tooltip, Typography, type TableColumnsType } from "antd";
import { LockOutlined } from "@ant-design/icons";
import { ResponsiveTable } from "../../shared/ResponsiveTable";
import { useSetAtom } from "jotai";
import { REGISTRY, type CalculationDefinition, type CalculationType } from "@core/registry";
import { INVENTORY_ROLE_SHORT, inventorySourceOf, type InventoryRole } from "@core/inventory";
import { ArchiveActions, useLastPageInRange } from "../../shared/archive";
import { displayDate } from "../../shared/dates";
import { LoadError } from "../../shared/LoadError";
import { NameLink } from "../../shared/NameLink";
import { truncate } from "../../shared/text";
import {
  ALL_TYPES,
  ARCHIVE,
  CALCULATIONS_PAGE_SIZE,
  RESTORE,
  useCalculations,
  usePatchCalculation,
  type Calculation,
  type ListType,
} from "../../api/calculations";
import { calculationDialogAtom, resultsDialogAtom } from "./atoms";
import { formatAmount } from "../../shared/format";
import { flagTexts } from "../../shared/calculationFlags";
import { calculationKind } from "../../shared/calculationKindRegistry";
import { useFeedback } from "../../shared/feedback";
import { useUrlPage } from "../../shared/urlState";

// docs/user-guide.md: calculation names are cut to 50 characters in the list.
export const CALCULATION_NAME_DISPLAY = 50;
export const EMPTY_TEXT = "Список расчетов пуст";
export const EMPTY_ARCHIVE_TEXT = "В архиве нет расчетов";
export const CHOOSE_TYPE_TEXT = "Выберите тип расчета, чтобы увидеть список и добавить расчет";

function Cut({ text, max }: { text: string; max: number }) {
  const short = truncate(text, max);
  return short === text ? text : <Tooltip title={text}>{short}</Tooltip>;
}

/** The list's one result column: the type's CO2-eq total, the recommended technology, or what a
 *  forecast or a series holds (their features say, through the registry app/ fills). */
function summary(def: CalculationDefinition, calculation: Calculation) {
  const kind = calculationKind(calculation.type);
  if (kind) return kind.summary(calculation);
  const field = def.results.find((f) => f.name === def.co2e);
  if (field) return `${formatAmount(calculation[field.name] as number, field.decimals ?? 2)} ${field.unit}`;
  const text = def.results.find((f) => f.type === "text");
  return text ? <Cut text={String(calculation[text.name] ?? "")} max={60} /> : null;
}

function columns(
  listType: ListType | undefined,
  archived: boolean,
  openResults: (calculation: Calculation) => void,
): TableColumnsType<Calculation> {
  if (!listType) return [{ title: "Название", key: "name" }];
  const all = listType === ALL_TYPES;
  // In the list of every type the result and actions follow each row's own type.
  const definitionOf = (calculation: Calculation): CalculationDefinition => REGISTRY[calculation.type];
  return [
    {
      title: "Название",
      dataIndex: "name",
      render: (name: string, calculation) => (
        <>
          {/* D20: counted in an approved year; the reason in the tooltip. */}
          {calculation.locked && (
            <Tooltip title={calculation.locked}>
              <LockOutlined aria-label="Заблокирован: год утвержден" data-testid="calculation-lock" style={{ marginRight: 6 }} />
            </Tooltip>
          )}
          {/* The name opens the results (the row does too). */}
          <NameLink onOpen={() => openResults(calculation)} title={truncate(name, CALCULATION_NAME_DISPLAY) === name ? undefined : name}>
            {truncate(name, CALCULATION_NAME_DISPLAY)}
          </NameLink>
          {/* D10: a custom coefficient without a justification or outside its plausible band. */}
          {(calculation.flags?.length ?? 0) > 0 && (
            <Tooltip title={flagTexts(calculation.type, calculation.flags).join("; ")}>
              <Typography.Text type="warning" data-testid="calculation-flag" style={{ marginLeft: 8, whiteSpace: "nowrap" }}>
                ⚠ проверить
              </Typography.Text>
            </Tooltip>
          )}
        </>
      ),
    },
    ...(all
      ? [{ title: "Тип расчета", key: "type", render: (_: unknown, c: Calculation) => <Cut text={REGISTRY[c.type].title} max={60} /> }]
      : []),
    {
      title: !all && (REGISTRY[listType] as CalculationDefinition).co2e ? "Выбросы" : "Результат",
      key: "result",
      render: (_, calculation) => (
        <span style={{ whiteSpace: definitionOf(calculation).co2e ? "nowrap" : undefined }}>
          {summary(definitionOf(calculation), calculation)}
        </span>
      ),
    },
    // D18: an alternative is shown and never summed in any total; an analysis has no «Учет».
    ...(all || inventorySourceOf(listType)
      ? [
          {
            title: "Учет",
            key: "role",
            width: 140,
            render: (_: unknown, c: Calculation) => (c.inventory_role ? INVENTORY_ROLE_SHORT[c.inventory_role] : "—"),
          },
        ]
      : []),
    { title: "Дата создания", dataIndex: "created_at", render: displayDate, width: 140 },
    {
      title: "Действия",
      key: "actions",
      width: 150,
      render: (_, calculation) => <CalculationActions type={calculation.type} calculation={calculation} archived={archived} />,
    },
  ];
}

interface Props {
  projectId: string;
  type: ListType | undefined;
  /** D18: only the calculations of this «Учет». */
  role?: InventoryRole;
  archived: boolean;
}

export function CalculationsTable({ projectId, type, role, archived }: Props) {
  // The page sits in the URL (?page=2); a page past the last after archiving is corrected without a history entry.
  const { page, setPage, correctPage } = useUrlPage();
  const list = useCalculations({ projectId, type, archived, page, role });
  const openResults = useSetAtom(resultsDialogAtom);
  const count = type ? (list.data?.count ?? 0) : 0;

  useLastPageInRange(list, count, CALCULATIONS_PAGE_SIZE, page, correctPage);

  return (
    <>
      {list.isError && <LoadError what="расчеты" message={list.error.message} retry={() => void list.refetch()} />}
      <ResponsiveTable<Calculation>
        rowKey="id"
        columns={columns(type, archived, openResults)}
        dataSource={type ? (list.data?.results ?? []) : []}
        loading={type !== undefined && list.isFetching}
        // On a narrow screen the table scrolls inside its place, not the page.
        scroll={{ x: 640 }}
        locale={{
          emptyText: (
            <Typography.Text type="secondary">{!type ? CHOOSE_TYPE_TEXT : archived ? EMPTY_ARCHIVE_TEXT : EMPTY_TEXT}</Typography.Text>
          ),
        }}
        onRow={(calculation) => ({ onClick: () => openResults(calculation), style: { cursor: "pointer" } })}
        pagination={
          type
            ? {
                current: page,
                pageSize: CALCULATIONS_PAGE_SIZE,
                total: count,
                showSizeChanger: false,
                onChange: (next) => setPage(next),
              }
            : false
        }
      />
    </>
  );
}

function CalculationActions({ type, calculation, archived }: { type: CalculationType; calculation: Calculation; archived: boolean }) {
  const openDialog = useSetAtom(calculationDialogAtom);
  const patch = usePatchCalculation(type);
  const { message } = useFeedback();

  const change = (changes: typeof ARCHIVE | typeof RESTORE, done: string) =>
    patch.mutate(
      { id: calculation.id, body: { ...changes, version: calculation.version } },
      { onSuccess: () => message.success(done), onError: (error) => message.error(error.detail) },
    );

  return (
    <ArchiveActions
      archived={archived}
      pending={patch.isPending}
      confirm="Переместить расчет в архив?"
      // docs/user-guide.md: edit is hidden for types the registry marks not editable (recycle_technology).
      onEdit={REGISTRY[type].editable ? () => openDialog({ mode: "edit", calculation }) : undefined}
      onArchive={() => change(ARCHIVE, "Расчет перемещен в архив")}
      onRestore={() => change(RESTORE, "Расчет восстановлен")}
      locked={calculation.locked}
    />
  );
}
