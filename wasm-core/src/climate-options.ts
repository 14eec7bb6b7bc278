// Which device of a climate project (methodology 13.1) puts an abatement option (section 11) into
// practice (issue 89 item 6): a flare, a gas engine or a boiler; the other options (pipeline sale,
// ventilation-air oxidisers, a capture upgrade alone) are outside 2026.7 and start no project.
// Browser-safe: «Снижение выбросов» offers the project with it, the server checks it.
import type { DeviceKind } from "./climate-project";

export const DEVICE_OF_OPTION: Readonly<Record<string, DeviceKind>> = {
  FLARE_ENCLOSED: "flare_enclosed",
  FLARE_OPEN: "flare_open",
  BOILER: "boiler",
  GAS_ENGINE_CHP: "engine",
};

/** The device kind an option is (a capture upgrade with it, «DRAINAGE_UPGRADE+FLARE_OPEN», too), if any. */
export const deviceOfOption = (code: string | null | undefined): DeviceKind | undefined =>
  code ? DEVICE_OF_OPTION[code.replace(/^DRAINAGE_UPGRADE\+/, "")] : undefined;
