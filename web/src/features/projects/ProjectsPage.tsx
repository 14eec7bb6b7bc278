// SPEC 2 /projects: the company's projects, 10 a page, with an archive view and the add/edit dialog.
import { Alert, Button, Flex, Typography } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { useAtom, useSetAtom } from "jotai";
import { ArchiveSwitch } from "../../shared/archive";
import { useMe } from "../profile/api";
import { projectDialogAtom, projectsArchivedAtom, projectsPageAtom } from "./atoms";
import { ProjectDialog } from "./ProjectDialog";
import { ProjectsTable } from "./ProjectsTable";

export default function ProjectsPage() {
  const me = useMe();
  const [archived, setArchived] = useAtom(projectsArchivedAtom);
  const setPage = useSetAtom(projectsPageAtom);
  const openDialog = useSetAtom(projectDialogAtom);

  const showArchive = (value: boolean) => {
    setArchived(value);
    setPage(1);
  };

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Проекты
        </Typography.Title>
        <Flex gap={12} wrap>
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
      {me.data && <ProjectDialog owner={{ company: me.data.company.id, user: me.data.id }} />}
    </Flex>
  );
}
