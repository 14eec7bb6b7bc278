// SPEC 2 /widgets «Виджеты»: the converter. Results are computed in the browser by the wasm core
// and rounded by the decimals setting (SPEC 9, local storage `comma`).
import { useState } from "react";
import { Card, Form, Select, Typography } from "antd";
import { useEmissionsCore } from "../../shared/wasmCore";
import { FuelConverter } from "./FuelConverter";
import { FugitiveConverter } from "./FugitiveConverter";
import { LoadState } from "./LoadState";

type ConverterKind = "fugitive" | "fuel";

const KINDS: { value: ConverterKind; label: string }[] = [
  { value: "fugitive", label: "CH4 и CO2 из м³ в тонны" },
  { value: "fuel", label: "Топливо из литров в тонны через плотность" },
];

export default function WidgetsPage() {
  const [kind, setKind] = useState<ConverterKind>("fugitive");
  const core = useEmissionsCore();

  return (
    <>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Виджеты
      </Typography.Title>
      <Card title="Конвертер" style={{ maxWidth: 640 }}>
        <Form layout="vertical" component="div">
          <Form.Item label="Что конвертировать" htmlFor="converter-kind">
            <Select<ConverterKind> id="converter-kind" value={kind} onChange={setKind} options={KINDS} />
          </Form.Item>
          {!core.data ? (
            <LoadState query={core} what="модуль расчета" />
          ) : kind === "fugitive" ? (
            <FugitiveConverter core={core.data} />
          ) : (
            <FuelConverter core={core.data} />
          )}
        </Form>
      </Card>
    </>
  );
}
