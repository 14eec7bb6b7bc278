import { App, Button, Popconfirm, Space, Tooltip } from "antd";
import { BarChartOutlined, DeleteOutlined, EditOutlined, UndoOutlined } from "@ant-design/icons";
import { useSetAtom } from "jotai";
import { useLocation, useNavigate } from "react-router-dom";
import { PROJECT_SCREENS } from "../shell/screens";
import { ARCHIVE, RESTORE, usePatchProject, type Project } from "./api";
import { projectDialogAtom } from "./atoms";

export function ProjectActions({ project, archived }: { project: Project; archived: boolean }) {
  const openDialog = useSetAtom(projectDialogAtom);
  const patch = usePatchProject();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const change = (changes: typeof ARCHIVE, done: string) =>
    patch.mutate(
      { project, changes },
      { onSuccess: () => message.success(done), onError: (error) => message.error(error.detail) },
    );

  // Clicks here must not reach the row (its click opens the calculations); React events bubble
  // through portals too, so this also covers the confirm popup.
  return (
    <span onClick={(event) => event.stopPropagation()}>
      {archived ? (
        <Button icon={<UndoOutlined />} loading={patch.isPending} onClick={() => change(RESTORE, "Проект восстановлен")}>
          Восстановить
        </Button>
      ) : (
        <Space>
          {PROJECT_SCREENS.graphs && (
            <Tooltip title="Инфографика">
              <Button
                aria-label="Инфографика"
                icon={<BarChartOutlined />}
                onClick={() => navigate(`${pathname.replace(/\/+$/, "")}/${encodeURIComponent(project.id)}/graphs`)}
              />
            </Tooltip>
          )}
          <Tooltip title="Редактировать">
            <Button aria-label="Редактировать" icon={<EditOutlined />} onClick={() => openDialog({ mode: "edit", project })} />
          </Tooltip>
          {/* Below the button: above it, the button's own tooltip would cover the confirm button
              (the row's last button sits at the screen's right edge, which shifts the popup left). */}
          <Popconfirm
            placement="bottomRight"
            title="Переместить проект в архив?"
            okText="Переместить"
            cancelText="Отмена"
            onConfirm={() => change(ARCHIVE, "Проект перемещен в архив")}
          >
            <Tooltip title="В архив">
              <Button aria-label="В архив" danger icon={<DeleteOutlined />} loading={patch.isPending} />
            </Tooltip>
          </Popconfirm>
        </Space>
      )}
    </span>
  );
}
