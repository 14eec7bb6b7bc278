// An open flare (methodology 13.1, D72): efficiency 0.50 (TOOL06's default) in an hour whose every
// minute shows flame, else 0. Worked example 13.5 (a).
import { type DeviceKindSpec, NO_MANUFACTURER_CONDITIONS } from "./definition";

export const FLARE_OPEN = {
  id: "flare_open",
  label: "Открытый факел",
  label_of: "открытого факела",
  label_to: "открытому факелу",
  channels: { flame: "required" },
  efficiency: {
    proof: "flame",
    parameter: { name: "eta_open_flare", value: 0.5, label: "КПД открытого факела по умолчанию", source: "TOOL06 [T], D72" },
    basis: "default_open_flame_60",
    basis_text: "по умолчанию, пламя 60 мин",
    measured: "none",
    counted_as: "default",
  },
  heat: "when_metered",
  standing: [NO_MANUFACTURER_CONDITIONS],
  options: ["FLARE_OPEN"],
  example: "a",
} as const satisfies DeviceKindSpec;
