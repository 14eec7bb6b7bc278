// docs/user-guide.md, /export: choose txt, xls or xlsx, then a project (10 a page), then «Экспорт данных» or,
// for the spreadsheets, «Подробный экспорт». While the server makes the file the page shows how
// much has arrived; a failure is shown, not only logged. Format, page and the name search sit in
// the address (?format=xlsx&page=2&search=…): reload and back keep the list where it was.
// The page paints its heading and asks for the data first; the steps (ExportSteps: cards, tables,
// the search) load right after.
import { lazy, Suspense, useState } from "react";
import { Flex, Typography } from "antd";
import { LazyLoading } from "../../shared/LazyLoading";
import { useUrlPage, useUrlQuery } from "../../shared/urlState";
import { useMe } from "../../api/profile";
import { useProjects, type Project } from "../../api/projects";
import { EXPORT_FORMATS, useExportProject, type ExportFormat } from "./api";
import { useFeedback } from "../../shared/feedback";
import type { FileJob } from "../../api/client";

const ExportSteps = lazy(() => import("./ExportSteps").then((m) => ({ default: m.ExportSteps })));

const formatFrom = (value: string | null): ExportFormat | undefined => EXPORT_FORMATS.find((format) => format === value);

export default function ExportPage() {
  const me = useMe();
  const { params, update } = useUrlQuery();
  const format = formatFrom(params.get("format"));
  const { page } = useUrlPage();
  // The name search of ProjectSearch (?search=), read here so that the list is asked for at once.
  const search = params.get("search")?.trim() ?? "";
  const [project, setProject] = useState<Project>();
  const [received, setReceived] = useState(0);
  const [job, setJob] = useState<FileJob>();
  const projects = useProjects({ companyId: format ? me.data?.company?.id : undefined, archived: false, page, search });
  const exporting = useExportProject(setReceived, setJob);
  const { message } = useFeedback();

  const chooseFormat = (next: ExportFormat) => {
    // Another format keeps the project list where it is: only the file changes.
    update({ format: next }, { replace: true });
    exporting.reset();
  };

  const start = (detail: boolean) => {
    if (!format || !project) return;
    setReceived(0);
    setJob(undefined);
    exporting.mutate(
      { projectId: project.id, format, detail },
      {
        onSuccess: (fileName) => message.success(`Файл «${fileName}» сохранен`),
        onError: (error) => message.error(`Не удалось выгрузить проект: ${error.message}`),
      },
    );
  };

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Экспорт
      </Typography.Title>

      <Suspense fallback={<LazyLoading />}>
        <ExportSteps
          format={format}
          chooseFormat={chooseFormat}
          me={me}
          projects={projects}
          search={search}
          project={project}
          setProject={setProject}
          exporting={exporting}
          received={received}
          job={job}
          start={start}
        />
      </Suspense>
    </Flex>
  );
}
