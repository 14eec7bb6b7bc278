// What each calculation type contributes to a company's yearly inventory (methodology D15; docs/methodology.md, Inventory and the report):
// its Order 371 category, its IPCC code and which results are which gas, as its module (wasm-core/src/types/<type>.ts)
// declares them. Types whose module says null (forecast, gap filling, sensitivity, the utilisation
// choice) never count. Browser-safe: the inventory screen reads the same labels the server sums by.
import { CALCULATION_TYPES, TYPE_MODULES, type CalculationType } from "./registry";
import type { Gas, InventoryMethod, InventorySource, Order371Category } from "./types/definition";
import {
  balanceRoleOf,
  basisOf,
  methaneBalances,
  type BalanceCalculation,
  type MethaneBalance,
  type PointNetting,
} from "./methane-balance";
import { co2Equivalent } from "./gwp-in-force";
import { FieldError } from "./field-error";

export { IPCC_CODES, IPCC_FLARE_NOTE } from "./types/definition";
export type { Gas, InventoryMethod, InventorySource, Order371Category } from "./types/definition";

export const ORDER_371_CATEGORIES: Record<Order371Category, string> = {
  1: "Стационарное сжигание топлива",
  2: "Сжигание в факелах",
  3: "Фугитивные выбросы",
  18: "Транспорт",
};

export const METHOD_LABELS: Record<InventoryMethod, string> = {
  coefficients: "Расчетный метод по коэффициентам",
  measurement: "Периодические измерения",
  continuous: "Непрерывные измерения (АГК)",
  composition: "Расчет по составу газа",
  table_defaults: "Измеренный объем, состав по умолчанию (табл. 3.1)",
};

/** What each type contributes to the inventory, from its module (wasm-core/src/types/<type>.ts); a type
 *  whose module says null is absent. */
export const INVENTORY_SOURCES: Partial<Record<CalculationType, InventorySource>> = Object.fromEntries(
  CALCULATION_TYPES.flatMap((type) => {
    const source = TYPE_MODULES[type].inventory;
    return source ? [[type, source]] : [];
  }),
);

export function inventorySourceOf(type: string): InventorySource | undefined {
  return Object.hasOwn(INVENTORY_SOURCES, type) ? INVENTORY_SOURCES[type as CalculationType] : undefined;
}

/** The IPCC code of one calculation: the entry it used may say more than its type. */
export function ipccCodeOf(source: InventorySource, entryId: number | undefined): string {
  return (entryId !== undefined && source.ipccByEntry?.[entryId]) || source.ipcc;
}

/** The notes a line of one calculation carries (D16, D22). */
export function sourceNotesOf(source: InventorySource, entryId: number | undefined): string[] {
  const byEntry = entryId !== undefined ? source.notesByEntry?.[entryId] : undefined;
  return [source.note, byEntry].filter((note): note is string => note !== undefined);
}

/** the measurement frequency a month accepted from the mine's АГК readings records (D63): its
 *  method is continuous measurement. */
export const AGK_MEASUREMENT_FREQUENCY = "непрерывно (АГК, минутные значения)";

/** The method of one calculation: the underground type with Table 3.1's contents is not a measurement;
 *  a measurement whose frequency is the АГК's minutes is continuous. */
export function sourceMethodOf(source: InventorySource, contentsDictionary: string | undefined, frequency?: unknown): InventoryMethod {
  if (source.defaultsDictionary !== undefined && contentsDictionary === source.defaultsDictionary) return "table_defaults";
  return source.method === "measurement" && frequency === AGK_MEASUREMENT_FREQUENCY ? "continuous" : source.method;
}

/** D15: a calculation's role in the year's inventory: null for a type the inventory does not sum,
 *  else as stored, and primary for one stored before roles existed. The one place that default
 *  is applied: the answers carry the role this gives, so no reader defaults it again. */
export function roleOf(calculation: { readonly type: string; readonly inventory_role?: InventoryRole | null }): InventoryRole | null {
  if (!inventorySourceOf(calculation.type)) return null;
  return calculation.inventory_role ?? "primary";
}

/** D22: the role a new calculation of the type gets when none is chosen. */
export function defaultRoleOf(type: string): InventoryRole {
  return inventorySourceOf(type)?.defaultRole ?? "primary";
}

/** The role a create or an edit stores (D15, D22), in one call: the one sent, else the type's default
 *  (the IPCC flare types are alternatives unless made primary); undefined for a type that is not the
 *  inventory's, which takes none (FieldError when one is sent). */
export function inventoryRoleFor(type: string, sent: InventoryRole | undefined): InventoryRole | undefined {
  const source = inventorySourceOf(type);
  if (!source) {
    if (sent !== undefined) throw new FieldError("inventory_role", "этот тип расчета не входит в инвентаризацию выбросов");
    return undefined;
  }
  return sent ?? source.defaultRole ?? "primary";
}

// ---- one netted figure (D17, D26): what a facility-year's netting takes off each calculation ----

/** How every output names the figure the netting takes off a source (D26): the CH4 sent to flares
 *  and boilers, their slip included (D38: «уничтожено» names the CH4 burnt and nothing else). */
export const NETTING_LABEL = "− направлено на сжигание (факел, котельная)";
/** The IPCC line the destroyed gas comes off (D17). */
export const NETTED_LINE = "1.B.1.a.i.1";

/** What the netting reads of a facility-year's balance (a MethaneBalance or an inventory's balance
 *  row): D35's part of each point, or, for a version approved before it was kept, the facility's. */
export type NettingBalance = Pick<MethaneBalance, "mining_gross_t" | "netted_t"> &
  Partial<Pick<MethaneBalance, "co2_gross_t" | "co2_netted_t">> & {
    readonly by_point?: ReadonlyArray<Pick<PointNetting, "point" | "gross_t" | "netted_t" | "co2_gross_t" | "co2_netted_t">>;
  };

/** One gas of a calculation: its own result (gross where its basis is gross), what the facility-year's
 *  netting takes off it, and what counts (net), t and t CO2-eq at the year's GWP. */
export interface NettedGas {
  readonly gas: Gas;
  readonly gross_t: number;
  readonly subtracted_t: number;
  readonly t: number;
  readonly gross_t_co2e: number;
  readonly subtracted_t_co2e: number;
  readonly t_co2e: number;
}

type NettedCalculation = Pick<BalanceCalculation, "type" | "inputs" | "results" | "coefficients"> & {
  /** D25: its emission point (absent or null: none named). */
  readonly point?: string | null;
};

/** D35: a calculation's point's part of the netting, or undefined when the balance has none by point. */
const pointPart = (calculation: NettedCalculation, balance: NettingBalance) =>
  balance.by_point?.find((p) => p.point === (calculation.point || null));

const massOf = (results: Readonly<Record<string, unknown>>, name: string) => {
  const value = results[name];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
};

/** D17, D26, D35: the t CH4 the facility-year's netting takes off one counted calculation. Only a
 *  gross mining figure (1.B.1.a.i.1, never post-mining) held the destroyed gas, and only one of the
 *  point that fed it: each gives up the share of its point's netted methane its own result is of the
 *  point's gross figures, so the shares add up to what the inventory takes off the line. A version
 *  approved before points were netted apart shares the facility's over all its gross figures. */
export function methaneSubtracted(calculation: NettedCalculation, balance: NettingBalance | undefined): number {
  if (!balance || balance.netted_t <= 0) return 0;
  if (balanceRoleOf(calculation.type) === "post_mining" || basisOf(calculation.type, calculation.inputs) !== "gross") return 0;
  const { gross_t, netted_t } = balance.by_point
    ? (pointPart(calculation, balance) ?? { gross_t: 0, netted_t: 0 })
    : {
        gross_t: balance.mining_gross_t,
        netted_t: balance.netted_t,
      };
  return gross_t > 0 && netted_t > 0 ? (massOf(calculation.results, "res_ch4") * netted_t) / gross_t : 0;
}

/** D28, D35: the t CO2 the netting takes off one counted gross measured mining figure: its share of
 *  the CO2 the burnt drained gas carried (reported with the combustion lines), from its own point. */
export function co2Subtracted(calculation: NettedCalculation, balance: NettingBalance | undefined): number {
  if (!balance || basisOf(calculation.type, calculation.inputs) !== "gross") return 0;
  const part = balance.by_point ? pointPart(calculation, balance) : undefined;
  const netted = balance.by_point ? (part?.co2_netted_t ?? 0) : (balance.co2_netted_t ?? 0);
  const gross = balance.by_point ? (part?.co2_gross_t ?? 0) : (balance.co2_gross_t ?? 0);
  if (netted <= 0 || gross <= 0) return 0;
  return (massOf(calculation.results, "res_co2") * netted) / gross;
}

/** D26: every gas of one counted calculation, gross, subtracted and net, CH4 at `gwpCh4` (the
 *  year's set): the one figure the inventory, the passport, the exports, the uncertainty and the
 *  drill-down print for it. `balance` is its facility-year's (undefined: nothing is netted). */
export function nettedGasesOf(calculation: NettedCalculation, balance: NettingBalance | undefined, gwpCh4: number): NettedGas[] {
  const source = inventorySourceOf(calculation.type);
  if (!source) return [];
  return source.gases.map(({ gas, result }) => {
    const gross = massOf(calculation.results, result);
    const subtracted = gas === "CH4" ? methaneSubtracted(calculation, balance) : co2Subtracted(calculation, balance);
    return {
      gas,
      gross_t: gross,
      subtracted_t: subtracted,
      t: gross - subtracted,
      gross_t_co2e: co2Equivalent(gas, gross, gwpCh4),
      subtracted_t_co2e: co2Equivalent(gas, subtracted, gwpCh4),
      t_co2e: co2Equivalent(gas, gross - subtracted, gwpCh4),
    };
  });
}

/** A counted calculation of a facility-year, as facilityYearFigures reads it. */
export interface FacilityYearCalculation extends NettedCalculation {
  readonly id: string;
  /** D35: the drainage points a flare, boiler or engine takes its gas from (none: the facility's). */
  readonly drainage_points?: readonly string[] | null;
}

export interface FacilityYearFigures {
  /** The facility's methane balance (undefined: no calculation takes part in one). */
  readonly balance: MethaneBalance | undefined;
  readonly calculations: ReadonlyArray<{ readonly id: string; readonly gases: NettedGas[]; readonly t_co2e: number }>;
  /** Gross, subtracted and net per gas, t and t CO2-eq. */
  readonly gases: NettedGas[];
  readonly gross_t_co2e: number;
  readonly subtracted_t_co2e: number;
  readonly t_co2e: number;
}

/** D26: every figure of one facility-year from its counted (primary) calculations: the balance, each
 *  calculation's gross, subtracted and net gases, and the facility's totals, CH4 at `gwpCh4`. With
 *  the facility's points' kinds (`kindOf`), the destroyed gas comes off the drainage that fed it (D35). */
export function facilityYearFigures(
  calculations: readonly FacilityYearCalculation[],
  gwpCh4: number,
  kindOf?: (point: string) => string,
): FacilityYearFigures {
  const [balance] = methaneBalances(
    calculations.map((c) => ({ ...c, facility: null })),
    kindOf,
  );
  const rows = calculations.map((calculation) => {
    const gases = nettedGasesOf(calculation, balance, gwpCh4);
    return { id: calculation.id, gases, t_co2e: gases.reduce((sum, g) => sum + g.t_co2e, 0) };
  });
  const gases = (["CO2", "CH4"] as const).map((gas): NettedGas => {
    const own = rows.flatMap((row) => row.gases.filter((g) => g.gas === gas));
    const sum = (key: keyof Omit<NettedGas, "gas">) => own.reduce((total, g) => total + g[key], 0);
    return {
      gas,
      gross_t: sum("gross_t"),
      subtracted_t: sum("subtracted_t"),
      t: sum("t"),
      gross_t_co2e: sum("gross_t_co2e"),
      subtracted_t_co2e: sum("subtracted_t_co2e"),
      t_co2e: sum("t_co2e"),
    };
  });
  const total = (key: "gross_t_co2e" | "subtracted_t_co2e" | "t_co2e") => gases.reduce((sum, g) => sum + g[key], 0);
  return {
    balance,
    calculations: rows,
    gases,
    gross_t_co2e: total("gross_t_co2e"),
    subtracted_t_co2e: total("subtracted_t_co2e"),
    t_co2e: total("t_co2e"),
  };
}

/** D21: the 296-FZ reporting threshold (art. 14 parts 2–3): 150 000 t CO2-eq for years up to 2023, 50 000 from 2024. */
export function reportingThreshold(year: number): number {
  return year <= 2023 ? 150_000 : 50_000;
}

/** D31: the law the threshold comes from, by reporting year: Decree 355 up to 2023, Decree 1580
 *  (which replaced it from 01.01.2025) for later years. */
export function thresholdBasis(year: number): string {
  const decree =
    year <= 2023 ? "постановление Правительства РФ от 14.03.2022 № 355" : "постановление Правительства РФ от 14.10.2025 № 1580";
  return `296-ФЗ, ст. 14, ч. 2–3; ${decree}`;
}

/** D21: the verdict is the legal entity's, from its whole-year total, also on a facility's
 *  inventory and report; it never says that a site need not report. `format` writes a number. */
export function thresholdVerdict(
  threshold: { limit_t_co2e: number; regulated: boolean; company_t_co2e: number },
  year: number,
  format: (value: number) => string,
  checks: ReadonlyArray<{ code: string }> = [],
): string {
  const total = `Выбросы организации за год — ${format(threshold.company_t_co2e)} т CO2-экв.`;
  const limit = `${format(threshold.limit_t_co2e)} т CO2-экв. (${thresholdBasis(year)})`;
  if (threshold.regulated) return `${total}, не меньше порога ${limit}: организация — регулируемая, отчет о выбросах обязателен`;
  // A year with part of it not covered may yet reach the threshold: no verdict until it is whole.
  if (isIncomplete(checks)) return `Предварительно: данные неполные. ${total}, меньше порога ${limit} — по введенным данным`;
  return `${total}, меньше порога ${limit}: организация не относится к регулируемым по этому порогу`;
}

/** The checks that say the year's data do not cover it whole: a source's periods leave days
 *  uncovered (D19), or a category of last year has no data this year. */
export const COVERAGE_CHECKS: readonly string[] = ["source_period_gap", "missing_since_last_year"];

/** The year's data are not whole (one of COVERAGE_CHECKS stands): its verdict is provisional. */
export const isIncomplete = (checks: ReadonlyArray<{ code: string }>) => checks.some((c) => COVERAGE_CHECKS.includes(c.code));

/** Kinds of a company's facility, as the profile and the report name them. */
export type FacilityKind = "underground_mine" | "open_pit" | "processing_plant" | "other";
export const FACILITY_KINDS: Record<FacilityKind, string> = {
  underground_mine: "Шахта (подземная добыча)",
  open_pit: "Разрез (открытая добыча)",
  processing_plant: "Обогатительная фабрика",
  other: "Другое",
};

/** D25: kinds of a facility's emission points (источники выбросов, точки измерения). The kind
 *  tells the stream of a measured calculation: ventilation air reaches the atmosphere; drained gas
 *  is captured, then vented, flared or used. «Шахта в целом» stands for the whole facility (the
 *  calculations stored before points existed, a blended stream): it covers every point, as an
 *  estimate from production does. */
export type EmissionPointKind =
  | "ventilation_shaft"
  | "drainage_station"
  | "flare"
  | "boiler_engine"
  | "vam_oxidiser"
  | "coal_handling"
  | "other"
  | "whole_mine";
export const EMISSION_POINT_KINDS: Record<EmissionPointKind, string> = {
  ventilation_shaft: "Вентиляционный ствол (вентилятор)",
  drainage_station: "Дегазационная установка",
  flare: "Факельная установка",
  boiler_engine: "Котельная, ГПУ",
  vam_oxidiser: "Установка окисления метана вентиляционной струи",
  coal_handling: "Обработка угля",
  other: "Другое",
  whole_mine: "Шахта в целом",
};
/** A point's kind inside a sentence: the first letter lowered, abbreviations kept («котельная, ГПУ»). */
export const emissionPointKindInText = (kind: EmissionPointKind): string => {
  const label = EMISSION_POINT_KINDS[kind];
  return label.charAt(0).toLowerCase() + label.slice(1);
};
/** The name of the point every facility stored before points existed got, with its calculations. */
export const WHOLE_MINE_POINT_NAME = "Шахта в целом";

/** D25: the measured and destruction types that belong to one emission point of their facility
 *  (formula 3.1, the flares, combustion of drained gas). */
export const POINT_TYPES: readonly string[] = CALCULATION_TYPES.filter((type) => {
  const role = balanceRoleOf(type);
  return role === "mining_measured" || role === "destruction";
});
export const takesPoint = (type: string): boolean => POINT_TYPES.includes(type);

/** D35: the types that burn drained gas (flares, boilers and engines) and may name the drainage
 *  points whose gas they burn. */
export const DESTRUCTION_TYPES: readonly string[] = CALCULATION_TYPES.filter((type) => balanceRoleOf(type) === "destruction");
export const burnsDrainedGas = (type: string): boolean => DESTRUCTION_TYPES.includes(type);
/** D37: the kinds of point that destroy drained gas: where a facility has one, a drainage
 *  measurement's basis defaults to gross. */
export const DESTRUCTION_KINDS: readonly EmissionPointKind[] = ["flare", "boiler_engine"];

export type InventoryRole = "primary" | "alternative";
export const INVENTORY_ROLES: readonly InventoryRole[] = ["primary", "alternative"];
export const INVENTORY_ROLE_LABELS: Record<InventoryRole, string> = {
  primary: "Основной (входит в инвентаризацию)",
  alternative: "Альтернативный (проверка или сценарий, не суммируется)",
};

// ---- review and sign-off of the year (functions/src/domain/inventory/review.ts applies it) ----

export type InventoryStatus = "draft" | "in_review" | "approved" | "submitted" | "accepted" | "refused" | "reworked";

export const STATUS_LABELS: Record<InventoryStatus, string> = {
  draft: "Черновик",
  in_review: "На проверке",
  approved: "Утверждена",
  submitted: "Отчет направлен",
  accepted: "Отчет принят",
  refused: "Отчет возвращен на доработку",
  reworked: "Доработана",
};

/** The statuses of an approved version: the year prints and shows it (D20). */
export const APPROVED_STATUSES: readonly InventoryStatus[] = ["approved", "submitted", "accepted", "reworked"];
/** The statuses in which the year's data may not change (D32): approved ones, and in review, so a
 *  reviewer approves what they reviewed. */
export const FROZEN_STATUSES: readonly InventoryStatus[] = ["in_review", ...APPROVED_STATUSES];

/** The roles of a company's users (the contract's ROLES are these). */
export const MEMBER_ROLES = ["staff", "reviewer", "admin"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
const MEMBERS: readonly MemberRole[] = MEMBER_ROLES;
/** Who reviews: a reviewer or an administrator. */
const REVIEWERS: readonly MemberRole[] = ["reviewer", "admin"];
export const isReviewer = (role: string | null | undefined): boolean => REVIEWERS.some((r) => r === role);

export interface Transition {
  readonly label: string;
  /** How the history records it, in the past tense as a register does («утверждено»). */
  readonly done: string;
  readonly from: readonly InventoryStatus[];
  readonly to: InventoryStatus;
  /** The roles that may take it: any member of the company, or a reviewer (role reviewer or admin). */
  readonly roles: readonly MemberRole[];
  /** Four eyes: never the person who sent the version under review (senderOf). */
  readonly notSender?: true;
  /** Four eyes (D33): never the person who last changed the year's data. */
  readonly notEditor?: true;
  /** Four eyes in rework (D33): taken by a person who changed the data since the year was returned
   *  (or who last changed it), it sends the year for approval (to «На проверке») instead. */
  readonly editorSends?: true;
  /** A reason must be given (returning, reopening, the notice of refusal). */
  readonly reason?: true;
  /** Takes the date of the notice of refusal (a real date of the reporting year or later, not in the future). */
  readonly noticeDate?: true;
  /** Takes the calculations' snapshot (approve, rework done). */
  readonly freezes?: true;
  /** Takes the date the report was sent or accepted (same rule as the notice date). */
  readonly eventDate?: true;
}

export const TRANSITIONS = {
  send_to_review: { label: "Отправить на проверку", done: "направлено на проверку", from: ["draft"], to: "in_review", roles: MEMBERS },
  return_to_draft: {
    label: "Вернуть на доработку",
    done: "возвращено на доработку",
    from: ["in_review"],
    to: "draft",
    roles: REVIEWERS,
    notSender: true,
    reason: true,
  },
  approve: {
    label: "Утвердить",
    done: "утверждено",
    from: ["in_review"],
    to: "approved",
    roles: REVIEWERS,
    notSender: true,
    notEditor: true,
    freezes: true,
  },
  reopen: {
    label: "Открыть для изменений",
    done: "открыто для изменений",
    from: ["approved"],
    to: "draft",
    roles: REVIEWERS,
    notSender: true,
    reason: true,
  },
  submit: {
    label: "Отчет направлен",
    done: "отчет направлен",
    from: ["approved", "reworked"],
    to: "submitted",
    roles: REVIEWERS,
    eventDate: true,
  },
  accept: { label: "Отчет принят", done: "отчет принят", from: ["submitted"], to: "accepted", roles: REVIEWERS, eventDate: true },
  refuse: {
    label: "Отчет возвращен (уведомление)",
    done: "отчет возвращен",
    from: ["submitted"],
    to: "refused",
    roles: REVIEWERS,
    reason: true,
    noticeDate: true,
  },
  rework_done: {
    label: "Доработка завершена",
    done: "доработка завершена",
    from: ["refused"],
    to: "reworked",
    roles: REVIEWERS,
    editorSends: true,
    freezes: true,
  },
} as const satisfies Record<string, Transition>;
export type ReviewAction = keyof typeof TRANSITIONS;
export const REVIEW_ACTIONS = Object.keys(TRANSITIONS) as ReviewAction[];

type HistoryStep = { readonly action: string; readonly by: string; readonly to?: string };

/** What the rules of the table read of a year's review: its status, history and who changed its data. */
export interface ReviewState {
  readonly status: InventoryStatus;
  readonly history: readonly HistoryStep[];
  /** Who last changed the year's data (a calculation, project, facility or the coal processed). */
  readonly last_changed_by?: string;
  /** Who changed the year's data since its last step. */
  readonly changed_by?: readonly string[];
  /** In review: what the version would print differently from what was sent. */
  readonly changed_after_send?: readonly string[];
}

/** Who sent the version now under review or approved: the author of the last step that brought the
 *  year to «На проверке» («Отправить на проверку», or «Доработка завершена» that sent it). */
export function senderOf(history: readonly HistoryStep[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const step = history[i];
    if (step.to === "in_review" || step.action === "send_to_review") return step.by;
  }
  return undefined;
}

/** Whether `email` taking `action` sends the year for approval instead (D33, editorSends). */
export function sendsForApproval(action: ReviewAction, email: string, review: ReviewState): boolean {
  const rule: Transition = TRANSITIONS[action];
  return Boolean(rule.editorSends && (review.last_changed_by === email || review.changed_by?.includes(email)));
}

/** Where `action` by `email` leads: the table's status, or «На проверке» when it sends for approval. */
export const targetOf = (action: ReviewAction, email: string, review: ReviewState): InventoryStatus =>
  sendsForApproval(action, email, review) ? "in_review" : TRANSITIONS[action].to;

/** How the history names a step, in the past tense («утверждено»). */
export function stepDone(step: { readonly action: string; readonly to?: string }): string {
  if (!Object.hasOwn(TRANSITIONS, step.action)) return step.action;
  const rule: Transition = TRANSITIONS[step.action as ReviewAction];
  return rule.editorSends && step.to === "in_review" ? `${rule.done}, направлено на утверждение` : rule.done;
}

/** Why `user` may not take `action` on the year now, in Russian, or undefined when they may: the
 *  server refuses with it, and the screen shows it beside the actions it offers. */
export function actionProblem(
  action: ReviewAction,
  user: { readonly role: MemberRole; readonly email: string },
  review: ReviewState,
): string | undefined {
  const rule: Transition = TRANSITIONS[action];
  if (!rule.from.includes(review.status)) return `невозможно в статусе «${STATUS_LABELS[review.status]}»`;
  if (!rule.roles.includes(user.role)) return "может только проверяющий или администратор";
  if (rule.notSender && senderOf(review.history) === user.email) {
    return "может только другой проверяющий или администратор: вы сами отправили эту версию на проверку";
  }
  if (rule.notEditor && review.last_changed_by === user.email) {
    return "может только другой проверяющий или администратор: данные года последним изменяли вы";
  }
  // Four eyes over every printed field: the version prints only what its sender sent.
  if (action === "approve" && review.changed_after_send?.length) {
    return "невозможно: после отправки на проверку изменено то, что печатает версия. Верните инвентаризацию на доработку, чтобы ее отправили снова";
  }
  return undefined;
}

/** What the user (`email`, `role`) may do with the year, by the table above: the server refuses
 *  everything else, and the screen offers nothing else. */
export function actionsFor(user: { readonly role: MemberRole; readonly email: string }, review: ReviewState): ReviewAction[] {
  return REVIEW_ACTIONS.filter((action) => !actionProblem(action, user, review));
}

/** Why a date a transition takes (yyyy-MM-dd) is refused, or undefined: a real calendar date, of
 *  the reporting year or later, and not after `today` (yyyy-MM-dd). */
export function reviewDateProblem(value: string, year: number, today: string): string | undefined {
  const date = new Date(`${value}T00:00:00Z`);
  // 2026-02-31 is no date: it either fails to parse or comes back as another day.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    return "укажите существующую дату в формате ГГГГ-ММ-ДД";
  }
  if (value < `${year}-01-01`) return `дата не может быть раньше ${year} года, за который отчет`;
  if (value > today) return "дата не может быть в будущем";
  return undefined;
}

// ---- what counts in a total (D18): one rule for the inventory, uncertainty, exports, graphs and statistics ----

/** A calculation as the rule sees it. A calculation stored before roles existed has none (roleOf). */
export interface Countable {
  readonly type: string;
  readonly inventory_role?: InventoryRole | null;
  readonly project: string;
  /** The reporting year of its project. */
  readonly reporting_year: number;
  /** Its project's facility; null: a project without one. */
  readonly facility: string | null;
  /** The calculation itself is archived. */
  readonly archived?: boolean;
  /** Its project is archived. */
  readonly project_archived?: boolean;
}

/** A year's total (of one facility where chosen) or one project's. */
export type CountScope = { readonly year: number; readonly facility?: string | null } | { readonly project: string };

/** Why a calculation is not summed. The first three say it belongs to another total. */
export type LeftOutReason = "other_project" | "other_year" | "other_facility" | "archived" | "analysis" | "alternative" | "duplicate";

/** D43: how a calculation left out of the totals as a standing duplicate is listed. */
export const DUPLICATE_LEFT_OUT = "Не учтен: дубликат — нужно решение";

/** D43: of calculations of one source whose periods overlap, which one a total counts while the
 *  duplicate stands: the higher tier (a measurement over an estimate by a factor), else the one
 *  stored first. Negative: `a` counts before `b`. */
export function duplicateOrder(
  a: { readonly type: string; readonly created_at: string; readonly id: string },
  b: { readonly type: string; readonly created_at: string; readonly id: string },
): number {
  const measured = (c: { readonly type: string }) => (takesPoint(c.type) ? 0 : 1);
  return measured(a) - measured(b) || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
}

export interface LeftOut<T> {
  readonly calculation: T;
  readonly reason: LeftOutReason;
}

export interface Counting<T> {
  readonly counted: T[];
  readonly left_out: LeftOut<T>[];
}

/** Why `calculation` is left out of the total of `scope`, or undefined when it counts. A year counts
 *  the primary calculations of the projects of that reporting year (and facility); one project,
 *  its own primary calculations even when the project itself is archived (it is looked at). The
 *  analysis types (forecast, gap filling, sensitivity, the utilisation choice) have no emission of
 *  their own to sum; alternatives are shown and never summed. */
export function leftOutReason(calculation: Countable, scope: CountScope): LeftOutReason | undefined {
  if ("project" in scope) {
    if (calculation.project !== scope.project) return "other_project";
  } else {
    if (calculation.reporting_year !== scope.year) return "other_year";
    if (scope.facility && calculation.facility !== scope.facility) return "other_facility";
    if (calculation.project_archived) return "archived";
  }
  if (calculation.archived) return "archived";
  const role = roleOf(calculation);
  if (role === null) return "analysis";
  if (role !== "primary") return "alternative";
  return undefined;
}

/** The calculations a total of `scope` sums, and the others with the reason. */
export function whatCounts<T extends Countable>(calculations: readonly T[], scope: CountScope): Counting<T> {
  const counted: T[] = [];
  const left_out: LeftOut<T>[] = [];
  for (const calculation of calculations) {
    const reason = leftOutReason(calculation, scope);
    if (reason) left_out.push({ calculation, reason });
    else counted.push(calculation);
  }
  return { counted, left_out };
}

/** 1 расчет, 2 расчета, 5 расчетов, 11 расчетов, 21 расчет. */
export function russianPlural(n: number, one: string, few: string, many: string): string {
  const tens = Math.abs(n) % 100;
  const units = Math.abs(n) % 10;
  if (tens >= 11 && tens <= 14) return many;
  if (units === 1) return one;
  return units >= 2 && units <= 4 ? few : many;
}

const LEFT_OUT_WORDS: Partial<Record<LeftOutReason, readonly [string, string, string]>> = {
  alternative: ["альтернативный расчет", "альтернативных расчета", "альтернативных расчетов"],
  analysis: ["аналитический расчет", "аналитических расчета", "аналитических расчетов"],
  archived: ["расчет в архиве", "расчета в архиве", "расчетов в архиве"],
  duplicate: ["дубликат (нужно решение)", "дубликата (нужно решение)", "дубликатов (нужно решение)"],
};

/** What a total left out, in Russian («не учтены: 2 альтернативных расчета»), or "" when nothing
 *  that belongs to it was left out. Calculations of another year, facility or project belong to
 *  another total and are not named. */
export function leftOutSummary(leftOut: readonly { readonly reason: LeftOutReason }[]): string {
  const parts: string[] = [];
  let total = 0;
  for (const reason of ["alternative", "analysis", "archived", "duplicate"] as const) {
    const n = leftOut.filter((l) => l.reason === reason).length;
    if (n === 0) continue;
    const [one, few, many] = LEFT_OUT_WORDS[reason]!;
    parts.push(`${n} ${russianPlural(n, one, few, many)}`);
    total += n;
  }
  if (total === 0) return "";
  return `${total === 1 ? "не учтен" : "не учтены"}: ${parts.join(", ")}`;
}

/** The «Учет» of a calculation as lists and exports show it (D18). */
export const INVENTORY_ROLE_SHORT: Record<InventoryRole, string> = { primary: "основной", alternative: "альтернативный" };
