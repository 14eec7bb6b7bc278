// A gateway key just made, shown this once (D56), loaded when a key is made.
import type { CreatedGatewayKey } from "../../../api/monitoring";
import { ShownOnceDialog } from "../../../shared/ShownOnceDialog";

export default function KeyShownDialog({ made, onClose }: { made: CreatedGatewayKey; onClose: () => void }) {
  return (
    <ShownOnceDialog
      title={`Ключ «${made.label}»`}
      warning="Скопируйте ключ сейчас: он показывается один раз и больше не будет доступен."
      okText="Я сохранил ключ"
      secret={made.key}
      onClose={onClose}
    />
  );
}
