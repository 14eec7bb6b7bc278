// The projects list: a table on a wide screen, a block per project on a phone (ResponsiveTable).
import type { TableColumnsType } from "antd";
import { ResponsiveTable } from "../../shared/ResponsiveTable";
import { useLocation, useNavigate } from "react-router-dom";
import { useLastPageInRange } from "../../shared/archive";
import { useUrlPage } from "../../shared/urlState";
import { displayDate } from "../../shared/dates";
import { LoadError } from "../../shared/LoadError";
import { NameLink } from "../../shared/NameLink";
import { truncateKeepingYear } from "../../shared/text";
import { PROJECT_SCREENS } from "../../shared/screens";
import { PROJECTS_PAGE_SIZE, useProjects, type Project } from "../../api/projects";
import { ProjectActions } from "./ProjectActions";
import { useProjectSearch } from "../../shared/ProjectSearch";
import { PROJECT_NAME_DISPLAY, ProjectName } from "../../shared/ProjectName";

function columns(archived: boolean, calculationsOf: ((project: Project) => string) | undefined): TableColumnsType<Project> {
  return [
    {
      title: "Название",
      dataIndex: "name",
      render: (name: string, project) => {
        const short = truncateKeepingYear(name, PROJECT_NAME_DISPLAY);
        // docs/user-guide.md: the name opens the project's calculations (the row does too).
        return calculationsOf ? (
          <NameLink to={calculationsOf(project)} title={short === name ? undefined : name}>
            {short}
          </NameLink>
        ) : (
          <ProjectName name={name} />
        );
      },
    },
    { title: "Дата начала", dataIndex: "start_date", render: displayDate, width: 160 },
    { title: "Дата окончания", dataIndex: "end_date", render: displayDate, width: 160 },
    { title: "Дата создания", dataIndex: "created_at", render: displayDate, width: 160 },
    { title: "Отчетный год", dataIndex: "reporting_year", width: 130 },
    {
      title: "Действия",
      key: "actions",
      width: 170,
      render: (_, project) => <ProjectActions project={project} archived={archived} />,
    },
  ];
}

export function ProjectsTable({ companyId, archived }: { companyId: string | undefined; archived: boolean }) {
  const { page, setPage, correctPage } = useUrlPage();
  const search = useProjectSearch();
  const list = useProjects({ companyId, archived, page, search });
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const count = list.data?.count ?? 0;

  useLastPageInRange(list, count, PROJECTS_PAGE_SIZE, page, correctPage);

  // docs/user-guide.md: a row opens the project's calculations, once that screen exists.
  const calculationsOf =
    PROJECT_SCREENS.calculations && !archived
      ? (project: Project) => `${pathname.replace(/\/+$/, "")}/${encodeURIComponent(project.id)}/calculations`
      : undefined;

  return (
    <>
      {list.isError && <LoadError what="проекты" message={list.error.message} retry={() => void list.refetch()} />}
      <ResponsiveTable<Project>
        rowKey="id"
        columns={columns(archived, calculationsOf)}
        dataSource={list.data?.results ?? []}
        loading={list.isFetching}
        locale={{ emptyText: search ? "Нет проектов с таким названием" : archived ? "В архиве нет проектов" : "Проектов пока нет" }}
        // On a narrow window (a tablet) the table scrolls inside its place, not the page.
        scroll={{ x: 930 }}
        onRow={
          calculationsOf ? (project) => ({ onClick: () => navigate(calculationsOf(project)), style: { cursor: "pointer" } }) : undefined
        }
        pagination={{
          current: page,
          pageSize: PROJECTS_PAGE_SIZE,
          total: count,
          showSizeChanger: false,
          hideOnSinglePage: false,
          onChange: (next) => setPage(next),
        }}
      />
    </>
  );
}
