// The working part of /projects/{projectId}/calculations (docs/user-guide.md), loaded right after the page has
// painted its heading: the type picker (none at first: no list, no add button), the archive switch,
// «Добавить расчет», the type's list and the dialogs. The type, page and archive flag sit in the URL
// (?type=…&page=2&archived=1) so a reload, the back button or a shared link keeps them. D18: «Все
// типы» lists the project's calculations of every type at once, and «Учет» keeps the primary or the
// alternative ones only (?type=all&role=alternative).
import { lazy, Suspense, useEffect } from "react";
import { Button, Flex, Select, Typography } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { useAtomValue, useSetAtom } from "jotai";
import { CALCULATION_TYPES, REGISTRY, type CalculationType } from "@core/registry";
import { INVENTORY_ROLES, INVENTORY_ROLE_SHORT, inventorySourceOf, type InventoryRole } from "@core/inventory";
import { ArchiveSwitch } from "../../shared/archive";
import { useUrlPage, useUrlQuery } from "../../shared/urlState";
import { calculationDialogAtom, resultsDialogAtom } from "./atoms";
import { ALL_TYPES, useCalculation, useCalculations, type ListType } from "../../api/calculations";
import { CalculationsTable } from "./CalculationsTable";
import { LazyLoading } from "../../shared/LazyLoading";

// The dialogs (forms, uploads, result tables) load when one is first opened.
const CalculationDialog = lazy(() => import("./CalculationDialog").then((m) => ({ default: m.CalculationDialog })));
const ResultsDialog = lazy(() => import("./ResultsDialog").then((m) => ({ default: m.ResultsDialog })));

// Every registry type, in the registry's order (docs/api.md): the formula types, the regression
// forecast and the two file-based types; each kind has its own dialog and results view.
// D22: flaring by composition (Order 371) is offered before the IPCC flare types.
const OFFERED = CALCULATION_TYPES.filter((type) => type !== "torch_composition").flatMap((type) =>
  type === "disposal_co2_torch" ? (["torch_composition", type] as const) : [type],
);
const TYPE_OPTIONS: { value: ListType; label: string }[] = [
  { value: ALL_TYPES, label: "Все типы" },
  ...OFFERED.map((type) => ({ value: type, label: REGISTRY[type].title })),
];
const ROLE_OPTIONS = INVENTORY_ROLES.map((role) => ({ value: role, label: INVENTORY_ROLE_SHORT[role] }));

function typeFrom(value: string | null): CalculationType | undefined {
  return CALCULATION_TYPES.find((type) => type === value);
}

function roleFrom(value: string | null): InventoryRole | undefined {
  return INVENTORY_ROLES.find((role) => role === value);
}

/** A filter of the list: one choice, or none after its clear button; `wideOptions`: the open list as wide as its
 *  options need rather than as the field. */
function FilterSelect<T extends string>({
  label,
  value,
  options,
  onChoose,
  placeholder,
  width,
  wideOptions,
}: {
  label: string;
  value: T | undefined;
  options: { value: T; label: string }[];
  onChoose(value: T | undefined): void;
  placeholder: string;
  width: number;
  wideOptions?: boolean;
}) {
  return (
    <Select<T>
      aria-label={label}
      value={value}
      options={options}
      onChange={(next) => onChoose(next)}
      onClear={() => onChoose(undefined)}
      allowClear
      placeholder={placeholder}
      style={{ width, maxWidth: "100%" }}
      popupMatchSelectWidth={!wideOptions}
    />
  );
}

export function CalculationsWorkspace({ projectId, projectDeleted }: { projectId: string; projectDeleted: boolean }) {
  const { params, update } = useUrlQuery();
  const all = params.get("type") === ALL_TYPES;
  const type = typeFrom(params.get("type"));
  const listType: ListType | undefined = all ? ALL_TYPES : type;
  // An analysis type has no «Учет»: its list is not filtered by it.
  const roles = all || (type !== undefined && inventorySourceOf(type) !== undefined);
  const role = roles ? roleFrom(params.get("role")) : undefined;
  const { page } = useUrlPage();
  const archived = params.get("archived") === "1";
  // The list the table shows (the same query): it says when the project's year is frozen (D32).
  const locked = useCalculations({ projectId, type: listType, archived, page, role }).data?.locked;
  const openDialog = useSetAtom(calculationDialogAtom);
  const setResults = useSetAtom(resultsDialogAtom);
  const dialog = useAtomValue(calculationDialogAtom);
  const results = useAtomValue(resultsDialogAtom);
  // In the list of every type a row's own type opens its dialogs.
  const dialogType = dialog?.mode === "edit" ? dialog.calculation.type : type;
  const resultsType = results?.type ?? type;

  // Dialogs belong to this visit: leaving the page (back button) must not reopen them next time.
  useEffect(
    () => () => {
      openDialog(null);
      setResults(null);
    },
    [openDialog, setResults],
  );

  // D19: a link from the inventory's checks (?open=<id>) opens that calculation's results.
  const openId = params.get("open");
  const linked = useCalculation(type ?? CALCULATION_TYPES[0], openId ?? "", undefined, type !== undefined && openId !== null);
  useEffect(() => {
    if (!openId || (!linked.data && !linked.isError)) return;
    if (linked.data?.id === openId) setResults(linked.data);
    update({ open: undefined }, { replace: true });
  }, [openId, linked.data, linked.isError, setResults, update]);

  // docs/user-guide.md: changing the type resets to page 1 and loads that type's list.
  const chooseType = (next: ListType | undefined) => update({ type: next, page: undefined }, { replace: true });
  const chooseRole = (next: InventoryRole | undefined) => update({ role: next, page: undefined }, { replace: true });
  const showArchive = (value: boolean) => update({ archived: value ? "1" : undefined, page: undefined });

  return (
    <>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <FilterSelect
          label="Тип расчета"
          value={listType}
          options={TYPE_OPTIONS}
          onChoose={chooseType}
          placeholder="Выберите тип расчета"
          width={560}
          wideOptions
        />
        {listType && (
          <Flex gap={12} wrap align="center">
            {roles && (
              <FilterSelect label="Учет" value={role} options={ROLE_OPTIONS} onChoose={chooseRole} placeholder="Учет: все" width={190} />
            )}
            <ArchiveSwitch archived={archived} onChange={showArchive} />
            {type && !archived && !projectDeleted && (
              <Flex gap={8} align="center">
                <Button type="primary" icon={<PlusOutlined />} disabled={Boolean(locked)} onClick={() => openDialog({ mode: "create" })}>
                  Добавить расчет
                </Button>
                {locked && (
                  <Typography.Text type="secondary" data-testid="add-locked" style={{ maxWidth: 420 }}>
                    {locked}
                  </Typography.Text>
                )}
              </Flex>
            )}
          </Flex>
        )}
      </Flex>
      <CalculationsTable projectId={projectId} type={listType} role={role} archived={archived} />
      {(dialog || results) && (
        <Suspense fallback={<LazyLoading label="Загрузка формы…" />}>
          {dialog && dialogType && <CalculationDialog key={dialogType} type={dialogType} projectId={projectId} />}
          {results && resultsType && <ResultsDialog type={resultsType} />}
        </Suspense>
      )}
    </>
  );
}
