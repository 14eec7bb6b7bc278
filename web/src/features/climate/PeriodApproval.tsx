// A monitoring period's approval on its view: its state, the actions the signed-in user may
// take (approving and withdrawing are a reviewer's other than the person who computed the period, by the
// core's rule, as a year's are) and why the others are not offered, the flag of readings written after
// it was computed or approved, computing it again while it is not approved, and its history.
import { useState } from "react";
import { Alert, Button, Card, Flex, Input, Modal, Tag, Timeline, Typography } from "antd";
import {
  PERIOD_ACTION_NAMES,
  PERIOD_ACTIONS,
  READINGS_CHANGED,
  periodActionProblem,
  periodActionsFor,
  type PeriodAction,
} from "@core/climate-approval";
import { useMe } from "../../api/profile";
import type { FileJob } from "../../api/client";
import { displayDateTime } from "../../shared/dates";
import { type ClimatePeriod, type ClimateReport, useClimateReport, useRecomputePeriod, useReviewPeriod } from "./api";

const STEPS: Record<string, string> = {
  compute: "рассчитан",
  recompute: "пересчитан",
  approve: PERIOD_ACTIONS.approve.done,
  withdraw: PERIOD_ACTIONS.withdraw.done,
};
const ROLE_NAMES: Record<string, string> = { staff: "сотрудник", reviewer: "проверяющий", admin: "администратор" };

/** What the executor has still to write: the report's empty fields by section and the deviation groups
 *  without an explanation (the approval's 409 names the same). */
function MissingForApproval({ missing }: { missing: ClimateReport["missing"] }) {
  const groups = missing.deviation_groups;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="period-missing"
      title="Утвердить нельзя, пока исполнитель не заполнит отчет о реализации"
      description={
        <Flex vertical gap={4}>
          {missing.fields.length > 0 && (
            <Typography.Text>
              Не заполнены поля ({missing.fields.length}): {missing.fields.map((f) => `«${f.label}» (раздел ${f.section})`).join("; ")}.
            </Typography.Text>
          )}
          {groups.length > 0 && (
            <Typography.Text>
              Нет пояснения к группам отклонений ({groups.length}), раздел 10: {groups.slice(0, 10).join("; ")}
              {groups.length > 10 ? `; и еще ${groups.length - 10}` : ""}.
            </Typography.Text>
          )}
        </Flex>
      }
    />
  );
}

export function PeriodApproval({ project, period }: { project: string; period: ClimatePeriod }) {
  const me = useMe();
  const review = useReviewPeriod(project);
  // A long period is computed again by a job: its state while it runs.
  const [job, setJob] = useState<FileJob>();
  const recompute = useRecomputePeriod(project, setJob);
  const [asking, setAsking] = useState<PeriodAction | null>(null);
  const [reason, setReason] = useState("");
  // a recomputation is asked first — it makes the period's КЭП out of date and bars
  // whoever runs it from approving the period.
  const [recomputing, setRecomputing] = useState(false);
  const recomputeNow = () => {
    setRecomputing(false);
    recompute.mutate({ period: period.id, version: period.version }, { onSettled: () => setJob(undefined) });
  };
  const approved = period.approval !== null;
  const user = { role: me.data?.role ?? "staff", email: me.data?.email ?? "" };
  const state = { approved, computed_by: period.computed_by };
  const available = me.data ? periodActionsFor(user, state) : [];
  const withheld = me.data
    ? PERIOD_ACTION_NAMES.filter((a) => (a === "approve") !== approved && !available.includes(a)).map(
        (a) => `«${PERIOD_ACTIONS[a].label}» ${periodActionProblem(a, user, state)}`,
      )
    : [];
  // D79, D80: what the executor has still to write before the period can be approved.
  const report = useClimateReport(project, period.id);
  const missing = !approved ? report.data?.missing : undefined;
  const blocked = missing !== undefined && (missing.fields.length > 0 || missing.deviation_groups.length > 0);
  const changed = period.readings_changed;
  const changedAfterApproval = changed !== null && period.approval !== null && changed.at > period.approval.at;
  const confirm = () => {
    if (!asking) return;
    review.mutate(
      { period: period.id, action: asking, version: period.version, reason: reason.trim() || undefined },
      { onSuccess: () => setAsking(null) },
    );
  };
  return (
    <Card
      size="small"
      data-testid="period-approval"
      title={
        <Flex gap={8} align="center" wrap>
          Утверждение периода
          <Tag color={approved ? "green" : "default"} data-testid="period-state">
            {approved ? "Утвержден" : "Не утвержден"}
          </Tag>
        </Flex>
      }
    >
      <Flex vertical gap={12}>
        {period.approval && (
          <Typography.Text>
            Утвердил {period.approval.by_name || period.approval.by} {displayDateTime(period.approval.at)}. Цифры периода заморожены: они не
            пересчитываются, пока утверждение не отозвано. SHA-256 снимка: <Typography.Text code>{period.approval.sha256}</Typography.Text>
          </Typography.Text>
        )}
        {changed && (
          <Alert
            type="warning"
            showIcon
            data-testid="readings-changed"
            title={
              changedAfterApproval
                ? `${READINGS_CHANGED[0].toLocaleUpperCase("ru")}${READINGS_CHANGED.slice(1)} (${displayDateTime(changed.at)})`
                : `Показания изменились после расчета (${displayDateTime(changed.at)})`
            }
            description={`Датчики: ${changed.sensors.join(", ")}. ${
              approved
                ? "Утвержденные цифры не меняются; чтобы учесть новые показания, отзовите утверждение и пересчитайте период."
                : "Пересчитайте период, чтобы учесть их."
            }`}
          />
        )}
        <Flex gap={8} wrap>
          {available.map((action) => (
            <Button
              key={action}
              type={action === "approve" ? "primary" : "default"}
              disabled={action === "approve" && blocked}
              onClick={() => {
                setReason("");
                review.reset();
                setAsking(action);
              }}
            >
              {PERIOD_ACTIONS[action].label}
            </Button>
          ))}
          {!approved && (
            <Button loading={recompute.isPending} onClick={() => setRecomputing(true)}>
              Пересчитать
            </Button>
          )}
        </Flex>
        {blocked && <MissingForApproval missing={missing} />}
        {withheld.map((text) => (
          <Typography.Text key={text} type="secondary">
            {text}
          </Typography.Text>
        ))}
        {recompute.isPending && job && (
          <Typography.Text type="secondary" data-testid="climate-period-recomputing">
            Период длинный, он пересчитывается в фоне ({job.state === "queued" ? "в очереди" : `выполнено ${job.progress} %`}): новые цифры
            появятся здесь, когда расчет закончится.
          </Typography.Text>
        )}
        {recompute.error && <Alert type="error" showIcon title={recompute.error.message} />}
        {review.error && !asking && <Alert type="error" showIcon title={review.error.message} />}
        <Timeline
          items={period.history.map((step) => ({
            content: (
              <Typography.Text>
                {displayDateTime(step.at)} — {STEPS[step.action] ?? step.action}: {step.by_name || step.by}
                {step.by_role ? ` (${ROLE_NAMES[step.by_role] ?? step.by_role})` : ""}
                {step.reason ? `. Причина: ${step.reason}` : ""}
              </Typography.Text>
            ),
          }))}
        />
      </Flex>
      <Modal
        open={recomputing}
        title="Пересчитать период?"
        okText="Пересчитать"
        cancelText="Отмена"
        onOk={recomputeNow}
        onCancel={() => setRecomputing(false)}
      >
        <Flex vertical gap={8} data-testid="recompute-confirm">
          <Typography.Text>
            Цифры периода будут вычислены заново из показаний, сохраненных сейчас. Подписи КЭП, данные к нынешнему файлу периода, перестанут
            ему соответствовать: период нужно будет подписать снова.
          </Typography.Text>
          <Typography.Text>
            {user.role === "staff"
              ? "Утвердить пересчитанный период сможет проверяющий или администратор, который его не пересчитывал."
              : "Кто пересчитал период, тот не может его утвердить: утвердит другой проверяющий или администратор."}
          </Typography.Text>
        </Flex>
      </Modal>
      <Modal
        open={asking !== null}
        title={asking ? `${PERIOD_ACTIONS[asking].label} период?` : ""}
        okText={asking ? PERIOD_ACTIONS[asking].label : "OK"}
        cancelText="Отмена"
        okButtonProps={{ disabled: asking === "withdraw" && !reason.trim(), loading: review.isPending }}
        onOk={confirm}
        onCancel={() => setAsking(null)}
      >
        <Flex vertical gap={8}>
          <Typography.Text>
            {asking === "approve"
              ? "Утвержденный период заморожен: его цифры не пересчитываются, а изменение показаний только отмечается на нем."
              : "После отзыва период можно пересчитать и утвердить снова."}
          </Typography.Text>
          {asking === "withdraw" && (
            <Input.TextArea
              aria-label="Причина"
              placeholder="Причина (обязательно)"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              autoSize={{ minRows: 2 }}
            />
          )}
          {review.error && <Alert type="error" showIcon title={review.error.message} />}
        </Flex>
      </Modal>
    </Card>
  );
}
