// /abatement «Снижение выбросов» (docs/user-guide.md; methodology section 11, D47–D55): the company's
// assessments; the editor (AbatementEditor.tsx: streams, prices, the live preview computed by the core
// in the page, the MACC, the tornado and the targets) loads after the list, in a chunk of its own.
import { lazy, Suspense, useState } from "react";
import { Button, type TableColumnsType } from "antd";
import { formatResult } from "../../shared/decimals";
import { PageLoading } from "../../shared/PageLoading";
import { RecordsPage } from "../../shared/RecordsPage";
import { useUrlQuery } from "../../shared/urlState";
import { useArchiveAssessment, useAssessments } from "./api";
import type { TypedDraft } from "./AbatementEditor";

const Editor = lazy(() => import("./AbatementEditor"));
const StoredEditor = lazy(() => import("./AbatementEditor").then((m) => ({ default: m.StoredEditor })));

const T_CO2E = "т CO2-экв.";
/** Decimals of the list's reduction (ABATEMENT_DECIMALS.er_t_co2e of the core, which the editor's chunk carries). */
const ER_DECIMALS = 1;
const fmt = (value: number | null | undefined, decimals: number) =>
  value === null || value === undefined ? "—" : formatResult(value, decimals);

export default function AbatementPage() {
  const { params, update } = useUrlQuery();
  const selected = params.get("id") ?? undefined;
  const creating = params.get("new") === "1";
  const list = useAssessments();
  const archive = useArchiveAssessment();
  // What was typed when an assessment was saved: its editor shows it as typed, spaces and all.
  const [typed, setTyped] = useState<TypedDraft>();
  const saved = (draft: TypedDraft) => {
    setTyped(draft);
    update({ id: draft.id, new: undefined });
  };

  const columns: TableColumnsType<NonNullable<typeof list.data>["results"][number]> = [
    { title: "Год данных", dataIndex: "year", width: 110, render: (year: number | null) => year ?? "—" },
    { title: "Потоков", dataIndex: "streams", width: 90 },
    {
      title: `Сокращение, ${T_CO2E}/год`,
      dataIndex: "er_t_co2e",
      align: "right",
      render: (v: number) => fmt(v, ER_DECIMALS),
    },
    { title: "ЧДД плана, ₽", dataIndex: "npv_rub", align: "right", render: (v: number) => fmt(v, 0) },
    {
      title: "",
      key: "archive",
      width: 130,
      render: (_, row) => (
        <Button size="small" onClick={() => archive.mutate({ id: row.id, version: row.version, archived: !row.archived })}>
          {row.archived ? "Вернуть" : "В архив"}
        </Button>
      ),
    },
  ];

  return (
    <RecordsPage
      testId="abatement-page"
      title="Снижение выбросов"
      newText="Новая оценка"
      onNew={() => update({ new: "1", id: undefined })}
      intro="Варианты снижения выбросов метана по потокам шахты: что допускается технически, сколько т CO2-экв. сокращает, сколько углеродных единиц может дать климатический проект, затраты и доходы. Оценка не входит в инвентаризацию."
      list={list}
      what="оценки"
      empty="Оценок пока нет"
      nameTitle="Оценка"
      onOpen={(row) => update({ id: row.id, new: undefined })}
      columns={columns}
      width={640}
      rowClassName={(row) => (row.archived ? "ant-table-row-archived" : "")}
    >
      <Suspense fallback={<PageLoading />}>
        {creating ? <Editor key="new" onSaved={saved} /> : selected ? <StoredEditor id={selected} typed={typed} onSaved={saved} /> : null}
      </Suspense>
    </RecordsPage>
  );
}
