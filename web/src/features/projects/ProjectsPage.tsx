// docs/user-guide.md, /projects: the company's projects, 10 a page, with an archive view, a search by name and
// the add/edit dialog. Page, archive and search sit in the address (?page=2&archived=1&search=…).
import { Alert, Button, Flex, Typography } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { useAtomValue, useSetAtom } from "jotai";
import { lazy, Suspense } from "react";
import { ArchiveSwitch } from "../../shared/archive";
import { LazyLoading } from "../../shared/LazyLoading";
import { useUrlQuery } from "../../shared/urlState";
import { useMe } from "../../api/profile";
import { projectDialogAtom } from "./atoms";
// The dialog (form, date pickers, schemas) loads when it is first opened.
const ProjectDialog = lazy(() => import("./ProjectDialog").then((m) => ({ default: m.ProjectDialog })));
import { ProjectSearch } from "../../shared/ProjectSearch";
import { ProjectsTable } from "./ProjectsTable";

export default function ProjectsPage() {
  const me = useMe();
  const { params, update } = useUrlQuery();
  const archived = params.get("archived") === "1";
  const openDialog = useSetAtom(projectDialogAtom);
  const dialog = useAtomValue(projectDialogAtom);

  const showArchive = (value: boolean) => update({ archived: value ? "1" : undefined, page: undefined });

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Проекты
        </Typography.Title>
        <Flex gap={12} wrap>
          <ProjectSearch />
          <ArchiveSwitch archived={archived} onChange={showArchive} />
          {!archived && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => openDialog({ mode: "create" })} disabled={!me.data}>
              Добавить проект
            </Button>
          )}
        </Flex>
      </Flex>
      {me.isError && <Alert type="error" showIcon title={me.error.message} />}
      <ProjectsTable companyId={me.data?.company?.id} archived={archived} />
      {me.data && dialog && (
        <Suspense fallback={<LazyLoading label="Загрузка формы…" />}>
          <ProjectDialog owner={{ company: me.data.company.id, user: me.data.id }} />
        </Suspense>
      )}
    </Flex>
  );
}
