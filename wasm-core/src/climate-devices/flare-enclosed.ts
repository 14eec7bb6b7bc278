// An enclosed flare (methodology 13.1, D72): in an hour whose every minute has the exhaust above
// 500 °C, efficiency 0.90 (TOOL06's default) or, in the measured option, the analyser's hourly value
// (the period's lowest where it gave none); else 0. Worked examples 13.5 (b) and (f).
import { type DeviceKindSpec, NO_MANUFACTURER_CONDITIONS } from "./definition";

export const FLARE_ENCLOSED = {
  id: "flare_enclosed",
  label: "Закрытый факел",
  label_of: "закрытого факела",
  label_to: "закрытому факелу",
  channels: { t_eg: "required", flame: "optional", eta_meas: "measured_option" },
  efficiency: {
    proof: "exhaust_hot",
    parameter: { name: "eta_enclosed_flare", value: 0.9, label: "КПД закрытого факела по умолчанию", source: "TOOL06 [T], D72" },
    basis: "default_enclosed_t_eg_60",
    basis_text: "по умолчанию, T отх. газов > 500 °C",
    measured: "option",
    counted_as: "default",
  },
  heat: "when_metered",
  standing: [NO_MANUFACTURER_CONDITIONS],
  options: ["FLARE_ENCLOSED"],
  example: "b",
} as const satisfies DeviceKindSpec;
