// A webhook just added, its secret shown this once, loaded when a webhook is added.
import type { CreatedWebhook } from "../../api/webhooks";
import { ShownOnceDialog } from "../../shared/ShownOnceDialog";

export default function WebhookSecretDialog({ made, onClose }: { made: CreatedWebhook; onClose: () => void }) {
  return (
    <ShownOnceDialog
      title={`Вебхук «${made.label || made.url}»`}
      warning="Скопируйте секрет сейчас: он показывается один раз. Приемник проверяет им подпись каждого события."
      okText="Я сохранил секрет"
      secret={made.secret}
      onClose={onClose}
    />
  );
}
