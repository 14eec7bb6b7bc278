// D102–D105: readings questioned. A `suspect` event says a meter's readings may not be true — stuck
// (D102), less gas downstream than its air brings (D103), a hand measurement apart from it (D105) — and
// its minutes are «под сомнением» (D94's flag: kept and counted, never substituted, each reader says how
// many). A person answers it with what was done (who, when). The reasons, their words and the rules'
// defaults are here, pure and browser-safe: the server's detector and the web's screens share them.

export type SuspectReason = "stuck" | "airway" | "hand";
export const SUSPECT_REASONS: readonly SuspectReason[] = ["stuck", "airway", "hand"];

/** A reason's words on «События», the journal and the handover. */
export const SUSPECT_REASON_LABELS: Readonly<Record<SuspectReason, string>> = {
  stuck: "показания не меняются",
  airway: "меньше метана, чем приносит воздух",
  hand: "ручной замер расходится с датчиком",
};

/** A suspect event's own part: the reason, its sentence, the other meter of the pair (D103: the upstream
 *  one; null otherwise) and whether it asks for a hand measurement (D103, D105). */
export interface SuspectDetail {
  readonly reason: SuspectReason;
  readonly text: string;
  readonly other_sensor: string | null;
  readonly asks_hand_measurement: boolean;
}

/** What is asked of the person who answers a suspect event: what was done, never only «квитировано». */
export const SUSPECT_ANSWER_REQUIRED = "укажите, что сделано: например, «проверен ШИ-11: 0,62 %, датчик исправен»";

/** D102's defaults [A]: minutes unchanged within one resolution step beside a moving neighbour, and alone. */
export const STUCK_WITH_NEIGHBOUR_MIN = 60;
export const STUCK_ALONE_MIN = 240;
/** D102: a neighbour «moves» by more than this many resolution steps over the same minutes [A]. */
export const STUCK_NEIGHBOUR_STEPS = 5;
/** D102: a gas meter's resolution step by kind, in its unit (methane 0,01 % vol) [A]. */
export const RESOLUTION_STEPS: Readonly<Record<string, number>> = {
  methane: 0.01,
  methane_high: 0.1,
  carbon_monoxide: 1,
  oxygen: 0.1,
  carbon_dioxide: 0.01,
};
/** D103's defaults [A]: the mean's window, the air's transport time, the gap (absolute and share of the
 *  upstream mean) and how long it holds. */
export const AIRWAY_MEAN_MIN = 30;
export const AIRWAY_TRANSPORT_MIN = 10;
export const AIRWAY_GAP_ABS = 0.2;
export const AIRWAY_GAP_SHARE = 0.25;
export const AIRWAY_HOLD_MIN = 60;

/** «показания не меняются 360 мин» */
export const stuckText = (minutes: number) => `${SUSPECT_REASON_LABELS.stuck} ${minutes.toLocaleString("ru-RU")} мин`;
/** «на исходящей меньше метана, чем приносит воздух с ДМ-2: проверьте ручным замером оба датчика» */
export const airwayText = (upstreamCode: string) =>
  `на исходящей меньше метана, чем приносит воздух с ${upstreamCode}: проверьте ручным замером оба датчика`;
