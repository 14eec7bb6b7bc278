// «Квитировать» of «События» (D65): a person acknowledges an event, or several at once as a dispatcher
// does, with one comment; who and when are kept on each.
import { useState } from "react";
import { Alert, Flex, Input, Modal, Typography } from "antd";
import { LIMITS } from "@server/contract";
import { ADVISORY_NOTE } from "@core/monitoring";
import { EVENT_KIND_LABELS, EVENT_LEVEL_LABELS, faultText, type EventLevel } from "@core/monitoring-events";
import { SUSPECT_ANSWER_REQUIRED } from "@core/monitoring-suspect";
import { displayDateTime } from "../../../shared/dates";
import { useAcknowledgeEvent, useAcknowledgeEvents, type SensorEvent } from "../../../api/monitoring";
import { number } from "../texts/offerTexts";

const whatOf = (event: SensorEvent) =>
  event.kind === "suspect"
    ? `${EVENT_KIND_LABELS.suspect}${event.suspect ? `: ${event.suspect.text}` : ""}`
    : event.kind === "stale"
      ? EVENT_KIND_LABELS.stale
      : event.kind === "fault"
        ? `${EVENT_KIND_LABELS.fault}${event.fault ? `: ${faultText(event.fault)}` : ""}`
        : `${EVENT_KIND_LABELS[event.kind]}: ${EVENT_LEVEL_LABELS[event.level as EventLevel]}`;

export default function AcknowledgeDialog({
  facility,
  events,
  onClose,
}: {
  facility: string;
  events: readonly SensorEvent[];
  onClose: () => void;
}) {
  const [comment, setComment] = useState("");
  const one = useAcknowledgeEvent(facility);
  const several = useAcknowledgeEvents(facility);
  const acknowledge = events.length === 1 ? one : several;
  const [event] = events;
  // D102–D105: a questioned reading is answered with what was done («проверен ШИ-11: 0,62 %, датчик исправен»).
  const answerNeeded = events.some((e) => e.kind === "suspect") && comment.trim() === "";
  const save = () =>
    events.length === 1
      ? one.mutate({ event: event.id, comment: comment.trim() }, { onSuccess: onClose })
      : several.mutate({ events: events.map((e) => e.id), comment: comment.trim() }, { onSuccess: onClose });
  return (
    <Modal
      open
      title={
        events.length === 1 ? `Квитировать: ${event.sensor_code}, ${displayDateTime(event.start)}` : `Квитировать события: ${events.length}`
      }
      onCancel={onClose}
      okText="Квитировать"
      cancelText="Отмена"
      okButtonProps={{ loading: acknowledge.isPending, disabled: answerNeeded }}
      onOk={save}
    >
      <Flex vertical gap={12}>
        {events.map((e) => (
          <Typography.Text key={e.id}>
            {events.length > 1 ? `${e.sensor_code}, ${displayDateTime(e.start)}: ` : ""}
            {whatOf(e)}
            {e.working ? `, ${e.working}` : ""}
            {e.peak === null ? "" : `, пик ${number(e.peak, 2)} % об.`}
          </Typography.Text>
        ))}
        <Input.TextArea
          aria-label="Комментарий"
          placeholder={events.length > 1 ? "Что сделано — один комментарий для всех" : "Что сделано"}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          maxLength={LIMITS.text.comment}
        />
        {answerNeeded && <Typography.Text type="warning">{SUSPECT_ANSWER_REQUIRED}</Typography.Text>}
        <Typography.Text type="secondary">{ADVISORY_NOTE}</Typography.Text>
        {acknowledge.isError && <Alert type="error" showIcon role="alert" title={acknowledge.error.message} />}
      </Flex>
    </Modal>
  );
}
