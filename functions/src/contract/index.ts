// The contract between the web app and the server: what the web may know of the server, and the
// only module of functions/ it imports (biome.json). The route types the typed client is built
// from, the answers' and requests' types (z.output / z.input of the schemas the routes validate
// and document with), and the few rules the web's forms check as the server does. Nothing here
// reaches the domain, the adapters or Node (biome.json; tests/integration/boundaries.test.ts).
import type * as z from "zod";
import type {
  adminUserSchema,
  auditEntrySchema,
  requisitesChangeSchema,
  calendarYearSchema,
  companySchema,
  dictionarySchema,
  forecastModelSchema,
  inventoryReviewSchema,
  mediaStatusSchema,
  signedInUserSchema,
  statisticsSchema,
  uncertaintyModelSchema,
  uploadGrantSchema,
} from "./schemas/answers";

export type {
  BalanceRowView,
  CalculationOf,
  CalculationView,
  CoefficientView,
  DictionaryEntry,
  DocumentView,
  DownloadLinkView,
  ExportJobView,
  ForecastCalibrationView,
  ForecastChart,
  ForecastRowsPage,
  ProjectGraphs,
} from "./views";
export type * from "./route-types";
export { MOUNTS, type Mount } from "./mounts";
export type { FieldProblem } from "./field-errors";
export type { Verification } from "../dictionaries/reference-data";

export type { CalculationCreateBody, CalculationPatchBody } from "./schemas/calculation-body";
export { ROLES, type Role } from "./schemas/common";
export {
  COMPANY_NAME_MAX,
  COMPANY_TEXT_MAX,
  KEPT_REQUISITES,
  keptRequisiteProblem,
  REQUISITE_MAX,
  requisiteProblem,
  type OwnCompanyPatchInput,
  type RuledRequisite,
} from "./schemas/company";
export { EVIDENCE_MAX_BYTES, EVIDENCE_MAX_TEXT } from "./schemas/evidence";
export { projectCreateSchema, type Project, type ProjectCreateInput, type ProjectPatchInput } from "./schemas/project";
export type { FacilityCreateInput, FacilityPatchInput, PointCreateInput } from "./schemas/facility";
export type { ClimateDayMinutes } from "./schemas/climate";
export { DISPATCH_TIME_FORMATS, DISPATCH_VALUE_FORMATS } from "./dispatch-formats";
export { LIVE_FEATURE_BY_KIND, LIVE_FEATURE_COLUMNS, LIVE_FEATURE_KINDS, type LiveFeatureColumn } from "./live-features";
// The plain limits and labels, schema-free, so a page that takes one does not load every schema.
export {
  CALCULATION_NAME_MAX,
  CALENDAR_DECREE_MAX,
  COEFFICIENT_REASON_MAX,
  COMMENT_MAX_CHARS,
  DOCUMENT_KINDS,
  DOCUMENT_TEXT_MAX,
  FACILITY_ADDRESS_MAX,
  FACILITY_LICENCE_MAX,
  FACILITY_NAME_MAX,
  FORECAST_DATA_PAGE_MAX,
  GATEWAY_KEY_LABEL_MAX,
  JUSTIFICATION_MAX,
  LIMITS,
  MEDIA_KIND_LABELS,
  MEDIA_KINDS,
  MODEL_DESCRIPTION_MAX,
  PASSWORD_MIN_LENGTH,
  POINT_NAME_MAX,
  POINT_NOTE_MAX,
  PREVIEW_ROWS,
  PROJECT_NAME_MAX,
  SENSOR_CODE_MAX,
  SENSOR_WORKING_MAX,
  SOURCE_URL_MAX,
  SOURCE_URL_PATTERN,
  UNCERTAINTY_SOURCE_MAX,
  type DocumentKind,
  type MediaKind,
} from "./schemas/limits";
export {
  fileSize,
  MAX_FORECAST_UPLOAD_BYTES,
  MAX_FORECAST_UPLOAD_TEXT,
  MAX_TABULAR_UPLOAD_BYTES,
  MAX_TABULAR_UPLOAD_TEXT,
  VIDEO_CONTENT_TYPES,
  type VideoType,
} from "./schemas/uploads";

/** A company as the API answers it. */
export type Company = z.output<typeof companySchema>;
/** The signed-in user with the company's requisites (GET v1/users/get_me/). */
export type SignedInUser = z.output<typeof signedInUserSchema>;
/** A user as /admin sees one: never the password hash. */
export type AdminUser = z.output<typeof adminUserSchema>;
export type AuditEntry = z.output<typeof auditEntrySchema>;
/** One change of the company's requisites or a facility, as its reviewers see it (GET v1/users/company/audit/). */
export type RequisitesChange = z.output<typeof requisitesChangeSchema>;
/** A year of the production calendar: its days off, working weekend days and decree. */
export type CalendarYear = z.output<typeof calendarYearSchema>;
/** One stored version of a forecast model, without its storage key. */
export type ForecastModelVersion = z.output<typeof forecastModelSchema>;
/** A project's calculations as its uncertainty page models them (GET v1/projects/{id}/uncertainty/). */
export type UncertaintyModel = z.output<typeof uncertaintyModelSchema>;
/** The company's figures (GET v1/users/statistics/). */
export type CompanyStatistics = z.output<typeof statisticsSchema>;
/** A year's review and sign-off (D20). */
export type InventoryReview = z.output<typeof inventoryReviewSchema>;
/** A settings video's status. */
export type MediaStatus = z.output<typeof mediaStatusSchema>;
/** A dictionary with its entries (GET v1/dictionary/{name}/). */
export type Dictionary = z.output<typeof dictionarySchema>;
/** Where and how to PUT a file straight to storage, and the token to complete it. */
export type UploadGrant = z.output<typeof uploadGrantSchema>;
/** A calculation upload's dry run (POST v1/{type}/?dry_run=1). */
export type { UploadPreviewView } from "./schemas/upload-preview";
/** the АГК operator's journal of a day, the register of gassings, a gassing's registration. */
export type {
  OperatorJournal,
  GassingRegister,
  GassingRegistrationBody,
  GassingConfirmBody,
  GassingType,
  MethaneLimitRow,
} from "./schemas/journal";
/** a sensor's check (D94) and a facility's or a sensor's list of them. */
export type {
  SensorCheckView,
  SensorCheckList,
  SensorCheckBody,
  CheckIntervalsView,
  CheckIntervalsBody,
  SensorCheckState,
  SensorCheckStates,
  VerificationView,
  VerificationList,
  VerificationBody,
  HandoverView,
  HandoverList,
  HandoverBody,
  JournalSignatures,
} from "./schemas/sensor-checks";
/** D104–D105: the cut-offs not confirmed and the hand measurements. */
export type {
  CutoffView,
  CutoffList,
  HandMeasurementBody,
  HandMeasurementView,
  HandMeasurementList,
} from "./schemas/readings-audit";
export { CUTOFF_CAUSES, CUTOFF_CAUSE_LABELS, HAND_INSTRUMENTS, HAND_INSTRUMENT_NAMES } from "./readings-audit-texts";
export type { CutoffCause, HandInstrument } from "./readings-audit-texts";
/** the duties that confirm an entry of the gassing book (their words: @core/gassing-book). */
export type { Duty } from "@core/gassing-book";
/** what each mine measured against what its inventory estimates (methodology section 14). */
export type { MeasuredVsEstimated } from "./schemas/measured-vs-estimated";
export { MONTHLY_BASIS_TEXT, verdictText } from "./comparison-texts";
