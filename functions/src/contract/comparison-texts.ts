// methodology D84, D85: how the «Измерено и оценено» screen, its chart and its xlsx name the
// verdict and the estimate's monthly share. Apart from the schemas: no zod to load for two texts.
/** D85: how the screen, its chart and the xlsx name the estimate's monthly share. */
export const MONTHLY_BASIS_TEXT = {
  coal: "доля оценки по добыче угля в месяце",
  days: "доля оценки по дням месяца (добыча по месяцам не известна)",
} as const;

/** D84: how the screen and the xlsx name the verdict; D93: a part-year without one says why. */
export const verdictText = (consistent: boolean | null, reason?: string | null) =>
  consistent === null ? (reason ?? "не с чем сравнить") : consistent ? "согласуются" : "расходятся больше неопределенности";
