// What a screen shows when its data could not be loaded: the reason, and a retry that fetches again.
import { Alert, Button } from "antd";

/** «Не удалось загрузить {what}: {message}» with «Повторить». */
export function LoadError({ what, message, retry }: { what: string; message: string; retry(): void }) {
  return (
    <Alert type="error" showIcon title={`Не удалось загрузить ${what}: ${message}`} action={<Button onClick={retry}>Повторить</Button>} />
  );
}
