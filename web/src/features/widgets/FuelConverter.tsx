// Fuel, litres → t through density (docs/user-guide.md; Order 371 formula 18.2): the brand from
// get_open_mining_co2 (first preselected, its density in the label), a quantity in litres.
import { useMemo, useState } from "react";
import { Form, Select } from "antd";
import { formatResult, formatStored, numericInputProblem } from "../../shared/decimals";
import { NumericInput, ResultOutput } from "../../shared/NumericInput";
import { useDictionary } from "../../api/dictionary";
import { useInputDecimals } from "../../shared/useInputDecimals";
import { fuelTonnes, type ConverterCore } from "./convert";
import { LoadState } from "./LoadState";

export function FuelConverter({ core }: { core: ConverterCore }) {
  const fuels = useDictionary("get_open_mining_co2");
  const decimals = useInputDecimals("create");
  const [fuelId, setFuelId] = useState<number | undefined>(undefined);
  const [quantity, setQuantity] = useState("");

  const items = fuels.data?.results ?? [];
  const chosen = items.find((item) => item.id === fuelId) ?? items[0];
  // A quantity the field refuses (its message is under it) gives no result.
  const refused = numericInputProblem(quantity, { decimals }) !== undefined;
  const tonnes = useMemo(() => (refused ? undefined : fuelTonnes(core, chosen, quantity)), [refused, core, chosen, quantity]);

  if (!fuels.data) return <LoadState query={fuels} />;

  return (
    <>
      <Form.Item label="Марка топлива" htmlFor="converter-fuel">
        <Select<number>
          id="converter-fuel"
          value={chosen?.id}
          onChange={setFuelId}
          showSearch={{ optionFilterProp: "label" }}
          options={items.map((item) => ({
            value: item.id,
            label: `${item.name} — ρ ${formatStored(item.p)} ${item.units.p ?? ""}`,
          }))}
        />
      </Form.Item>
      <Form.Item label="Количество топлива" htmlFor="converter-quantity">
        <NumericInput id="converter-quantity" value={quantity} onChange={setQuantity} decimals={decimals} unit="л" />
      </Form.Item>
      <Form.Item label="Масса топлива" htmlFor="converter-result">
        <ResultOutput id="converter-result" value={formatResult(tonnes, decimals)} unit="т" />
      </Form.Item>
    </>
  );
}
