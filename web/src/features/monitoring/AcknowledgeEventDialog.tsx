// «Квитировать» of «События» (D65): a person acknowledges an event with a comment; who and when are kept.
import { useState } from "react";
import { Alert, Flex, Input, Modal, Typography } from "antd";
import { LIMITS } from "@server/contract";
import { ADVISORY_NOTE } from "@core/telemetry";
import { EVENT_KIND_LABELS, EVENT_LEVEL_LABELS, faultText, type EventLevel } from "@core/telemetry-events";
import { displayDateTime } from "../../shared/dates";
import { useAcknowledgeEvent, type TelemetryEvent } from "../../api/telemetry";
import { number } from "./offerTexts";

export default function AcknowledgeDialog({ facility, event, onClose }: { facility: string; event: TelemetryEvent; onClose: () => void }) {
  const [comment, setComment] = useState("");
  const acknowledge = useAcknowledgeEvent(facility);
  const what =
    event.kind === "stale"
      ? EVENT_KIND_LABELS.stale
      : event.kind === "fault"
        ? `${EVENT_KIND_LABELS.fault}${event.fault ? `: ${faultText(event.fault)}` : ""}`
        : `${EVENT_KIND_LABELS[event.kind]}: ${EVENT_LEVEL_LABELS[event.level as EventLevel]}`;
  return (
    <Modal
      open
      title={`Квитировать: ${event.sensor_code}, ${displayDateTime(event.start)}`}
      onCancel={onClose}
      okText="Квитировать"
      cancelText="Отмена"
      okButtonProps={{ loading: acknowledge.isPending }}
      onOk={() => acknowledge.mutate({ event: event.id, comment: comment.trim() }, { onSuccess: onClose })}
    >
      <Flex vertical gap={12}>
        <Typography.Text>
          {what}
          {event.working ? `, ${event.working}` : ""}
          {event.peak === null ? "" : `, пик ${number(event.peak, 2)} % об.`}
        </Typography.Text>
        <Input.TextArea
          aria-label="Комментарий"
          placeholder="Что сделано"
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          maxLength={LIMITS.text.comment}
        />
        <Typography.Text type="secondary">{ADVISORY_NOTE}</Typography.Text>
        {acknowledge.isError && <Alert type="error" showIcon role="alert" title={acknowledge.error.message} />}
      </Flex>
    </Modal>
  );
}
