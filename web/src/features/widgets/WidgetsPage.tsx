// docs/user-guide.md, /widgets «Виджеты»: the converter. Results are computed in the browser by the wasm core
// and rounded by the decimals setting (docs/user-guide.md, local storage `comma`). The page paints its heading
// and card at once; the converter's form (ConverterForm.tsx) loads with import() right after.
import { lazy, Suspense } from "react";
import { Card, Typography } from "antd";
import { LazyLoading } from "../../shared/LazyLoading";
import { useEmissionsCore } from "../../shared/wasmCore";

const ConverterForm = lazy(() => import("./ConverterForm").then((m) => ({ default: m.ConverterForm })));

export default function WidgetsPage() {
  // The wasm core starts loading with the page, not after the form's code.
  const core = useEmissionsCore();

  return (
    <>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Виджеты
      </Typography.Title>
      <Card title="Конвертер" style={{ maxWidth: 640 }}>
        <Suspense fallback={<LazyLoading />}>
          <ConverterForm core={core} />
        </Suspense>
      </Card>
    </>
  );
}
