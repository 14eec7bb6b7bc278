// Fugitive gas, m³ → t (docs/user-guide.md): gas CH4 (default) or CO2, the measurement conditions from
// get_coeff_co2_density (first preselected), a quantity; the result follows every change.
import { useMemo, useState } from "react";
import { Form, Radio, Select } from "antd";
import { formatResult, formatStored, numericInputProblem } from "../../shared/decimals";
import { NumericInput, ResultOutput } from "../../shared/NumericInput";
import { useDictionary } from "../../api/dictionary";
import { useInputDecimals } from "../../shared/useInputDecimals";
import { DEFAULT_GAS, GASES, fugitiveTonnes, type ConverterCore, type Gas } from "./convert";
import { LoadState } from "./LoadState";

export function FugitiveConverter({ core }: { core: ConverterCore }) {
  const conditions = useDictionary("get_coeff_co2_density");
  const decimals = useInputDecimals("create");
  const [gas, setGas] = useState<Gas>(DEFAULT_GAS);
  const [conditionsId, setConditionsId] = useState<number | undefined>(undefined);
  const [quantity, setQuantity] = useState("");

  const items = conditions.data?.results ?? [];
  // docs/user-guide.md: the first entry is preselected when the list loads.
  const chosen = items.find((item) => item.id === conditionsId) ?? items[0];
  const densityField = gas === "CO2" ? "p_co2" : "p_ch4";
  // A quantity the field refuses (its message is under it) gives no result.
  const refused = numericInputProblem(quantity, { decimals }) !== undefined;
  const tonnes = useMemo(() => (refused ? undefined : fugitiveTonnes(core, gas, chosen, quantity)), [refused, core, gas, chosen, quantity]);

  if (!conditions.data) return <LoadState query={conditions} />;

  return (
    <>
      <Form.Item label="Газ">
        <Radio.Group
          aria-label="Газ"
          value={gas}
          onChange={(event) => setGas(event.target.value as Gas)}
          options={GASES.map((value) => ({ label: value, value }))}
        />
      </Form.Item>
      <Form.Item label="Условия измерения" htmlFor="converter-conditions">
        <Select<number>
          id="converter-conditions"
          value={chosen?.id}
          onChange={setConditionsId}
          options={items.map((item) => ({
            value: item.id,
            label: `${item.name} — ρ ${gas} ${formatStored(item[densityField])} ${item.units[densityField] ?? ""}`,
          }))}
        />
      </Form.Item>
      <Form.Item label="Количество газа" htmlFor="converter-quantity">
        <NumericInput id="converter-quantity" value={quantity} onChange={setQuantity} decimals={decimals} unit="м³" />
      </Form.Item>
      <Form.Item label={`Масса ${gas}`} htmlFor="converter-result">
        <ResultOutput id="converter-result" value={formatResult(tonnes, decimals)} unit="т" />
      </Form.Item>
    </>
  );
}
