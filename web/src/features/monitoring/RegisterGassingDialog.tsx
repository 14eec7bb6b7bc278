// The dispatcher's registration of a gassing (issue 99; the safety rules, pp. 622–624): whom they
// informed (the chief engineer, the head of the АБ section, the head of the affected section, the
// territorial Rostekhnadzor body), a comment, and the closing, which the server refuses naming each
// notification still unticked. Who and when are kept.
import { useState } from "react";
import { Alert, Button, Checkbox, Flex, Input, Modal, Typography } from "antd";
import { LIMITS } from "@server/contract";
import { NOTIFICATIONS, NOTIFICATION_LABELS } from "@core/monitoring-events";
import { ADVISORY_NOTE } from "@core/monitoring";
import { displayDateTime } from "../../shared/dates";
import { withoutFieldNames } from "../../shared/fieldErrors";
import { isApiError } from "../../api/client";
import { useRegisterGassing, type Gassing } from "../../api/journal";
import { number } from "./offerTexts";

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export default function RegisterGassingDialog({ facility, gassing, onClose }: { facility: string; gassing: Gassing; onClose: () => void }) {
  const [notified, setNotified] = useState(gassing.notified);
  const [comment, setComment] = useState(gassing.comment);
  const register = useRegisterGassing(facility);
  const save = (close: boolean) =>
    register.mutate({ gassing: gassing.id, body: { notified, comment: comment.trim(), close } }, { onSuccess: onClose });
  // The server names what it refuses at its field (`notified`, `close`): its text, without the field's name.
  const refusal = register.isError ? (isApiError(register.error) ? withoutFieldNames(register.error) : String(register.error)) : undefined;
  return (
    <Modal
      open
      title={`Загазирование ${gassing.kind}: ${gassing.sensors.join(", ")}, ${displayDateTime(gassing.start)}`}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Отмена
        </Button>,
        <Button key="save" loading={register.isPending} onClick={() => save(false)}>
          Зарегистрировать
        </Button>,
        <Button key="close" type="primary" danger loading={register.isPending} onClick={() => save(true)}>
          Закрыть загазирование
        </Button>,
      ]}
    >
      <Flex vertical gap={12}>
        <Typography.Text>
          {gassing.working || "без выработки"}, максимум {number(gassing.max, 2)} % об.,{" "}
          {gassing.end ? `до ${displayDateTime(gassing.end)}` : "продолжается"}
        </Typography.Text>
        <Typography.Text strong>Оповещены</Typography.Text>
        {NOTIFICATIONS.map((n) => (
          <Checkbox key={n} checked={notified[n]} onChange={(e) => setNotified({ ...notified, [n]: e.target.checked })}>
            {capital(NOTIFICATION_LABELS[n])}
          </Checkbox>
        ))}
        <Input.TextArea
          aria-label="Комментарий"
          placeholder="Что сделано"
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          maxLength={LIMITS.text.comment}
        />
        <Typography.Text type="secondary">{ADVISORY_NOTE}</Typography.Text>
        {refusal && <Alert type="error" showIcon role="alert" title={capital(refusal)} />}
      </Flex>
    </Modal>
  );
}
