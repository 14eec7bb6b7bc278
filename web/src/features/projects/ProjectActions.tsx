import type { ReactNode } from "react";
import { Button, Tooltip } from "antd";
import { BarChartOutlined, FundOutlined } from "@ant-design/icons";
import { useSetAtom } from "jotai";
import { useLocation, useNavigate } from "react-router-dom";
import { ArchiveActions } from "../../shared/archive";
import { PROJECT_SCREENS } from "../../shared/screens";
import { ARCHIVE, RESTORE, usePatchProject, type Project } from "../../api/projects";
import { projectDialogAtom } from "./atoms";
import { useFeedback } from "../../shared/feedback";

export function ProjectActions({ project, archived }: { project: Project; archived: boolean }) {
  const openDialog = useSetAtom(projectDialogAtom);
  const patch = usePatchProject();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const change = (changes: typeof ARCHIVE, done: string) =>
    patch.mutate({ project, changes }, { onSuccess: () => message.success(done), onError: (error) => message.error(error.detail) });

  /** The button that opens one of the project's screens (`screen`, the path under the project). */
  const screenButton = (screen: string, title: string, label: string, icon: ReactNode) => (
    <Tooltip title={title}>
      <Button
        aria-label={label}
        icon={icon}
        onClick={() => navigate(`${pathname.replace(/\/+$/, "")}/${encodeURIComponent(project.id)}/${screen}`)}
      />
    </Tooltip>
  );

  // The confirm opens below «В архив»: above it, the button's own tooltip would cover the confirm
  // button (the row's last button sits at the screen's right edge, which shifts the popup left).
  return (
    <ArchiveActions
      archived={archived}
      pending={patch.isPending}
      confirm="Переместить проект в архив?"
      confirmPlacement="bottomRight"
      onEdit={() => openDialog({ mode: "edit", project })}
      onArchive={() => change(ARCHIVE, "Проект перемещен в архив")}
      onRestore={() => change(RESTORE, "Проект восстановлен")}
    >
      {PROJECT_SCREENS.graphs && screenButton("graphs", "Инфографика", "Инфографика", <BarChartOutlined />)}
      {PROJECT_SCREENS.uncertainty &&
        screenButton("uncertainty", "Неопределенность и ключевые категории", "Неопределенность", <FundOutlined />)}
    </ArchiveActions>
  );
}
