// D104–D105's words and ranges the server and the web share (plain data: the web's bundle carries it
// without the schemas): the causes a cut-off not confirmed is answered with, and the hand instruments of
// the ВТБ section with their measuring ranges.
/** D104: the causes a person answers a cut-off not confirmed with. */
export const CUTOFF_CAUSES = ["protection_failed", "not_cut_equipment", "false_reading"] as const;
export type CutoffCause = (typeof CUTOFF_CAUSES)[number];
export const CUTOFF_CAUSE_LABELS: Readonly<Record<CutoffCause, string>> = {
  protection_failed: "защита не сработала",
  not_cut_equipment: "канал работы — не отключаемое оборудование",
  false_reading: "показание датчика ложное",
};

/** D105: the hand instruments of the ВТБ section with their measuring range of methane, % vol. (their
 *  passports' ranges as commonly quoted [Q]: the interferometers ШИ-10 and ШИ-11 0–6 %, ШИ-12 0–100 %). */
export const HAND_INSTRUMENTS = {
  "ШИ-10": { max_pct: 6 },
  "ШИ-11": { max_pct: 6 },
  "ШИ-12": { max_pct: 100 },
} as const;
export type HandInstrument = keyof typeof HAND_INSTRUMENTS;
export const HAND_INSTRUMENT_NAMES = Object.keys(HAND_INSTRUMENTS) as [HandInstrument, ...HandInstrument[]];
