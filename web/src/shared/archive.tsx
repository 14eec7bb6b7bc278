// The archive of a paged list (docs/user-guide.md: projects, a project's calculations): the «Активные | Архив»
// switch above it, each row's actions — edit and «В архив» (after a confirmation) on an active row,
// «Восстановить» on an archived one — and the page kept in range as rows leave the list.
import { useEffect, useState, type ReactNode } from "react";
import { Button, Popconfirm, Segmented, Space, Tooltip, type PopconfirmProps } from "antd";
import { DeleteOutlined, EditOutlined, UndoOutlined } from "@ant-design/icons";

export function ArchiveSwitch({ archived, onChange }: { archived: boolean; onChange(archived: boolean): void }) {
  return (
    <Segmented<"active" | "archive">
      value={archived ? "archive" : "active"}
      onChange={(value) => onChange(value === "archive")}
      options={[
        { label: "Активные", value: "active" },
        { label: "Архив", value: "archive" },
      ]}
    />
  );
}

interface ActionsProps {
  archived: boolean;
  /** The archive or restore request is on its way. */
  pending: boolean;
  /** The question before archiving, e.g. «Переместить проект в архив?». */
  confirm: string;
  confirmPlacement?: PopconfirmProps["placement"];
  /** Without it, no edit button (a type that cannot be edited). */
  onEdit?: () => void;
  onArchive(): void;
  onRestore(): void;
  /** Buttons of an active row before «Редактировать». */
  children?: ReactNode;
  /** Why the row cannot be changed now (its year is approved, D20): the buttons are disabled and
   *  say so in their tooltip. */
  locked?: string;
}

export function ArchiveActions({
  archived,
  pending,
  confirm,
  confirmPlacement,
  onEdit,
  onArchive,
  onRestore,
  children,
  locked,
}: ActionsProps) {
  // While the confirm is open the button's tooltip stays closed: it would cover the confirm's buttons.
  const [confirming, setConfirming] = useState(false);
  // Clicks here must not reach the row (its click opens the row's next screen); React events bubble
  // through portals too, so this also covers the confirm popup.
  return (
    <span onClick={(event) => event.stopPropagation()}>
      {locked ? (
        // A disabled button gets no mouse events: the tooltip sits on a span around it.
        <Tooltip title={locked}>
          <Space>
            {children}
            {archived ? (
              <Button icon={<UndoOutlined />} disabled>
                Восстановить
              </Button>
            ) : (
              <>
                {onEdit && <Button aria-label="Редактировать" icon={<EditOutlined />} disabled />}
                <Button aria-label="В архив" danger icon={<DeleteOutlined />} disabled />
              </>
            )}
          </Space>
        </Tooltip>
      ) : archived ? (
        <Button icon={<UndoOutlined />} loading={pending} onClick={onRestore}>
          Восстановить
        </Button>
      ) : (
        <Space>
          {children}
          {onEdit && (
            <Tooltip title="Редактировать">
              <Button aria-label="Редактировать" icon={<EditOutlined />} onClick={onEdit} />
            </Tooltip>
          )}
          <Popconfirm
            placement={confirmPlacement}
            title={confirm}
            okText="Переместить"
            cancelText="Отмена"
            onConfirm={onArchive}
            open={confirming}
            onOpenChange={setConfirming}
          >
            <Tooltip title="В архив" open={confirming ? false : undefined}>
              <Button aria-label="В архив" danger icon={<DeleteOutlined />} loading={pending} />
            </Tooltip>
          </Popconfirm>
        </Space>
      )}
    </span>
  );
}

/**
 * Archiving (or restoring) the last row of the last page would otherwise leave an empty page
 * behind: once the list has loaded, a page past the last one moves back to the last.
 */
export function useLastPageInRange(
  list: { isSuccess: boolean; isPlaceholderData: boolean },
  count: number,
  pageSize: number,
  page: number,
  onPage: (page: number) => void,
) {
  const { isSuccess, isPlaceholderData } = list;
  useEffect(() => {
    const lastPage = Math.max(1, Math.ceil(count / pageSize));
    if (isSuccess && !isPlaceholderData && page > lastPage) onPage(lastPage);
  }, [count, pageSize, page, isSuccess, isPlaceholderData, onPage]);
}
