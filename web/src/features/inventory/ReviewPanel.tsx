// The year's review and sign-off on the inventory screen: the status, the actions the signed-in
// user may take (approving, returning, reopening and finishing the rework are the reviewer's) and
// why the others of this status are not offered (the role, four eyes: D33),
// the history with who, when and why, the rework deadline and the comments (page by page; the
// author, a reviewer or an admin may delete one).
import { useState } from "react";
import { Alert, Button, Card, DatePicker, Flex, Input, List, Modal, Tag, Timeline, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { DATE_FIELD_FORMATS, displayDate, displayDateTime } from "../../shared/dates";
import { COMMENT_MAX_CHARS, type InventoryReview } from "@server/contract";
import { useMe } from "../../api/profile";
import {
  FROZEN_STATUSES,
  REVIEW_ACTIONS,
  STATUS_LABELS,
  TRANSITIONS,
  actionProblem,
  actionsFor,
  isReviewer,
  reviewDateProblem,
  sendsForApproval,
  stepDone,
  type ReviewAction,
  type Transition,
} from "@core/inventory";
import { InventoryVersions } from "./InventoryVersions";
import { COMMENTS_PAGE, useAddComment, useComments, useRemoveComment, useReviewAction } from "../../api/inventory";
import { STATUS_COLORS } from "./review";
import { actorText } from "../../shared/text";
import { AddLine } from "../../shared/AddLine";

const PRIMARY: ReadonlySet<ReviewAction> = new Set(["send_to_review", "approve", "submit", "rework_done"]);
const label = (action: string) => (action in TRANSITIONS ? TRANSITIONS[action as ReviewAction].label : action);
// The history reads as a register: past tense, the person's name and role.
const ROLE_NAMES: Record<string, string> = { staff: "сотрудник", reviewer: "проверяющий", admin: "администратор" };

/** D63: the year's months accepted from the mine's readings that the readings have moved since by more
 *  than 0,1 % (the inventory's «telemetry_changed» checks), each naming its point and month. */
export function ReviewPanel({ review, readingsChanges = [] }: { review: InventoryReview; readingsChanges?: readonly string[] }) {
  const me = useMe();
  const act = useReviewAction(review.year);
  const comment = useAddComment(review.year);
  const remove = useRemoveComment(review.year);
  const [page, setPage] = useState(1);
  const comments = useComments(review.year, page);
  const [asking, setAsking] = useState<ReviewAction | null>(null);
  const [reason, setReason] = useState("");
  const [notice, setNotice] = useState<Dayjs | null>(null);
  const reviewer = isReviewer(me.data?.role);
  // The core's table, as the server applies it: a staff member, the person who sent the version or
  // last changed its data sees no button they cannot use, and reads why.
  const user = { role: me.data?.role ?? "staff", email: me.data?.email ?? "" };
  const available = me.data ? actionsFor(user, review) : [];
  const withheld = me.data
    ? REVIEW_ACTIONS.filter((action) => TRANSITIONS[action].from.some((s) => s === review.status) && !available.includes(action))
    : [];

  // Every step asks for confirmation and takes a comment (a reason where the table requires one)
  // and, for the report sent, accepted or returned, its date.
  const run = (action: ReviewAction) => {
    setReason("");
    setNotice(null);
    act.reset();
    setAsking(action);
  };
  const rule: Transition | null = asking ? TRANSITIONS[asking] : null;
  const dated = Boolean(rule?.noticeDate || rule?.eventDate);
  // What is wrong with the date chosen or typed (the server's rule), said under the field: the
  // field keeps it (a future date is not emptied silently) and «OK» waits for a right one.
  const problem = notice ? reviewDateProblem(notice.format("YYYY-MM-DD"), review.year, dayjs().format("YYYY-MM-DD")) : undefined;
  const dateProblem = problem && `${problem[0].toLocaleUpperCase("ru")}${problem.slice(1)}`;
  const day = notice?.format("YYYY-MM-DD");
  const confirm = () => {
    if (!asking || !rule) return;
    act.mutate(
      {
        action: asking,
        version: review.version,
        reason: reason.trim() || undefined,
        ...(rule.noticeDate ? { notice_date: day } : {}),
        ...(rule.eventDate ? { date: day } : {}),
      },
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
            title={`Срок доработки — ${displayDate(review.rework_deadline)} (20 рабочих дней после уведомления от ${displayDate(review.notice_date ?? "")})`}
            description={review.rework_deadline_warning ? `Внимание: ${review.rework_deadline_warning}` : undefined}
          />
        )}
        {FROZEN_STATUSES.includes(review.status) && (
          <Typography.Text type="secondary">
            {review.status === "in_review"
              ? "Год на проверке и заморожен: расчеты и проекты этого года изменить нельзя, пока проверяющий не вернет его на доработку."
              : "Год заморожен: расчеты и проекты этого года изменить нельзя, пока проверяющий не откроет год для изменений."}
          </Typography.Text>
        )}
        {review.changed_after_send && review.changed_after_send.length > 0 && (
          <Alert
            type="warning"
            showIcon
            data-testid="changed-after-send"
            title="Изменено после отправки на проверку: эти изменения не войдут в версию"
            description={
              <Flex vertical gap={4}>
                <ul style={{ margin: 0, paddingLeft: 20 }}>
                  {review.changed_after_send.map((change) => (
                    <li key={change}>{change}</li>
                  ))}
                </ul>
                Утвердить можно то, что отправлено: верните инвентаризацию на доработку, чтобы ее отправили снова.
              </Flex>
            }
          />
        )}
        {readingsChanges.length > 0 && (
          <Alert
            type="warning"
            showIcon
            data-testid="readings-changed"
            title="Данные АГК изменились после принятия"
            description={
              <ul style={{ margin: 0, paddingLeft: 20 }}>
                {readingsChanges.map((change) => (
                  <li key={change}>{change}</li>
                ))}
              </ul>
            }
          />
        )}
        <InventoryVersions review={review} />
        <Flex gap={8} wrap>
          {available.map((action) => (
            <Button key={action} type={PRIMARY.has(action) ? "primary" : "default"} loading={act.isPending} onClick={() => run(action)}>
              {label(action)}
            </Button>
          ))}
          {me.data && available.length === 0 && withheld.length === 0 && (
            <Typography.Text type="secondary">В статусе «{STATUS_LABELS[review.status]}» действий нет</Typography.Text>
          )}
        </Flex>
        {withheld.length > 0 && (
          <ul className="review-withheld" data-testid="review-withheld" style={{ margin: 0, paddingLeft: 20 }}>
            {withheld.map((action) => (
              <li key={action}>
                <Typography.Text type="secondary">
                  «{label(action)}» {actionProblem(action, user, review)}
                </Typography.Text>
              </li>
            ))}
          </ul>
        )}
        {act.isError && asking === null && <Alert type="error" showIcon title={act.error.message} role="alert" />}
        {review.history.length > 0 && (
          <Timeline
            items={review.history.map((entry) => ({
              children: (
                <span data-testid="review-history-entry">
                  {displayDateTime(entry.at)} — {stepDone(entry)}
                  {entry.date ? ` ${displayDate(entry.date)}` : ""}: {entry.by_name || actorText(entry.by)}
                  {entry.by_role && ROLE_NAMES[entry.by_role] ? `, ${ROLE_NAMES[entry.by_role]}` : ""}
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
                  — {c.by_name || actorText(c.by)}, {displayDateTime(c.at)}
                </Typography.Text>
              </Typography.Text>
            </List.Item>
          )}
        />
        <AddLine
          plain
          fields={[{ label: "Комментарий", placeholder: "Комментарий к инвентаризации", maxLength: COMMENT_MAX_CHARS }]}
          button="Добавить"
          onAdd={([text]) => comment.mutateAsync({ text }).then(() => setPage(1))}
        />
        {comment.isError && <Alert type="error" showIcon title={comment.error.message} />}
        {remove.isError && <Alert type="error" showIcon title={remove.error.message} />}
      </Flex>
      <Modal
        open={asking !== null}
        title={asking ? label(asking) : ""}
        okText={asking ? label(asking) : ""}
        cancelText="Отмена"
        okButtonProps={{
          disabled: (Boolean(rule?.reason) && !reason.trim()) || (dated && (!notice || Boolean(dateProblem))),
          loading: act.isPending,
        }}
        onOk={confirm}
        onCancel={() => setAsking(null)}
        destroyOnHidden
      >
        <Flex vertical gap={8}>
          <Typography.Text>{asking ? `«${label(asking)}» для инвентаризации ${review.year} года?` : ""}</Typography.Text>
          {asking && sendsForApproval(asking, user.email, review) && (
            <Alert
              type="info"
              showIcon
              title="Вы изменяли данные года во время доработки: год будет направлен на утверждение другому проверяющему, версия не утверждается"
            />
          )}
          {/* The server's refusal, where the user is looking (the dialog covers the panel). */}
          {act.isError && <Alert type="error" showIcon title={act.error.message} role="alert" />}
          {dated && (
            <>
              <span>
                {rule?.noticeDate
                  ? "Дата уведомления о возврате отчета"
                  : asking === "accept"
                    ? "Дата принятия отчета"
                    : "Дата направления отчета"}
              </span>
              {/* The server's rule (the core's reviewDateProblem): of the reporting year or later, not in the future;
                  a date outside it stays in the field with the reason under it. */}
              <DatePicker
                aria-label={rule?.noticeDate ? "Дата уведомления" : "Дата"}
                format={DATE_FIELD_FORMATS}
                defaultPickerValue={dayjs(`${review.year + 1}-01-01`).isAfter(dayjs()) ? dayjs() : dayjs(`${review.year + 1}-01-01`)}
                placeholder="ДД.ММ.ГГГГ"
                value={notice}
                onChange={setNotice}
                status={dateProblem ? "error" : undefined}
              />
              {dateProblem && (
                <Typography.Text type="danger" role="alert" data-testid="review-date-problem">
                  {dateProblem}
                </Typography.Text>
              )}
            </>
          )}
          <Input.TextArea
            aria-label={rule?.reason ? "Причина" : "Комментарий к действию"}
            placeholder={rule?.reason ? "Причина (обязательно)" : "Комментарий (необязательно)"}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            autoSize={{ minRows: 2 }}
          />
        </Flex>
      </Modal>
    </Card>
  );
}
