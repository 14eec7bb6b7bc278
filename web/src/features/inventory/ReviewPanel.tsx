// The year's review and sign-off on the inventory screen: the status, the actions the signed-in
// user may take (approving, returning, reopening and finishing the rework are the reviewer's),
// the history with who, when and why, the rework deadline and the comments (page by page; the
// author, a reviewer or an admin may delete one).
import { useState } from "react";
import { Alert, Button, Card, DatePicker, Flex, Input, List, Modal, Tag, Timeline, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { DATE_FIELD_FORMATS, displayDateTime } from "../../shared/dates";
import type { InventoryReview } from "@server/contract";
import { useMe } from "../profile/api";
import {
  FROZEN_STATUSES,
  STATUS_LABELS,
  TRANSITIONS,
  actionsFor,
  reviewDateProblem,
  type ReviewAction,
  type Transition,
} from "@core/inventory";
import { InventoryVersions } from "./InventoryVersions";
import { COMMENTS_PAGE, useAddComment, useComments, useRemoveComment, useReviewAction } from "./api";
import { STATUS_COLORS } from "./review";

const PRIMARY: ReadonlySet<ReviewAction> = new Set(["send_to_review", "approve", "submit", "rework_done"]);
const label = (action: string) => (action in TRANSITIONS ? TRANSITIONS[action as ReviewAction].label : action);

export function ReviewPanel({ review }: { review: InventoryReview }) {
  const me = useMe();
  const act = useReviewAction(review.year);
  const comment = useAddComment(review.year);
  const remove = useRemoveComment(review.year);
  const [page, setPage] = useState(1);
  const comments = useComments(review.year, page);
  const [asking, setAsking] = useState<ReviewAction | null>(null);
  const [reason, setReason] = useState("");
  const [notice, setNotice] = useState<Dayjs | null>(null);
  const [text, setText] = useState("");
  const reviewer = me.data?.role === "reviewer" || me.data?.role === "admin";
  // The core's table, as the server applies it: a staff member, or the person who sent the version,
  // sees no button they cannot use.
  const available = me.data ? actionsFor(review.status, { role: me.data.role ?? "staff", email: me.data.email ?? "" }, review.history) : [];

  const run = (action: ReviewAction) => {
    const rule: Transition = TRANSITIONS[action];
    if (rule.reason || action === "refuse") {
      setAsking(action);
      return;
    }
    act.mutate({ action, version: review.version });
  };
  const confirm = () => {
    if (!asking) return;
    act.mutate(
      { action: asking, version: review.version, reason: reason.trim() || undefined, notice_date: notice?.format("YYYY-MM-DD") },
      { onSuccess: () => setAsking(null) },
    );
  };

  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="center">
          Проверка и утверждение
          <Tag color={STATUS_COLORS[review.status]} data-testid="review-status">
            {STATUS_LABELS[review.status]}
          </Tag>
        </Flex>
      }
    >
      <Flex vertical gap={12}>
        {review.rework_deadline && review.status === "refused" && (
          <Alert
            type="warning"
            showIcon
            title={`Срок доработки — ${review.rework_deadline.split("-").reverse().join(".")} (20 рабочих дней после уведомления от ${review.notice_date?.split("-").reverse().join(".")})`}
          />
        )}
        {FROZEN_STATUSES.includes(review.status) && (
          <Typography.Text type="secondary">
            Год заморожен: расчеты и проекты этого года изменить нельзя, пока проверяющий не откроет год для изменений.
          </Typography.Text>
        )}
        <InventoryVersions year={review.year} />
        <Flex gap={8} wrap>
          {available.map((action) => (
            <Button key={action} type={PRIMARY.has(action) ? "primary" : "default"} loading={act.isPending} onClick={() => run(action)}>
              {label(action)}
            </Button>
          ))}
          {available.length === 0 && (
            <Typography.Text type="secondary">Действий в этом статусе нет{reviewer ? "" : " (утверждает проверяющий)"}</Typography.Text>
          )}
        </Flex>
        {act.isError && <Alert type="error" showIcon title={act.error.message} role="alert" />}
        {review.history.length > 0 && (
          <Timeline
            items={review.history.map((entry) => ({
              children: (
                <span>
                  {displayDateTime(entry.at)} — {label(entry.action)}: {entry.by}
                  {entry.reason ? ` («${entry.reason}»)` : ""}
                </span>
              ),
            }))}
          />
        )}
        <List
          size="small"
          header="Комментарии"
          loading={comments.isPending}
          dataSource={comments.data?.results ?? []}
          locale={{ emptyText: "Комментариев нет" }}
          pagination={
            (comments.data?.count ?? 0) > COMMENTS_PAGE
              ? { current: page, pageSize: COMMENTS_PAGE, total: comments.data?.count, onChange: setPage, size: "small" }
              : false
          }
          renderItem={(c) => (
            <List.Item
              actions={
                reviewer || c.by === me.data?.email
                  ? [
                      <Button key="remove" size="small" type="link" danger loading={remove.isPending} onClick={() => remove.mutate(c.id)}>
                        Удалить
                      </Button>,
                    ]
                  : []
              }
            >
              <Typography.Text>
                {c.text}{" "}
                <Typography.Text type="secondary">
                  — {c.by}, {displayDateTime(c.at)}
                </Typography.Text>
              </Typography.Text>
            </List.Item>
          )}
        />
        <Flex gap={8}>
          <Input
            aria-label="Комментарий"
            placeholder="Комментарий к инвентаризации"
            value={text}
            maxLength={2000}
            onChange={(e) => setText(e.target.value)}
          />
          <Button
            disabled={!text.trim()}
            loading={comment.isPending}
            onClick={() =>
              comment.mutate(
                { text },
                {
                  onSuccess: () => {
                    setText("");
                    setPage(1);
                  },
                },
              )
            }
          >
            Добавить
          </Button>
        </Flex>
        {comment.isError && <Alert type="error" showIcon title={comment.error.message} />}
        {remove.isError && <Alert type="error" showIcon title={remove.error.message} />}
      </Flex>
      <Modal
        open={asking !== null}
        title={asking ? label(asking) : ""}
        okText={asking ? label(asking) : ""}
        cancelText="Отмена"
        okButtonProps={{ disabled: !reason.trim() || (asking === "refuse" && !notice), loading: act.isPending }}
        onOk={confirm}
        onCancel={() => setAsking(null)}
        destroyOnHidden
      >
        <Flex vertical gap={8}>
          {asking === "refuse" && (
            <>
              <span>Дата уведомления о возврате отчета</span>
              {/* The server's rule (the core's reviewDateProblem): of the reporting year or later, not in the future. */}
              <DatePicker
                aria-label="Дата уведомления"
                format={DATE_FIELD_FORMATS}
                placeholder="ДД.ММ.ГГГГ"
                value={notice}
                onChange={setNotice}
                disabledDate={(d) => reviewDateProblem(d.format("YYYY-MM-DD"), review.year, dayjs().format("YYYY-MM-DD")) !== undefined}
              />
            </>
          )}
          <Input.TextArea
            aria-label="Причина"
            placeholder="Причина"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            autoSize={{ minRows: 2 }}
          />
        </Flex>
      </Modal>
    </Card>
  );
}
