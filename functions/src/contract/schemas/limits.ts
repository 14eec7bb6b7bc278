// The contract's plain limits and labels, free of schemas: the web's forms and checks import them (through
// the index) without loading zod and every route's schemas (web/vite.config.ts, the bundle budget).
// The schema modules re-export them where they were first declared.

/** The most of a forecast's rows one read of the calculation answers (`data`, about 100 KB). */
export const FORECAST_DATA_PAGE_MAX = 1_000;

/** The settings videos, one of each kind, with their titles (docs/user-guide.md, /settings). */
export const MEDIA_KINDS = ["instruction", "presentation"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
export const MEDIA_KIND_LABELS: Record<MediaKind, string> = {
  instruction: "Видеоинструкция",
  presentation: "Презентация",
};

/** A year's comment, and the reason of a review step, at most this many characters. */
/** A password is at least this long (the server refuses a shorter one; the forms say so first). */
export const PASSWORD_MIN_LENGTH = 8;
export const COMMENT_MAX_CHARS = 2000;

export const DOCUMENT_KINDS = {
  law: "Федеральный закон",
  order: "Приказ",
  decree: "Постановление",
  directive: "Распоряжение",
  standard: "Стандарт",
  guidelines: "Руководящие принципы",
  technology: "Технологии утилизации метана",
} as const satisfies Record<string, string>;

export type DocumentKind = keyof typeof DOCUMENT_KINDS;

/** http(s) only: the address becomes a link on /documents. The /admin form checks the same. */
export const SOURCE_URL_PATTERN = /^https?:\/\/[^\s"<>]+$/i;
export const SOURCE_URL_MAX = 1000;

/** The rows a preview shows from the top; the count says how many the file holds. */
export const PREVIEW_ROWS = 20;
/** The refused rows below the first ones a preview shows too, so the bad cell can be shown. */
export const PREVIEW_REFUSED_ROWS = 20;

/** The longest calculation name (the domain trims and checks it again for its other callers). */
export const CALCULATION_NAME_MAX = 255;
/** Why a custom coefficient is what it is (D10): at most this many characters per field. */
export const JUSTIFICATION_MAX = 2000;

export const PROJECT_NAME_MAX = 255;

export const FACILITY_NAME_MAX = 255;
export const FACILITY_LICENCE_MAX = 50;
export const FACILITY_ADDRESS_MAX = 500;

export const POINT_NAME_MAX = 255;
/** A point's instrument and its frequency of measurement, as written. */
export const POINT_NOTE_MAX = 255;

/** A normative document's text fields, at most this many characters each (schemas/document.ts). */
export const DOCUMENT_TEXT_MAX = { title: 500, number: 100, issuer: 300, source_label: 300 } as const;

/** A production calendar's decree (schemas/production-calendar.ts). */
export const CALENDAR_DECREE_MAX = { title: 500, number: 100 } as const;

/** Why a dictionary coefficient changed (routes/admin.ts). */
export const COEFFICIENT_REASON_MAX = 1000;
/** Where a value's uncertainty comes from (schemas/uncertainty.ts). */
export const UNCERTAINTY_SOURCE_MAX = 500;

/** A forecast model version's description (routes/forecast-models.ts). */
export const MODEL_DESCRIPTION_MAX = 500;
