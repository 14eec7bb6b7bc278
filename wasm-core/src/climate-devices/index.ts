// The destruction device kinds of a climate project (methodology 13.1), one module each: adding a kind
// is its module and its line below (docs/architecture.md, «Adding a device kind»). Every reader takes
// the kinds from here: the core's computation (climate-project.ts), the server's schema and plan checks,
// the form, the report, and verify.py's table (verifierTable, written into the script by
// `npm run verify-tables`). A kind missing a part of its rule is refused when the list is assembled,
// naming the part — never computed with another kind's efficiency. Browser-safe: no Node imports.
import { BOILER } from "./boiler";
import { BASIS_TEXTS, type ChannelNeed, type DeviceKindSpec, KIND_CHANNELS, type KindChannel, MEASURED_RULES, PROOFS } from "./definition";
import { ENGINE } from "./engine";
import { FLARE_ENCLOSED } from "./flare-enclosed";
import { FLARE_OPEN } from "./flare-open";

export { BASIS_TEXTS, KIND_CHANNELS, PROOFS } from "./definition";
export type { ChannelNeed, DeviceKindSpec, KindChannel, Proof } from "./definition";

/** Every kind, in the order the form offers them. */
export const DEVICE_KIND_SPECS = [FLARE_OPEN, FLARE_ENCLOSED, ENGINE, BOILER] as const;
export type DeviceKind = (typeof DEVICE_KIND_SPECS)[number]["id"];
/** The basis of an hour at a kind's default efficiency («default_open_flame_60», «engine_run», …). */
export type KindBasis = (typeof DEVICE_KIND_SPECS)[number]["efficiency"]["basis"];
/** The parameters of section 13.6 that hold the kinds' default efficiencies. */
export type EfficiencyParameter = (typeof DEVICE_KIND_SPECS)[number]["efficiency"]["parameter"]["name"];

const isText = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";
const NEEDS: readonly ChannelNeed[] = ["required", "optional", "measured_option"];

/** What a kind lacks or holds wrong, each named by its part of the module. */
export function kindProblems(spec: Partial<DeviceKindSpec>): string[] {
  const problems: string[] = [];
  for (const part of ["id", "label", "label_of", "label_to", "example"] as const) {
    if (!isText(spec[part])) problems.push(`нет ${part}`);
  }
  const rule = spec.efficiency;
  if (!rule) problems.push("нет правила КПД (efficiency)");
  else {
    if (!(rule.proof in PROOFS)) problems.push(`нет правила подтверждения уничтожения (efficiency.proof): ${String(rule.proof)}`);
    const p = rule.parameter;
    if (!p || !isText(p.name) || typeof p.value !== "number" || !(p.value >= 0 && p.value <= 1) || !isText(p.label) || !isText(p.source)) {
      problems.push("нет КПД по умолчанию с его подписью и источником (efficiency.parameter)");
    }
    if (!isText(rule.basis) || !isText(rule.basis_text) || rule.basis in BASIS_TEXTS) {
      problems.push("нет своего основания КПД и его слов (efficiency.basis, efficiency.basis_text)");
    }
    if (!MEASURED_RULES.includes(rule.measured)) problems.push("нет правила измеренного КПД (efficiency.measured)");
    if (rule.counted_as !== "default" && rule.counted_as !== "device") problems.push("нет efficiency.counted_as");
  }
  for (const [channel, need] of Object.entries(spec.channels ?? {})) {
    if (!KIND_CHANNELS.includes(channel as KindChannel) || !NEEDS.includes(need)) problems.push(`канал ${channel}: ${need}`);
    if (need === "measured_option" && rule?.measured !== "option") problems.push(`канал ${channel}: нет варианта измеренного КПД`);
  }
  if (!spec.channels) problems.push("нет channels");
  if (spec.heat !== "always" && spec.heat !== "when_metered") problems.push("нет heat");
  if (!Array.isArray(spec.standing) || !Array.isArray(spec.options)) problems.push("нет standing или options");
  return problems;
}

/** The kinds by their codes, each checked: the first one lacking a part throws, naming it. */
export function kindsById<K extends DeviceKindSpec>(specs: readonly K[]): Readonly<Record<string, K>> {
  const byId: Record<string, K> = {};
  const parameters = new Set<string>();
  for (const spec of specs) {
    const problems = kindProblems(spec);
    if (byId[spec.id]) problems.push("код уже занят");
    if (spec.efficiency && parameters.has(spec.efficiency.parameter?.name)) problems.push("параметр КПД другого вида");
    if (problems.length > 0) throw new Error(`вид устройства «${String(spec.id)}»: ${problems.join("; ")}`);
    parameters.add(spec.efficiency.parameter.name);
    byId[spec.id] = spec;
  }
  return byId;
}

const BY_ID = kindsById<(typeof DEVICE_KIND_SPECS)[number]>(DEVICE_KIND_SPECS);

export const DEVICE_KINDS = DEVICE_KIND_SPECS.map((k) => k.id) as readonly DeviceKind[] as readonly [DeviceKind, ...DeviceKind[]];

/** A device's kind; undefined for a code no module declares. */
export const deviceKindOf = (id: string): (typeof DEVICE_KIND_SPECS)[number] | undefined =>
  Object.hasOwn(BY_ID, id) ? BY_ID[id] : undefined;

/** Whether a device of the kind credits electricity (D75): a kind with a generation meter among its channels. */
export const creditsElectricity = (kind: string): boolean => "e_gen" in (deviceKindOf(kind)?.channels ?? {});

/** «ожидается flare_open, flare_enclosed, engine или boiler» */
export const DEVICE_KIND_EXPECTED = `ожидается ${DEVICE_KINDS.slice(0, -1).join(", ")} или ${DEVICE_KINDS[DEVICE_KINDS.length - 1]}`;

/** Each kind's Russian name by its code. */
export const DEVICE_KIND_NAMES = Object.fromEntries(DEVICE_KIND_SPECS.map((k) => [k.id, k.label])) as Readonly<Record<DeviceKind, string>>;

/** The default efficiencies as section 13.6's parameters, in the kinds' order. */
export const EFFICIENCY_DEFAULTS = Object.fromEntries(
  DEVICE_KIND_SPECS.map((k) => [k.efficiency.parameter.name, k.efficiency.parameter.value]),
) as Readonly<Record<EfficiencyParameter, number>>;

/** Every basis of an hour's efficiency and its words on the screen. */
export const BASIS_SCREEN_TEXTS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(DEVICE_KIND_SPECS.map((k) => [k.efficiency.basis, k.efficiency.basis_text])),
  ...Object.fromEntries(Object.entries(BASIS_TEXTS).map(([basis, words]) => [basis, words.screen])),
};

/** The channels a device of the kind uses (flow and CH4 always, P and T at actual conditions), those
 *  it must have marked; a channel not listed is refused in its plan. */
export function kindChannels(
  kind: DeviceKindSpec,
  basis: string,
  etaOption: string | null | undefined,
): { channel: "q" | "c" | "p" | "t" | KindChannel; required: boolean }[] {
  const out: { channel: "q" | "c" | "p" | "t" | KindChannel; required: boolean }[] = [
    { channel: "q", required: true },
    { channel: "c", required: true },
  ];
  if (basis === "actual") out.push({ channel: "p", required: true }, { channel: "t", required: true });
  for (const [channel, need] of Object.entries(kind.channels) as [KindChannel, ChannelNeed][]) {
    out.push({ channel, required: need === "required" || (need === "measured_option" && etaOption === "measured") });
  }
  return out;
}

/** verify.py's table of the kinds (export/verify/verify.py, between its «device kinds» marks): what
 *  its recomputation reads of each kind, and the words of every basis. functions/src/export/verify-tables.test.ts
 *  holds the script's copy equal to this. */
export function verifierTable() {
  return {
    kinds: Object.fromEntries(
      DEVICE_KIND_SPECS.map((k) => [
        k.id,
        {
          label: k.label,
          channels: k.channels,
          proof: k.efficiency.proof,
          parameter: k.efficiency.parameter.name,
          default: k.efficiency.parameter.value,
          basis: k.efficiency.basis,
          measured: k.efficiency.measured,
          heat: k.heat,
        },
      ]),
    ),
    bases: BASIS_SCREEN_TEXTS,
  };
}
