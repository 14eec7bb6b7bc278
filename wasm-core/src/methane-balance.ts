// The methane balance of an underground mine for one year (methodology D17, IPCC 2006 Vol. 2
// §4.1.3: mining + post-mining − methane recovered and flared or used). Per facility: released
// (Σ gross + Σ net), destroyed (CH4 sent to the facility's flares, boilers and engines less the
// unburnt slip), emitted = Σ gross − destroyed + Σ net. A flare's slip is reported on the flaring
// line (1.B.1.a.i.4), so the mining line (1.B.1.a.i.1) loses destroyed + that slip: the slip is
// counted once, and the facility's CH4 lines add up to `emitted`. Drainage captures the gas of the
// seams, never what the coal gives off after mining: only a gross *mining* figure has the destroyed
// gas in it, so a post-mining figure (handling_underground_ch4) is added, never netted.
// Pure and browser-safe: the inventory sums by it, the screen draws it.
import { CALCULATION_TYPES, METHANE_BASES, REGISTRY, TYPE_MODULES, isCalculationType, type MethaneBasis } from "./registry";
import type { BalanceRole, MethaneDestroyed } from "./types/definition";
import { inputNumber as num, MINE_GAS_FUEL_ENTRY } from "./types/fields";

/** What the balance reads of a calculation (a stored calculation fits). */
export interface BalanceCalculation {
  readonly id: string;
  readonly type: string;
  readonly facility: string | null;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly results: Readonly<Record<string, unknown>>;
  readonly coefficients?: Readonly<Record<string, { readonly dictionary?: string; readonly item_id?: number }>>;
}

export interface MethaneBalance {
  readonly facility: string | null;
  /** t CH4 of the mining calculations (underground_emission_ch4, handling_underground_ch4,
   *  underground) by their basis; post-mining (always gross) among the gross. */
  readonly gross_t: number;
  /** The gross figures of mining itself, without post-mining: what the destroyed gas was part of. */
  readonly mining_gross_t: number;
  readonly net_t: number;
  /** Post-mining (coal handling) methane: gross by its nature, never netted. */
  readonly post_mining_t: number;
  /** All the methane liberated: Σ gross + Σ net, and when no gross mining figure is given (all
   *  measured, net) the gas sent to flares and use too: a net figure leaves it out by definition,
   *  so the balance still closes. */
  readonly released_t: number;
  /** CH4 sent to flares and to use (boilers, engines), t. */
  readonly flared_t: number;
  readonly used_t: number;
  /** Sent less the unburnt slip, t. */
  readonly destroyed_t: number;
  /** CH4 left unburnt by flares whose own line reports it (1.B.1.a.i.4: flaring by composition,
   *  the IPCC flare's CH4), t. */
  readonly slip_t: number;
  /** What the mining line (1.B.1.a.i.1) loses: destroyed plus the slip the flaring line reports,
   *  when a gross mining figure exists (never more than it), else nothing (a net figure already
   *  excludes it, and post-mining gas was never drained). */
  readonly netted_t: number;
  /** Liberated by mining (ventilation air and drainage) and not sent to a flare or use: ventilation
   *  air and drained gas vented, t. Post-mining gas is apart (post_mining_t). */
  readonly vented_t: number;
  /** Reached the atmosphere: vented + the flares' slip + post-mining, t — what the facility's CH4
   *  lines add up to (1.B.1.a.i.1 after netting, 1.B.1.a.i.4's slip, 1.B.1.a.i.2). */
  readonly emitted_t: number;
  /** D36 error: a drainage point (or the mine, where it has none) was sent more CH4 to destroy than
   *  its gross figures say it drained. */
  readonly exceeds: boolean;
  /** D35: each mining point's gross figures and what the netting takes off them (the destroyed gas
   *  comes off the drainage that fed it, never off a ventilation shaft); null: the calculations that
   *  name no point. */
  readonly by_point: readonly PointNetting[];
  /** D36: CH4 sent to destruction that no drainage point (nor a figure of the mine as a whole) fed, t. */
  readonly unfed_t: number;
  /** D28: t CO2 of the gross measured mining figures (formula 3.1 with W_CO2): the drained
   *  mixture's CO2 is in them. */
  readonly co2_gross_t: number;
  /** D28: t CO2 the burnt drained gas carried (flares and boilers by composition: V × W_CO2 × ρ_CO2
   *  × 10⁻²), reported with their combustion lines. */
  readonly co2_carried_t: number;
  /** D28: what the mining line's CO2 (1.B.1.a.i.1) loses so that CO2 is counted once: the CO2
   *  carried, never more than the gross CO2 figures. */
  readonly co2_netted_t: number;
}

/** The mining types and their basis as stored, or the registry default (D17) for older ones. */
export function basisOf(type: string, inputs: Readonly<Record<string, unknown>>): MethaneBasis | undefined {
  if (!isCalculationType(type)) return undefined;
  const fallback = (REGISTRY[type] as { basis?: MethaneBasis }).basis;
  if (!fallback) return undefined;
  const stored = inputs.basis;
  return METHANE_BASES.includes(stored as MethaneBasis) ? (stored as MethaneBasis) : fallback;
}

/** Whether a user states the basis (D17): a mining methane type whose basis is not fixed — never
 *  post-mining, whose methane is always all of it. */
export function basisAsked(type: string): boolean {
  if (!isCalculationType(type)) return false;
  const def = REGISTRY[type] as { basis?: MethaneBasis; basisFixed?: true };
  return def.basis !== undefined && def.basisFixed !== true;
}

/** A type's part in the methane balance, as its module declares it; undefined for one that takes none. */
export function balanceRoleOf(type: string): BalanceRole | undefined {
  return isCalculationType(type) ? (TYPE_MODULES[type].balance ?? undefined) : undefined;
}
/** The types that take part in the methane balance (D17). */
export const BALANCE_TYPES: readonly string[] = CALCULATION_TYPES.filter((type) => balanceRoleOf(type));

/** The CH4 a flaring or utilisation calculation was sent and destroyed, t, by its type's module
 *  (`destroys`); none for other types and for fuels that are not mine gas. */
export function methaneDestroyedBy(calculation: BalanceCalculation): MethaneDestroyed | undefined {
  return isCalculationType(calculation.type) ? (TYPE_MODULES[calculation.type].destroys?.(calculation) ?? undefined) : undefined;
}

/** D24: what a results view and the report say of a type that takes its gas as pure methane, so
 *  that the CO2 the drained gas already carries is not counted. */
export const PURE_METHANE_NOTE = "газ принят за 100 % CH4: CO2, уже содержащийся в газе, не учтен";

/** D24: the IPCC flare types (pure CH4 volume) and the boiler's mine-gas entry (100 % CH4). */
export function assumesPureMethane(calculation: Pick<BalanceCalculation, "type" | "inputs" | "coefficients">): boolean {
  if (calculation.type === "disposal_co2_torch" || calculation.type === "torch_ch4") return true;
  if (calculation.type !== "disposal_co2_stat_sources" || num(calculation.inputs, "w_ch4") > 0) return false;
  const ef = calculation.coefficients?.ef;
  return ef?.dictionary === "get_disposal_co2_stat_sources" && ef.item_id === MINE_GAS_FUEL_ENTRY;
}

/** D24: the short form a report line or an export's «Отметки» prints. */
export const PURE_METHANE_MARK = "газ принят за 100 % CH4";

/** A line's notes with D24's mark added when the calculation takes its gas as pure methane (once:
 *  the boiler's mine-gas entry carries it among its source notes already), and without it when
 *  the gas's composition is given (D28). */
export function withPureMethaneMark(
  notes: readonly string[],
  calculation: Pick<BalanceCalculation, "type" | "inputs" | "coefficients">,
): string[] {
  if (!assumesPureMethane(calculation)) return notes.filter((note) => note !== PURE_METHANE_MARK);
  return notes.includes(PURE_METHANE_MARK) ? [...notes] : [...notes, PURE_METHANE_MARK];
}

/** What one calculation adds to its facility's balance, t CH4 (D17): its mining figure by basis,
 *  or the gas it sent and destroyed (the IPCC flare pair, 4.6 CO2 and 4.7 CH4, apart: it describes
 *  one flare whose gas counts once). Every field adds: a facility's balance is balanceOf the sum of
 *  its calculations' sums, in any order. */
export interface BalanceSums {
  /** Gross mining figures (not post-mining). */
  gross: number;
  net: number;
  /** Post-mining (coal handling), gross by its nature. */
  post_mining: number;
  flared: number;
  used: number;
  destroyed: number;
  /** The unburnt CH4 of flaring by composition (its own line reports it). */
  slip: number;
  ipcc_co2_sent: number;
  ipcc_co2_destroyed: number;
  ipcc_ch4_sent: number;
  ipcc_ch4_destroyed: number;
  /** D28: CO2 of the gross measured mining figures, and the CO2 the burnt drained gas carried. */
  co2_gross: number;
  co2_carried: number;
}

export const BALANCE_SUM_FIELDS = [
  "gross",
  "net",
  "post_mining",
  "flared",
  "used",
  "destroyed",
  "slip",
  "ipcc_co2_sent",
  "ipcc_co2_destroyed",
  "ipcc_ch4_sent",
  "ipcc_ch4_destroyed",
  "co2_gross",
  "co2_carried",
] as const satisfies ReadonlyArray<keyof BalanceSums>;

export const emptyBalanceSums = (): BalanceSums => ({
  gross: 0,
  net: 0,
  post_mining: 0,
  flared: 0,
  used: 0,
  destroyed: 0,
  slip: 0,
  ipcc_co2_sent: 0,
  ipcc_co2_destroyed: 0,
  ipcc_ch4_sent: 0,
  ipcc_ch4_destroyed: 0,
  co2_gross: 0,
  co2_carried: 0,
});

/** The calculation's part of its facility's balance; undefined when it takes no part. */
export function balanceSumsOf(calculation: Omit<BalanceCalculation, "facility" | "id">): Partial<BalanceSums> | undefined {
  const basis = basisOf(calculation.type, calculation.inputs);
  if (basis) {
    const co2 = basis === "gross" ? num(calculation.results, "res_co2") : 0;
    return {
      [balanceRoleOf(calculation.type) === "post_mining" ? "post_mining" : basis]: num(calculation.results, "res_ch4"),
      ...(co2 > 0 ? { co2_gross: co2 } : {}),
    };
  }
  const destroyed = methaneDestroyedBy(calculation as BalanceCalculation);
  if (!destroyed) return undefined;
  const carried = co2CarriedBy(calculation);
  if (calculation.type === "disposal_co2_torch") return { ipcc_co2_sent: destroyed.sent_t, ipcc_co2_destroyed: destroyed.destroyed_t };
  if (calculation.type === "torch_ch4") return { ipcc_ch4_sent: destroyed.sent_t, ipcc_ch4_destroyed: destroyed.destroyed_t };
  return {
    [destroyed.route]: destroyed.sent_t,
    destroyed: destroyed.destroyed_t,
    ...(carried > 0 ? { co2_carried: carried } : {}),
    ...(calculation.type === "torch_composition" ? { slip: destroyed.sent_t - destroyed.destroyed_t } : {}),
  };
}

/** D28: the CO2 the drained gas a flare or boiler burnt by composition carried, t: V × W_CO2 × ρ_CO2
 *  × 10⁻² (its combustion line reports it; a type that takes its gas as pure CH4 carries none). */
export function co2CarriedBy(calculation: Pick<BalanceCalculation, "type" | "inputs">): number {
  if (calculation.type !== "torch_composition" && calculation.type !== "disposal_co2_stat_sources") return 0;
  const inputs = calculation.inputs;
  if (!(num(inputs, "w_ch4") > 0)) return 0;
  if (calculation.type === "disposal_co2_stat_sources") {
    // The mine-gas entry's k × ef is ρ CO2, t per thousand m³ (the boiler's own formula, 4.8 with D28).
    const k = inputs.k === undefined ? 1 : num(inputs, "k");
    return (num(inputs, "volume") * k * (num(inputs, "ef") || CO2_DENSITY_20C) * num(inputs, "w_co2")) / 100;
  }
  return (num(inputs, "volume") * num(inputs, "w_co2") * (num(inputs, "p_co2") || CO2_DENSITY_20C)) / 100;
}
const CO2_DENSITY_20C = 1.8393;

/** What the flares, boilers and engines of `sums` sent and destroyed, t CH4: the IPCC flare pair (4.6
 *  CO2, 4.7 CH4) describes one flare, so its larger half counts, and its slip only when its CH4 half
 *  (torch_ch4) is counted. */
function destructionOf(sums: BalanceSums) {
  const ipcc =
    sums.ipcc_co2_sent >= sums.ipcc_ch4_sent
      ? { sent: sums.ipcc_co2_sent, destroyed: sums.ipcc_co2_destroyed }
      : { sent: sums.ipcc_ch4_sent, destroyed: sums.ipcc_ch4_destroyed };
  const flared = sums.flared + ipcc.sent;
  const destroyed = sums.destroyed + ipcc.destroyed;
  const slip = sums.slip + (sums.ipcc_ch4_sent - sums.ipcc_ch4_destroyed);
  return { flared, used: sums.used, sent: flared + sums.used, destroyed, slip };
}

// ---- D35, D36: the destroyed gas taken off the drainage that fed it ----

/** The mining figures of one emission point of a facility (null: its calculations that name none),
 *  with the point's kind as stored ("" for none). */
export interface MiningPart {
  readonly point: string | null;
  readonly kind: string;
  readonly sums: BalanceSums;
}

/** The destruction calculations (flares, boilers, engines) that name the same drainage points
 *  ([]: none named, so the facility's drainage takes them). */
export interface DestructionPart {
  readonly drainage_points: readonly string[];
  readonly sums: BalanceSums;
}

/** What a facility's netting takes off one point's gross mining figures (D35). */
export interface PointNetting {
  readonly point: string | null;
  /** t CH4 of the point's gross mining figures, and of its net ones (drained gas vented unburnt). */
  readonly gross_t: number;
  readonly net_t: number;
  /** CH4 sent to destruction from this point, and what comes off its gross figures: destroyed plus
   *  the flares' slip, never more than the gross figures. */
  readonly sent_t: number;
  readonly netted_t: number;
  /** D28: CO2 of its gross measured figures, and the CO2 the burnt gas carried that comes off them. */
  readonly co2_gross_t: number;
  readonly co2_netted_t: number;
  /** D36: more was sent to destruction than its gross figures drained. */
  readonly exceeds: boolean;
}

/** Kinds whose gas reaches the atmosphere: never a source of gas sent to destruction. */
const ATMOSPHERE_KINDS: readonly string[] = ["ventilation_shaft", "vam_oxidiser"];

/** The points a destruction part takes gas from (D35): the drainage points it names; else the
 *  facility's drainage points; else, where the facility has none, its gross figures of the mine as a
 *  whole (an estimate from production, a measurement of «Шахта в целом», a calculation without a
 *  point), never a ventilation shaft. */
function feedersOf(part: DestructionPart, mining: readonly MiningPart[]): MiningPart[] {
  if (part.drainage_points.length > 0) {
    return part.drainage_points.map(
      (point) => mining.find((m) => m.point === point) ?? { point, kind: "drainage_station", sums: emptyBalanceSums() },
    );
  }
  const drainage = mining.filter((m) => m.kind === "drainage_station");
  if (drainage.length > 0) return drainage;
  return mining.filter((m) => !ATMOSPHERE_KINDS.includes(m.kind) && m.sums.gross > 0);
}

/** D35: what the netting takes off each mining point, from the destruction parts it fed. A part that
 *  several points fed is shared by each point's drained CH4 (equally when none has a figure). */
export function nettingByPoint(
  mining: readonly MiningPart[],
  destruction: readonly DestructionPart[],
): { points: PointNetting[]; unfed_t: number } {
  const sent = new Map<MiningPart, { sent: number; taken: number; co2: number }>();
  let unfed = 0;
  for (const part of destruction) {
    const { sent: partSent, destroyed, slip } = destructionOf(part.sums);
    if (partSent <= 0 && part.sums.co2_carried <= 0) continue;
    const feeders = feedersOf(part, mining);
    if (feeders.length === 0) {
      unfed += partSent;
      continue;
    }
    const weights = feeders.map((m) => m.sums.gross + m.sums.net);
    const whole = weights.reduce((a, b) => a + b, 0);
    feeders.forEach((feeder, i) => {
      const share = whole > 0 ? weights[i] / whole : 1 / feeders.length;
      const into = sent.get(feeder) ?? sent.set(feeder, { sent: 0, taken: 0, co2: 0 }).get(feeder)!;
      into.sent += partSent * share;
      into.taken += (destroyed + slip) * share;
      into.co2 += part.sums.co2_carried * share;
    });
  }
  const points = [...mining, ...[...sent.keys()].filter((m) => !mining.includes(m))].map((m): PointNetting => {
    const fed = sent.get(m) ?? { sent: 0, taken: 0, co2: 0 };
    return {
      point: m.point,
      gross_t: m.sums.gross,
      net_t: m.sums.net,
      sent_t: fed.sent,
      // A net figure already leaves out what was destroyed: only gross figures give it up.
      netted_t: Math.min(fed.taken, m.sums.gross),
      co2_gross_t: m.sums.co2_gross,
      co2_netted_t: Math.min(fed.co2, m.sums.co2_gross),
      // With only net figures the drained CH4 is net + destroyed: D37's warning, not this error.
      exceeds: m.sums.gross > 0 && fed.sent > m.sums.gross + m.sums.net + 1e-9,
    };
  });
  return { points, unfed_t: unfed };
}

/** A facility's balance from the sum of its calculations' balance sums and, when the points are
 *  known, each mining point's part and the destruction parts by the drainage points they name (D35);
 *  without them the facility's figures are one part of the mine as a whole. */
export function balanceOf(
  facility: string | null,
  sums: BalanceSums,
  parts?: { readonly mining: readonly MiningPart[]; readonly destruction: readonly DestructionPart[] },
): MethaneBalance {
  const { flared, sent, destroyed, slip } = destructionOf(sums);
  const hasGross = sums.gross > 0;
  const byPoint = nettingByPoint(parts?.mining ?? [{ point: null, kind: "", sums }], parts?.destruction ?? [{ drainage_points: [], sums }]);
  const netted = byPoint.points.reduce((total, p) => total + p.netted_t, 0);
  // Liberated by mining: the gross figures hold the gas sent; a net figure leaves it out.
  const mining = sums.gross + sums.net + (hasGross ? 0 : sent);
  // What the mining line keeps reached the atmosphere: each point's gross figures less what came off
  // them, and the net figures (the drained gas vented), so the balance and the lines agree per source.
  const vented = hasGross ? sums.gross - netted + sums.net : sums.net;
  return {
    facility,
    gross_t: sums.gross + sums.post_mining,
    mining_gross_t: sums.gross,
    net_t: sums.net,
    post_mining_t: sums.post_mining,
    released_t: mining + sums.post_mining,
    flared_t: flared,
    used_t: sums.used,
    destroyed_t: destroyed,
    slip_t: slip,
    netted_t: netted,
    vented_t: vented,
    emitted_t: vented + slip + sums.post_mining,
    exceeds: byPoint.points.some((p) => p.exceeds) || (hasGross && byPoint.unfed_t > 0),
    by_point: byPoint.points.filter((p) => p.gross_t > 0 || p.net_t > 0 || p.sent_t > 0),
    unfed_t: byPoint.unfed_t,
    co2_gross_t: sums.co2_gross,
    co2_carried_t: sums.co2_carried,
    co2_netted_t: byPoint.points.reduce((total, p) => total + p.co2_netted_t, 0),
  };
}

/** Whether a calculation's part of the balance is a mining figure (by its basis) rather than gas it
 *  sent to destruction. */
const isMiningPart = (type: string) => basisOf(type, {}) !== undefined;

/** A facility's parts by point (D35) from its calculations' parts: each mining figure under its point
 *  (null: none named), each destruction under the drainage points it names; `kindOf` tells a point's
 *  kind as stored. */
export function nettingParts(
  calculations: ReadonlyArray<{
    readonly type: string;
    readonly point?: string | null;
    readonly drainage_points?: readonly string[] | null;
    readonly sums: Partial<BalanceSums>;
  }>,
  kindOf: (point: string) => string,
): { mining: MiningPart[]; destruction: DestructionPart[] } {
  const mining = new Map<string | null, MiningPart>();
  const destruction = new Map<string, DestructionPart>();
  for (const calculation of calculations) {
    let into: BalanceSums;
    if (isMiningPart(calculation.type)) {
      const point = calculation.point || null;
      into = (mining.get(point) ?? mining.set(point, { point, kind: point ? kindOf(point) : "", sums: emptyBalanceSums() }).get(point)!)
        .sums;
    } else {
      const named = [...(calculation.drainage_points ?? [])].sort();
      const key = named.join(",");
      into = (destruction.get(key) ?? destruction.set(key, { drainage_points: named, sums: emptyBalanceSums() }).get(key)!).sums;
    }
    for (const field of BALANCE_SUM_FIELDS) into[field] += calculation.sums[field] ?? 0;
  }
  return { mining: [...mining.values()], destruction: [...destruction.values()] };
}

/** One balance per facility that has a mining calculation or destroys methane, in first-seen order;
 *  with the points' kinds (`kindOf`), the destroyed gas comes off the drainage that fed it (D35). */
export function methaneBalances(
  calculations: ReadonlyArray<BalanceCalculation & { readonly point?: string | null; readonly drainage_points?: readonly string[] | null }>,
  kindOf?: (point: string) => string,
): MethaneBalance[] {
  const byFacility = new Map<string | null, { sums: BalanceSums; parts: Parameters<typeof nettingParts>[0][number][] }>();
  for (const calculation of calculations) {
    const part = balanceSumsOf(calculation);
    if (!part) continue;
    const own =
      byFacility.get(calculation.facility) ??
      byFacility.set(calculation.facility, { sums: emptyBalanceSums(), parts: [] }).get(calculation.facility)!;
    for (const field of BALANCE_SUM_FIELDS) own.sums[field] += part[field] ?? 0;
    own.parts.push({ type: calculation.type, point: calculation.point, drainage_points: calculation.drainage_points, sums: part });
  }
  return [...byFacility.entries()].map(([facility, { sums, parts }]) =>
    balanceOf(facility, sums, kindOf ? nettingParts(parts, kindOf) : undefined),
  );
}

// ---- D25: the balance by stream, from the part each emission point has in it ----

/** Where a point's gas goes: ventilation air to the atmosphere; drained gas captured (then flared,
 *  used or vented); a flare's or a boiler's gas destroyed; «mine»: a figure of the mine as a whole
 *  (an estimate, a blended measurement) that tells no stream. */
export type StreamRoute = "atmosphere" | "drained" | "flared" | "used" | "mine";

export interface BalanceStream {
  readonly point: string;
  readonly kind: string;
  readonly route: StreamRoute;
  /** t CH4: the point's mining figure (gross or net), or the gas it sent to a flare or to use. */
  readonly t: number;
  /** D35, a mining stream: what of it reached the air — its figure less what the netting took off
   *  it for the gas it fed to destruction; each source's «чистые» everywhere else. */
  readonly to_air_t?: number;
}

export interface StreamBalance {
  /** t CH4 measured at ventilation shafts and fans: it reaches the atmosphere. */
  readonly ventilation_t: number;
  /** t CH4 measured at drainage stations: captured. */
  readonly drained_t: number;
  /** The drained gas not sent to a flare or to use: vented, t. */
  readonly drained_vented_t: number;
  /** Per point, by route (atmosphere, drained, flared, used, mine), in the order given within one. */
  readonly streams: readonly BalanceStream[];
}

const ROUTE_ORDER: readonly StreamRoute[] = ["atmosphere", "drained", "flared", "used", "mine"];

const MINING_ROUTES: Readonly<Record<string, StreamRoute>> = {
  ventilation_shaft: "atmosphere",
  vam_oxidiser: "atmosphere",
  drainage_station: "drained",
};

/** The streams of a facility's balance from its points' balance sums (their kinds from the
 *  points as stored: a kind changed moves the stream, never a figure). Points that take no part
 *  in the balance (sums all zero) are left out. */
export function balanceStreams(
  balance: Pick<MethaneBalance, "flared_t" | "used_t" | "by_point">,
  points: ReadonlyArray<{ readonly point: string; readonly kind: string; readonly sums: BalanceSums }>,
): StreamBalance {
  const streams: BalanceStream[] = [];
  let ventilation = 0;
  let drained = 0;
  let drainedVented = 0;
  for (const { point, kind, sums } of points) {
    // «Шахта в целом» is the facility as a whole: it tells no stream.
    if (kind === "whole_mine") continue;
    const mining = sums.gross + sums.net + sums.post_mining;
    const flared = sums.flared + Math.max(sums.ipcc_co2_sent, sums.ipcc_ch4_sent);
    if (mining > 0) {
      const route = MINING_ROUTES[kind] ?? "mine";
      const toAir = mining - (balance.by_point.find((p) => p.point === point)?.netted_t ?? 0);
      if (route === "atmosphere") ventilation += mining;
      if (route === "drained") {
        drained += mining;
        drainedVented += toAir;
      }
      streams.push({ point, kind, route, t: mining, to_air_t: toAir });
    }
    if (flared > 0) streams.push({ point, kind, route: "flared", t: flared });
    if (sums.used > 0) streams.push({ point, kind, route: "used", t: sums.used });
  }
  return {
    ventilation_t: ventilation,
    drained_t: drained,
    // D35: the drained gas that reached the air, point by point, as the netting left it.
    drained_vented_t: drainedVented,
    // By stream as the gas flows (ventilation, drainage, flares, use), the points' order within.
    streams: streams.sort((a, b) => ROUTE_ORDER.indexOf(a.route) - ROUTE_ORDER.indexOf(b.route)),
  };
}

/** Where one route's sent gas went, t CH4 (sentGasFlows). */
export interface SentGasFlows {
  /** Burnt. */
  readonly destroyed_t: number;
  /** The flares' slip their own line (1.B.1.a.i.4) reports: straight to the atmosphere. */
  readonly slip_t: number;
  /** Left unburnt and not reported as slip: the netting never took it off the mining figures, so the
   *  balance counts it among the vented gas (vented_t, drained_vented_t). */
  readonly vented_t: number;
}

/** D17: what became of the gas sent to flares and to use, as a diagram of a balance draws it (the
 *  inventory's row or a stored version's), from the balance's own figures: the flares' slip is the
 *  balance's slip_t (a version approved before it was kept apart: what reached the air besides the
 *  vented and post-mining gas); the rest of what was sent and not destroyed is vented gas; the destroyed gas and that rest are
 *  shared by the flares and the use as they were sent. So a diagram's atmosphere is emitted_t and its
 *  destroyed destroyed_t, whatever the routes. */
export function sentGasFlows(row: {
  readonly flared_t: number;
  readonly used_t: number;
  readonly destroyed_t: number;
  readonly vented_t: number;
  readonly emitted_t: number;
  readonly post_mining_t?: number;
  readonly slip_t?: number;
}): { readonly flared: SentGasFlows; readonly used: SentGasFlows } {
  const given = row.slip_t ?? row.emitted_t - row.vented_t - (row.post_mining_t ?? 0);
  const slip = Math.min(Math.max(0, given), row.flared_t);
  const flaredRest = row.flared_t - slip;
  const rest = flaredRest + row.used_t;
  const unburnt = Math.min(Math.max(0, rest - row.destroyed_t), rest);
  const flaredVented = rest > 0 ? (unburnt * flaredRest) / rest : 0;
  return {
    flared: { destroyed_t: flaredRest - flaredVented, slip_t: slip, vented_t: flaredVented },
    used: { destroyed_t: row.used_t - (unburnt - flaredVented), slip_t: 0, vented_t: unburnt - flaredVented },
  };
}
