// /climate-projects «Климатические проекты» (docs/user-guide.md; methodology section 13, D67–D80): the
// company's projects; a project's form with its devices and their meters from the facility's register
// (ClimateProjectForm.tsx) and its card with a monitoring period computed from the stored minutes — its
// totals, carbon units, deviations and the hour table of each device (ClimateProjectView.tsx) — load in
// chunks of their own. A project's figures are an assessment, never part of the inventory.
import { lazy, Suspense } from "react";
import { Button, Flex, Typography } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { displayDate } from "../../shared/dates";
import { Table } from "../../shared/LazyTable";
import { LoadError } from "../../shared/LoadError";
import { PageLoading } from "../../shared/PageLoading";
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
    <Flex vertical gap={16} data-testid="climate-projects-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Климатические проекты
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => update({ new: "1", id: undefined, period: undefined })}>
          Новый проект
        </Button>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Сокращения выбросов метана факелами, ГПУ и котлами шахты по часам из минутных показаний датчиков (ACM0008, правила 2026.7) и
        углеродные единицы отчетного периода. Оценка сокращений, в инвентаризацию не входит.
      </Typography.Paragraph>
      {list.error ? (
        <LoadError what="проекты" message={list.error.message} retry={() => void list.refetch()} />
      ) : (
        <Table
          size="small"
          rowKey="id"
          loading={list.isLoading}
          dataSource={list.data?.results ?? []}
          pagination={false}
          scroll={{ x: 560 }}
          locale={{ emptyText: "Климатических проектов пока нет" }}
          columns={[
            {
              title: "Проект",
              dataIndex: "name",
              render: (name: string, row) => (
                <Button
                  type="link"
                  style={{ padding: 0, whiteSpace: "normal", textAlign: "left" }}
                  onClick={() => update({ id: row.id, new: undefined, period: undefined })}
                >
                  {name}
                </Button>
              ),
            },
            { title: "Площадка", dataIndex: "facility_name" },
            { title: "Начало", dataIndex: "start", width: 120, render: (d: string) => displayDate(d) },
            { title: "Устройств", dataIndex: "devices", width: 100, align: "right" },
          ]}
        />
      )}
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
    </Flex>
  );
}
