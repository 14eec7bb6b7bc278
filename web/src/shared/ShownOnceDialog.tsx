// A secret just made (a gateway key, a webhook's secret), shown this once with a button to copy it;
// the dialog closes only by its «Я сохранил …» button or the cross.
import { Alert, Modal, Typography } from "antd";

interface Props {
  title: string;
  /** What the user must do now, and why. */
  warning: string;
  okText: string;
  secret: string;
  onClose: () => void;
}

export function ShownOnceDialog({ title, warning, okText, secret, onClose }: Props) {
  return (
    <Modal open title={title} onCancel={onClose} onOk={onClose} okText={okText} cancelButtonProps={{ style: { display: "none" } }}>
      <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={warning} />
      <Typography.Paragraph copyable={{ text: secret }} code style={{ wordBreak: "break-all" }}>
        {secret}
      </Typography.Paragraph>
    </Modal>
  );
}
