// The converter's form (docs/user-guide.md) on /widgets: what to convert, then the chosen converter. A chunk
// of its own (antd's Form, Select, Radio and inputs), loaded when the page first shows it.
import { useState } from "react";
import { Form, Select } from "antd";
import type { useEmissionsCore } from "../../shared/wasmCore";
import { FuelConverter } from "./FuelConverter";
import { FugitiveConverter } from "./FugitiveConverter";
import { LoadState } from "./LoadState";

type ConverterKind = "fugitive" | "fuel";

const KINDS: { value: ConverterKind; label: string }[] = [
  { value: "fugitive", label: "CH4 и CO2 из м³ в тонны" },
  { value: "fuel", label: "Топливо из литров в тонны через плотность" },
];

/** `core`: the wasm emission core's query, started by the page so it loads alongside this chunk. */
export function ConverterForm({ core }: { core: ReturnType<typeof useEmissionsCore> }) {
  const [kind, setKind] = useState<ConverterKind>("fugitive");

  return (
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
  );
}
