// A gateway key just made, shown this once (D56), loaded when a key is made.
import { Alert, Modal, Typography } from "antd";
import type { CreatedGatewayKey } from "../../api/telemetry";

export default function KeyShownDialog({ made, onClose }: { made: CreatedGatewayKey; onClose: () => void }) {
  return (
    <Modal
      open
      title={`Ключ «${made.label}»`}
      onCancel={onClose}
      onOk={onClose}
      okText="Я сохранил ключ"
      cancelButtonProps={{ style: { display: "none" } }}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 12 }}
        title="Скопируйте ключ сейчас: он показывается один раз и больше не будет доступен."
      />
      <Typography.Paragraph copyable={{ text: made.key }} code style={{ wordBreak: "break-all" }}>
        {made.key}
      </Typography.Paragraph>
    </Modal>
  );
}
