// A gas engine or CHP unit (methodology 13.1, D73): efficiency 0.995 in an hour whose every fed minute
// shows it running (a lower measured value replaces it), else 0; its hourly generation credits
// electricity (D75). Worked example 13.5 (c).
import type { DeviceKindSpec } from "./definition";

export const ENGINE = {
  id: "engine",
  label: "Газопоршневая установка",
  label_of: "газопоршневой установки",
  label_to: "газопоршневой установке",
  channels: { run: "required", e_gen: "optional", heat: "optional" },
  efficiency: {
    proof: "run_when_fed",
    parameter: { name: "eta_engine", value: 0.995, label: "КПД уничтожения в ГПУ", source: "ACM0008 [R], D73" },
    basis: "engine_run",
    basis_text: "агрегат работал",
    measured: "if_lower",
    counted_as: "device",
  },
  heat: "when_metered",
  standing: [],
  options: ["GAS_ENGINE_CHP"],
  example: "c",
} as const satisfies DeviceKindSpec;
