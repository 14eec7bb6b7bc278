// The working part of /projects/{projectId}/calculations (docs/user-guide.md), loaded right after the page has
// painted its heading: the type picker (none at first: no list, no add button), the archive switch,
// «Добавить расчет», the type's list and the dialogs. The type, page and archive flag sit in the URL
// (?type=…&page=2&archived=1) so a reload, the back button or a shared link keeps them.
import { lazy, Suspense, useEffect } from "react";
import { Button, Flex, Select } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { useAtomValue, useSetAtom } from "jotai";
import { CALCULATION_TYPES, REGISTRY, type CalculationType } from "@core/registry";
import { ArchiveSwitch } from "../../shared/archive";
import { useUrlPage, useUrlQuery } from "../../shared/urlState";
import { calculationDialogAtom, resultsDialogAtom } from "./atoms";
import { useCalculation } from "./api";
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
const TYPE_OPTIONS = OFFERED.map((type) => ({ value: type, label: REGISTRY[type].title }));

function typeFrom(value: string | null): CalculationType | undefined {
  return CALCULATION_TYPES.find((type) => type === value);
}

export function CalculationsWorkspace({ projectId, projectDeleted }: { projectId: string; projectDeleted: boolean }) {
  const { params, update } = useUrlQuery();
  const type = typeFrom(params.get("type"));
  const { page, setPage, correctPage } = useUrlPage();
  const archived = params.get("archived") === "1";
  const openDialog = useSetAtom(calculationDialogAtom);
  const setResults = useSetAtom(resultsDialogAtom);
  const dialogOpen = useAtomValue(calculationDialogAtom) !== null;
  const resultsOpen = useAtomValue(resultsDialogAtom) !== null;

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
  const chooseType = (next: CalculationType | undefined) => update({ type: next, page: undefined }, { replace: true });
  const showArchive = (value: boolean) => update({ archived: value ? "1" : undefined, page: undefined });

  return (
    <>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Select<CalculationType>
          aria-label="Тип расчета"
          value={type}
          options={TYPE_OPTIONS}
          onChange={(value) => chooseType(value)}
          onClear={() => chooseType(undefined)}
          allowClear
          placeholder="Выберите тип расчета"
          style={{ width: 560, maxWidth: "100%" }}
          popupMatchSelectWidth={false}
        />
        {type && (
          <Flex gap={12} wrap>
            <ArchiveSwitch archived={archived} onChange={showArchive} />
            {!archived && !projectDeleted && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => openDialog({ mode: "create" })}>
                Добавить расчет
              </Button>
            )}
          </Flex>
        )}
      </Flex>
      <CalculationsTable projectId={projectId} type={type} archived={archived} page={page} onPage={setPage} onCorrectPage={correctPage} />
      {type && (dialogOpen || resultsOpen) && (
        <Suspense fallback={<LazyLoading label="Загрузка формы…" />}>
          {dialogOpen && <CalculationDialog key={type} type={type} projectId={projectId} />}
          {resultsOpen && <ResultsDialog type={type} />}
        </Suspense>
      )}
    </>
  );
}
