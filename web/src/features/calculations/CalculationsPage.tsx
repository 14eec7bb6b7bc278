// docs/user-guide.md, /projects/{projectId}/calculations: pick a calculation type (none at first: no list, no
// add button), then its list, 10 a page, with an archive view, the create/edit dialog and the
// read-only results. The type, page and archive flag sit in the URL (?type=…&page=2&archived=1)
// so a reload, the back button or a shared link keeps them. The page paints its heading and the
// link to the project's uncertainty first; the picker, the list and the dialogs
// (CalculationsWorkspace) load right after.
import { lazy, Suspense } from "react";
import { Alert, Flex, Typography } from "antd";
import { FundOutlined } from "@ant-design/icons";
import { Link, useParams } from "react-router-dom";
import { useProject } from "../../api/calculations";
import { LazyLoading } from "../../shared/LazyLoading";
import { loadCalculationKinds } from "../../shared/calculationKindRegistry";

// The list shows forecasts and series through the kinds app/ registers: they load beside it.
const CalculationsWorkspace = lazy(async () => {
  const [workspace] = await Promise.all([import("./CalculationsWorkspace"), loadCalculationKinds()]);
  return { default: workspace.CalculationsWorkspace };
});

export default function CalculationsPage() {
  const { projectId = "" } = useParams();
  const project = useProject(projectId);

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        {project.data ? `Расчеты — ${project.data.name}` : "Расчеты"}
      </Typography.Title>
      {project.isError && <Alert type="error" showIcon title={`Не удалось загрузить проект: ${project.error.message}`} />}
      <Link to={`/projects/${encodeURIComponent(projectId)}/uncertainty`}>
        <FundOutlined /> Неопределенность и ключевые категории проекта
      </Link>
      <Suspense fallback={<LazyLoading />}>
        <CalculationsWorkspace projectId={projectId} projectDeleted={project.data?.is_deleted ?? false} />
      </Suspense>
    </Flex>
  );
}
