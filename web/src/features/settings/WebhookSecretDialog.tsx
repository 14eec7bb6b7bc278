// A webhook just added, its secret shown this once (issue 78), loaded when a webhook is added.
import { Alert, Modal, Typography } from "antd";
import type { CreatedWebhook } from "../../api/webhooks";

export default function WebhookSecretDialog({ made, onClose }: { made: CreatedWebhook; onClose: () => void }) {
  return (
    <Modal
      open
      title={`Вебхук «${made.label || made.url}»`}
      onCancel={onClose}
      onOk={onClose}
      okText="Я сохранил секрет"
      cancelButtonProps={{ style: { display: "none" } }}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 12 }}
        title="Скопируйте секрет сейчас: он показывается один раз. Приемник проверяет им подпись каждого события."
      />
      <Typography.Paragraph copyable={{ text: made.secret }} code style={{ wordBreak: "break-all" }}>
        {made.secret}
      </Typography.Paragraph>
    </Modal>
  );
}
