// A boiler (methodology 13.1, D73): efficiency 0.995 in an hour whose every fed minute shows it
// running (a lower measured value replaces it), else 0; its heat to consumers credits the displaced
// boiler's fuel (D75). Worked example 13.5 (e).
import type { DeviceKindSpec } from "./definition";

export const BOILER = {
  id: "boiler",
  label: "Котел",
  label_of: "котла",
  label_to: "котлу",
  channels: { run: "required", heat: "optional" },
  efficiency: {
    proof: "run_when_fed",
    parameter: { name: "eta_boiler", value: 0.995, label: "КПД уничтожения в котле", source: "ACM0008 [R], D73" },
    basis: "boiler_run",
    basis_text: "агрегат работал",
    measured: "if_lower",
    counted_as: "device",
  },
  heat: "always",
  standing: [],
  options: ["BOILER"],
  example: "e",
} as const satisfies DeviceKindSpec;
