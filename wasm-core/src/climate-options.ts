// Which device of a climate project (methodology 13.1) puts an abatement option (section 11) into
// practice: a flare, a gas engine or a boiler, as each kind's module names its
// options; the other options (pipeline sale, ventilation-air oxidisers, a capture upgrade alone) are
// outside 2026.7 and start no project.
// Browser-safe: «Снижение выбросов» offers the project with it, the server checks it.
import { DEVICE_KIND_SPECS, type DeviceKind } from "./climate-devices";

export const DEVICE_OF_OPTION: Readonly<Record<string, DeviceKind>> = Object.fromEntries(
  DEVICE_KIND_SPECS.flatMap((kind) => kind.options.map((option) => [option, kind.id])),
);

/** The device kind an option is (a capture upgrade with it, «DRAINAGE_UPGRADE+FLARE_OPEN», too), if any. */
export const deviceOfOption = (code: string | null | undefined): DeviceKind | undefined =>
  code ? DEVICE_OF_OPTION[code.replace(/^DRAINAGE_UPGRADE\+/, "")] : undefined;
