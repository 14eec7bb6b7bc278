// The three steps of /export once their code has loaded (ExportPage paints its heading first and
// keeps the data): 1. the format, 2. the project (with the name search), 3. the download with how
// much of the file has arrived, or why it failed.
import { Alert, Button, Card, Flex, Typography, type TableColumnsType } from "antd";
import { Table } from "../../shared/LazyTable";
import { DownloadOutlined, FileExcelOutlined, FileTextOutlined } from "@ant-design/icons";
import { displayDate } from "../../shared/dates";
import type { useMe } from "../../api/profile";
import { PROJECTS_PAGE_SIZE, type Project, type useProjects } from "../../api/projects";
import { ProjectName } from "../../shared/ProjectName";
import { ProjectSearch } from "../../shared/ProjectSearch";
import type { ExportFormat, useExportProject } from "./api";
import type { FileJob } from "../../api/client";
import { FileProgress } from "../../shared/FileProgress";
import { useUrlPage } from "../../shared/urlState";

interface FormatRow {
  format: ExportFormat;
  title: string;
  description: string;
}

const FORMATS: FormatRow[] = [
  { format: "txt", title: "txt", description: "Текстовый файл: проект и результаты расчетов" },
  { format: "xls", title: "xls", description: "Книга Excel 97–2003" },
  { format: "xlsx", title: "xlsx", description: "Книга Excel" },
];

const formatColumns: TableColumnsType<FormatRow> = [
  {
    title: "Формат",
    dataIndex: "title",
    width: 140,
    render: (title: string, row) => (
      <Flex gap={8} align="center">
        {row.format === "txt" ? <FileTextOutlined /> : <FileExcelOutlined />}
        <strong>{title}</strong>
      </Flex>
    ),
  },
  { title: "Описание", dataIndex: "description" },
];

const projectColumns: TableColumnsType<Project> = [
  {
    title: "Название",
    dataIndex: "name",
    render: (name: string) => <ProjectName name={name} />,
  },
  { title: "Дата начала", dataIndex: "start_date", render: displayDate, width: 150 },
  { title: "Дата окончания", dataIndex: "end_date", render: displayDate, width: 150 },
  { title: "Дата создания", dataIndex: "created_at", render: displayDate, width: 150 },
];

interface Props {
  format: ExportFormat | undefined;
  chooseFormat(format: ExportFormat): void;
  me: ReturnType<typeof useMe>;
  projects: ReturnType<typeof useProjects>;
  search: string;
  project: Project | undefined;
  setProject(project: Project | undefined): void;
  exporting: ReturnType<typeof useExportProject>;
  received: number;
  job: FileJob | undefined;
  start(detail: boolean): void;
}

export function ExportSteps({ format, chooseFormat, me, projects, search, project, setProject, exporting, received, job, start }: Props) {
  // The list's page sits in the URL (?page=2), as the page reads it to ask for the list.
  const { page, setPage } = useUrlPage();
  return (
    <>
      <Card title="1. Формат файла" size="small">
        <Table<FormatRow>
          rowKey="format"
          aria-label="Формат файла"
          columns={formatColumns}
          dataSource={FORMATS}
          pagination={false}
          size="middle"
          rowSelection={{
            type: "radio",
            selectedRowKeys: format ? [format] : [],
            onChange: (keys) => chooseFormat(keys[0] as ExportFormat),
          }}
          onRow={(row) => ({ onClick: () => chooseFormat(row.format), style: { cursor: "pointer" } })}
        />
      </Card>

      {format && (
        <Card title="2. Проект" size="small">
          <div style={{ marginBottom: 12 }}>
            <ProjectSearch />
          </div>
          {me.isError && <Alert type="error" showIcon title={me.error.message} />}
          {projects.isError && <Alert type="error" showIcon title={`Не удалось загрузить проекты: ${projects.error.message}`} />}
          <Table<Project>
            rowKey="id"
            aria-label="Проекты"
            columns={projectColumns}
            dataSource={projects.data?.results ?? []}
            loading={projects.isFetching || me.isPending}
            locale={{ emptyText: search ? "Нет проектов с таким названием" : "Проектов пока нет" }}
            size="middle"
            rowSelection={{
              type: "radio",
              selectedRowKeys: project ? [project.id] : [],
              onChange: (_keys, rows) => setProject(rows[0]),
            }}
            onRow={(row) => ({ onClick: () => setProject(row), style: { cursor: "pointer" } })}
            pagination={{
              current: page,
              pageSize: PROJECTS_PAGE_SIZE,
              total: projects.data?.count ?? 0,
              showSizeChanger: false,
              onChange: (next) => setPage(next),
            }}
          />
        </Card>
      )}

      {format && project && (
        <Card title="3. Выгрузка" size="small">
          <Flex vertical gap={12}>
            <Typography.Text>
              Проект «{project.name}», формат {format}
            </Typography.Text>
            <Flex gap={12} wrap>
              <Button type="primary" icon={<DownloadOutlined />} disabled={exporting.isPending} onClick={() => start(false)}>
                Экспорт данных
              </Button>
              {format !== "txt" && (
                <Button icon={<DownloadOutlined />} disabled={exporting.isPending} onClick={() => start(true)}>
                  Подробный экспорт
                </Button>
              )}
            </Flex>
            {exporting.isPending && <FileProgress job={job} received={received} />}
            {exporting.isError && <Alert type="error" showIcon title={`Не удалось выгрузить проект: ${exporting.error.message}`} />}
            {exporting.isSuccess && <Alert type="success" showIcon title={`Файл «${exporting.data}» сохранен`} />}
          </Flex>
        </Card>
      )}
    </>
  );
}
