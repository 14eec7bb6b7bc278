// /climate-projects «Климатические проекты» (docs/user-guide.md; methodology section 13, D67–D80): the
// company's projects; a project's form with its devices and their meters from the facility's register
// (ClimateProjectForm.tsx) and its card with a monitoring period computed from the stored minutes — its
// totals, carbon units, deviations and the hour table of each device (ClimateProjectView.tsx) — load in
// chunks of their own. A project's figures are an assessment, never part of the inventory.
import { lazy, Suspense } from "react";
import { displayDate } from "../../shared/dates";
import { PageLoading } from "../../shared/PageLoading";
import { RecordsPage } from "../../shared/RecordsPage";
import { useUrlQuery } from "../../shared/urlState";
import { useClimateProjects } from "./api";

const ClimateProjectForm = lazy(() => import("./ClimateProjectForm").then((m) => ({ default: m.ClimateProjectForm })));
const ProjectView = lazy(() => import("./ClimateProjectView"));

export default function ClimateProjectsPage() {
  const { params, update } = useUrlQuery();
  const selected = params.get("id") ?? undefined;
  const creating = params.get("new") === "1";
  // «Создать климатический проект» of «Снижение выбросов»: the assessment and the stream it starts from.
  const assessment = params.get("assessment");
  const stream = params.get("stream");
  const fromAssessment = assessment && stream ? { assessment, stream } : undefined;
  const list = useClimateProjects();
  return (
    <RecordsPage
      testId="climate-projects-page"
      title="Климатические проекты"
      newText="Новый проект"
      onNew={() => update({ new: "1", id: undefined, period: undefined })}
      intro="Сокращения выбросов метана факелами, ГПУ и котлами шахты по часам из минутных показаний датчиков (ACM0008, правила 2026.7) и углеродные единицы отчетного периода. Оценка сокращений, в инвентаризацию не входит."
      list={list}
      what="проекты"
      empty="Климатических проектов пока нет"
      nameTitle="Проект"
      onOpen={(row) => update({ id: row.id, new: undefined, period: undefined })}
      columns={[
        { title: "Площадка", dataIndex: "facility_name" },
        { title: "Начало", dataIndex: "start", width: 120, render: (d: string) => displayDate(d) },
        { title: "Устройств", dataIndex: "devices", width: 100, align: "right" },
      ]}
      width={560}
    >
      {creating ? (
        <Suspense fallback={<PageLoading />}>
          <ClimateProjectForm
            from={fromAssessment}
            onSaved={(p) => update({ id: p.id, new: undefined, assessment: undefined, stream: undefined })}
            onCancel={() => update({ new: undefined, assessment: undefined, stream: undefined })}
          />
        </Suspense>
      ) : selected ? (
        <Suspense fallback={<PageLoading />}>
          <ProjectView key={selected} id={selected} />
        </Suspense>
      ) : null}
    </RecordsPage>
  );
}
