// D94: the words of a methane sensor's maintenance journal the server and the web app both
// write — a check's kind and result, and the duties of the three who sign it (the form «Журнал
// эксплуатации и обслуживания» of the 2006 methodological recommendations on АГК: the АГК operator,
// the АГК electrician, the deputy head of ВТБ for АГК). Pure and browser-safe.
import { DUTIES, DUTY_LABELS } from "./gassing-book";

/** A check's kind: the shift's, a planned one per the mine's schedule, one after a repair. */
export const CHECK_KINDS = ["shift_check", "planned", "after_repair"] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];
export const CHECK_KIND_LABELS: Readonly<Record<CheckKind, string>> = {
  shift_check: "сменная проверка",
  planned: "плановая проверка",
  after_repair: "проверка после ремонта",
};

export const CHECK_RESULTS = ["passed", "failed"] as const;
export type CheckResult = (typeof CHECK_RESULTS)[number];
export const CHECK_RESULT_LABELS: Readonly<Record<CheckResult, string>> = {
  passed: "датчик прошел проверку",
  failed: "датчик не прошел проверку",
};

/** The duties whose holders sign a check, in the form's order. */
export const CHECK_DUTIES = ["agk_operator", "agk_electrician", "deputy_head_agk"] as const;
export type CheckDuty = (typeof CHECK_DUTIES)[number];
export const CHECK_DUTY_LABELS: Readonly<Record<CheckDuty, string>> = {
  agk_operator: "оператор АГК",
  agk_electrician: "электрослесарь АГК",
  deputy_head_agk: "заместитель начальника участка ВТБ по АГК",
};

/** Every duty an administrator gives a user at the mine: the gassing book's and the checks'. */
export const MINE_DUTIES = [...DUTIES, ...CHECK_DUTIES] as const;
export type MineDuty = (typeof MINE_DUTIES)[number];
export const MINE_DUTY_LABELS: Readonly<Record<MineDuty, string>> = { ...DUTY_LABELS, ...CHECK_DUTY_LABELS };

export const isCheckDuty = (duty: string | null | undefined): duty is CheckDuty => CHECK_DUTIES.includes(duty as CheckDuty);

/** the review, D94: the verification records that count — each but one a later record corrects
 *  (`corrects`: a correction replaces the record it names, whatever their days; the corrected one stays
 *  listed as it was written). A record without an id (or written before corrections) counts. */
export function verificationsInForce<T extends { id?: string; corrects?: string | null }>(records: readonly T[]): T[] {
  const corrected = new Set(records.map((r) => r.corrects).filter((id): id is string => Boolean(id)));
  return records.filter((r) => r.id === undefined || !corrected.has(r.id));
}
