// The contract's plain limits and labels, free of schemas: the web's forms and checks import them (through
// the index) without loading zod and every route's schemas (web/vite.config.ts, the bundle budget).
// The schema modules re-export them where they were first declared.

/**
 * Every bound a request, a form or a list keeps, in one table: the routes' schemas and the web's forms
 * and lists read it (the named constants below are its entries under the names the code knew them by),
 * docs/api.md prints it («Limits», a block the docs test holds to this table), and limits.test.ts fails
 * on a bound written as a number in the contract, the handlers or the web instead of read from here.
 */
export const LIMITS = {
  /** The longest id a request may name, in its path, query or body (a uuid has 36 characters, a job's
   *  signed id 80; docs/security.md): facilities, calculations, a comment's target, a project. */
  id: 128,
  /** The years a date or a time of a request may name (schemas/dates.ts): a year outside is a typo (0000,
   *  9999), never a day of a mine's records. */
  dates: { earliestYear: 1900, latestYear: 2100 },
  /** A request body's arrival (the local host; in AWS API Gateway takes the body whole): it comes within
   *  a deadline by its size — `bytesPerSecond` (10 MB in 60 s), never less than `minSeconds` — and a
   *  signed-in user has at most `openPerUser` requests with a body in flight (429 past it): a browser's own
   *  connections to one server, so a page never meets it, a script does. */
  bodies: { bytesPerSecond: 174_763, minSeconds: 10, openPerUser: 6 },
  /** A direct upload's id (a signed token with the file's key in it). */
  uploadId: 8192,
  /** An e-mail: a login, a new user's, the company's and its responsible person's (RFC 5321's 320). */
  email: 320,
  /** A password: at least `min` (the forms say so before the server refuses), at most `max`. */
  password: { min: 8, max: 1024 },
  /** Names, in characters. */
  name: {
    calculation: 255,
    project: 255,
    facility: 255,
    point: 255,
    company: 200,
    person: 150,
    target: 200,
    /** A file's name as sent and as stored beside its file (uploads, evidence, models, documents, media). */
    file: 1000,
    abatement: 255,
    /** A dispatch export a mine drops into the uploads bucket: the last part of its key (Latin letters,
     *  digits, «.», «_», «-»), as S3 and the usual file systems take a name. */
    droppedFile: 255,
    /** A document's number and title as its download's file name begins. */
    documentDownload: 140,
  },
  /** Other texts, in characters. */
  text: {
    comment: 2000,
    justification: 2000,
    companyText: 500,
    facilityLicence: 50,
    facilityAddress: 500,
    pointNote: 255,
    sourceUrl: 1000,
    coefficientReason: 1000,
    uncertaintySource: 500,
    modelDescription: 500,
    projectSearch: 100,
    contentType: 200,
    mediaKind: 50,
    approvedVersion: 8,
    /** A calculation's text input (a series' own texts). */
    calculationText: 100,
    /** What a log line or an error keeps of a far end's answer (a worker's error, an unreadable reply). */
    logExcerpt: 500,
    /** What a shared source's label quotes of a typed value's justification (D107). */
    sharedSourceQuote: 80,
    /** a confirmed edition of the methane limits: its act, its name, an act's point. */
    methaneAct: 500,
    methaneEdition: 200,
    methanePoint: 100,
  },
  /** Page sizes: what a list answers without `limit`, the most it answers, and what each screen shows. */
  page: {
    /** A list route's `limit` at most, and without one (projects, calculations). */
    max: 100,
    default: 10,
    /** A forecast's results table (docs/user-guide.md: 5 rows a page) and a series' table of years. */
    forecastRows: 5,
    /** The most of a forecast's rows one read of the calculation answers (`data`, about 100 KB). */
    forecastData: 1000,
    /** The lists the screens page through. */
    projects: 10,
    calculations: 10,
    inventoryCalculations: 20,
    inventoryDefault: 20,
    comments: 10,
    audit: 20,
    adminList: 10,
    requisitesHistory: 10,
    /** The reference page's categories, and the forecast form's rows typed by hand (docs/user-guide.md: 3 a page). */
    referenceCategories: 4,
    forecastEntry: 3,
    /** The upload preview: the rows from the top, and the refused rows below them it shows too. */
    previewRows: 20,
    previewRefusedRows: 20,
    /** A dispatch file's batch: the refused lines its dialog shows a page. */
    batchRefused: 10,
    /** A climate period's hour table of a device: a day and a night of hours a page. */
    climateHours: 48,
    /** A table of a climate period's report on implementation (the hours of a device, the meters). */
    climateReportRows: 24,
  },
  /** How many of a thing one request may name. */
  count: {
    follow: 200,
    recomputeCalculations: 1000,
    drainagePoints: 50,
    /** Keys a log line names (the count says how many there were). */
    loggedKeys: 100,
  },
  /** A normative document's text fields (schemas/document.ts) and a production calendar's decree. */
  document: { title: 500, number: 100, issuer: 300, source_label: 300 },
  decree: { title: 500, number: 100 },
  /** An abatement assessment (methodology section 11): its streams, the options named per stream,
   *  a stream's code and an option's code, in characters. */
  abatement: { streams: 50, optionsPerStream: 20, streamCode: 64, optionCode: 64, bodyBytes: 640 * 1024 },
  /** The mine's monitoring (methodology D56): a sensor's code as the mine names it («М-12») and its
   *  working, in characters; a facility's sensors and gateway keys, retired and revoked ones too (a large
   *  mine's АГК has a few hundred channels); the register changes kept on a sensor; a key's label;
   *  the largest airway cross-section an anemometer's sensor may name, m². */
  /** D107: a company's own factors kept from typed values (they are never deleted), and an entry's unit. */
  ownFactors: { perCompany: 500, unit: 40 },
  webhooks: {
    url: 2000,
    label: 120,
    perCompany: 10,
    /** Deliveries one log answers, newest first. */
    deliveriesListed: 200,
  },
  monitoring: {
    /** D90: the dated changes a facility's shift calendar keeps. */
    shiftCalendarEntries: 50,
    sensorCode: 40,
    sensorWorking: 255,
    sensorsPerFacility: 1000,
    sensorRevisions: 200,
    gatewayKeysPerFacility: 20,
    gatewayKeyLabel: 120,
    /** A gateway key as presented (x-gateway-key): a longer one is no key and not looked up. */
    gatewayKey: 200,
    /** A push's Idempotency-Key (the gateway's batch id) at most, in characters. */
    idempotencyKey: 200,
    areaM2: 1000,
    /** D103: the largest position on an air path a sensor of the register may take (`airflow_order`). */
    airflowOrder: 999,
    /** Readings one push may carry (and 1 MB, the JSON cap). */
    readingsPerRequest: 10000,
    /** Refused lines a batch's status lists (the count says how many there were). */
    refusedListed: 1000,
    /** A facility's batches its list of loads («Загрузки АГК») answers, newest first. */
    batchesListed: 30,
    /** A reading's time may be at most this many minutes ahead of the server's clock, and at most this
     *  many months before it (a reading decades old costs the consumer a day item per day). */
    futureMinutes: 5,
    pastMonths: 24,
    /** Months one acceptance of offers names (a year's). */
    offerMonths: 12,
    /** D65: the longest period one list of events covers, days. */
    eventsPeriodDays: 93,
    /** The longest period one register of gassings covers, company days. */
    gassingsPeriodDays: 92,
    /** A sensor's gaps one read of a month lists at most (count says how many it has), and the page
     *  «Пропуски и замещения» asks for. */
    gapsListed: 500,
    gapsPage: 50,
    /** Events one page of the list answers, at most and without `limit` (`offset` pages on; count says how
     *  many matched): a page's views and its demo check are bounded, however many are open (a facility of
     *  1 000 silent meters has 1 000 «нет данных»), and a page is what one acknowledgement takes at once. */
    eventsPage: 200,
    /** Events a shift's report (xlsx, PDF) lists at most: a document, not a page. */
    shiftReportEvents: 1000,
    /** How far before a period's start an event (or a gassing, the journal's) still open in it may have started, days. */
    eventsLookbackDays: 7,
    /** the live stream's heartbeat, in seconds, and the longest one stream stays open (the
     *  page opens the next); the updates one stream sends at most when the caller asks for fewer. */
    liveHeartbeatSeconds: 15,
    liveStreamMinutes: 60,
    liveStreamEvents: 100000,
    /** A dispatch export sent straight to storage (POST v1/telemetry/upload-url/): a year of 20
     *  sensors one row per reading is about 330 MB, one column per sensor about 70 MB. */
    fileBytes: 400 * 1024 * 1024,
    /** A line of a dispatch export at most, in bytes: a longer one is refused by its number, never read
     *  whole (a row of 1 000 sensors' values is about 20 KB). */
    lineBytes: 1024 * 1024,
    /** A company's dispatch exports granted and not yet applied (uploading, or stored and queued), in
     *  bytes and in number: a grant past either is refused (429) until the consumer has read what came
     *  before (domain/monitoring/ingest/files.ts). */
    uploadBudgetBytes: 1024 * 1024 * 1024,
    uploadsInFlight: 20,
    /** a reconciliation against a dispatch export (domain/monitoring/ingest/reconciliation.ts)
     *  shows at most this many readings of each sensor-day that differ, and «Догрузить недостающие»
     *  makes one batch of at most this many missing readings (a larger gap is the file's to load). */
    reconciliationExamples: 20,
    reconciliationFillReadings: 200_000,
    /** The rows its xlsx of differences holds at most (the counts say how many there are). */
    reconciliationXlsxRows: 200_000,
    /** The characters a refusal of a dispatch file's line shows at most (it quotes the file's text). */
    refusalShown: 500,
  },
  /** D94, D95: a sensor's check as the «Метан» journal writes it, the mine's intervals of
   *  checks, a sensor's verification (поверка) and a shift handover, in characters and in number. */
  sensorChecks: {
    /** A check's fault, measures and planned work, a handover's remarks. */
    text: 2000,
    referenceInstrument: 200,
    cylinderNumber: 60,
    /** The mine's rules of intervals: how many, the longest «раз в N дней», the document they come from. */
    intervalRules: 50,
    intervalDays: 3650,
    intervalSource: 300,
    /** A verification's type of instrument, its number in the Госреестр СИ, serial and certificate. */
    instrumentType: 120,
    registerNumber: 40,
    serial: 60,
    certificate: 80,
    /** A verification's certificate scan (PDF, PNG or JPEG), in bytes: no more than an evidence file's
     *  (schemas/evidence.ts, EVIDENCE_MAX_BYTES), which the request's body cap and the S3 upload check hold. */
    certificateFileBytes: 10 * 1024 * 1024,
    /** The certificates' scans one company keeps in all, in bytes (409 past it, naming the figures): a
     *  staff member cannot fill the server's disk with them. 200 scans at the largest, ~4 000 of 0,5 MB. */
    certificateScansPerCompanyBytes: 2 * 1024 * 1024 * 1024,
    /** A handover's protections bypassed: how many sensors, and each one's note. */
    bypassedSensors: 100,
    bypassNote: 500,
    /** How far back a sensor's checks are read, days: its latest check for what is due (a rule of more
     *  days finds «проверка не записана»), and a failed one still open for the doubt of its minutes. */
    lookbackDays: 400,
  },
  /** D104–D105 (docs/methodology.md, «Отключение не подтверждено и ручные замеры»): the platform's [A]
   *  defaults of the cut-off audit and of a hand measurement against its fixed meter. */
  readingsAudit: {
    /** D104 [A]: minutes a run channel reads 1 after a meter reached its cut-off setpoint. */
    cutoffRunMinutes: 2,
    /** D105 [A]: the fixed meter's minute compared is within this many minutes of the measurement. */
    handWindowMinutes: 10,
    /** D105 [A]: the meter's permitted error, % vol. abs, below handComparedBelowPct. */
    handPermittedPct: 0.2,
    handComparedBelowPct: 2.5,
    /** A minute's grace for the user's clock: a measurement later than now by more is «время еще не наступило». */
    handFutureGraceMinutes: 1,
  },
  /** Heavy work (domain/heavy-work.ts; docs/security.md, «Heavy work bounded»): what one export or report
   *  passport may hold, from what size it is made as a job where the host runs jobs, what counts as a
   *  heavy upload, and how many heavy operations one user and one company may have in flight. */
  heavy: {
    forecastsPerProject: 10,
    exportCalculations: 20_000,
    detailedXlsxRows: 500_000,
    detailedXlsRows: 100_000,
    passportLines: 20_000,
    jobForecastRows: 100_000,
    jobCalculations: 5_000,
    jobClimatePackMeterHours: 20_000,
    jobPassportLines: { pdf: 100, xlsx: 2_000 },
    uploadBytes: 256 * 1024,
    forecastRows: 1_000,
    perUser: 2,
    perCompany: 4,
  },
  /** Forecasts (domain/forecast): the rows one forecast holds, the fewest a calibration takes, the points
   *  one graph answers, a model's file and all of a company's own models, in bytes; the named features one
   *  model reads beyond x1 … x15 and a name's characters. */
  forecast: {
    rows: 100_000,
    calibrationRowsMin: 50,
    graphPoints: 2_000,
    modelBytes: 20 * 1024 * 1024,
    companyModelBytes: 200 * 1024 * 1024,
    namedFeatures: 8,
    featureName: 100,
  },
  /** A series calculation's rows and its elements' JSON in bytes; the refused cells an upload's preview
   *  lists (the count says how many there were). */
  calculations: { seriesRows: 2_000, elementsBytes: 320 * 1024, previewErrors: 1_000 },
  /** The inventory: the years one trend covers, a year's targets and comments, the calculations a check
   *  names (its list has the rest), a facility's emission points. */
  inventory: { trendYears: 30, targets: 20, commentsPerYear: 1_000, checkNames: 5, pointsPerFacility: 200 },
  /** A climate project (methodology section 13): the devices one evaluation computes, an id or label
   *  it names, the hour blocks a device gives (a leap year's hours at most, one block an hour),
   *  the auxiliary fuels of a period. */
  climate: {
    devices: 10,
    deviceId: 40,
    blockLabel: 40,
    blocksPerDevice: 8_784,
    segmentsPerHour: 60,
    fuels: 20,
    fuelName: 200,
    /** A stored project: its name, its methodology slot's texts and tools (13.1). */
    projectName: 255,
    methodologyText: 500,
    tools: 10,
    /** A stored monitoring period: a leap year's hours at most; the periods a project lists. */
    periodHours: 8_784,
    periods: 200,
    /** Over this many meter-hours (the period's hours × the meters of the project's plan) a period is
     *  computed as a job where the host runs jobs (POST …/periods/ answers 202), within it on the
     *  request (201). Measured on the request at load 17-18 on two cores: a year of three open flares'
     *  nine meters (78 840 meter-hours, 4,7 million readings) took 54,8 s, past API Gateway's 29 s; a
     *  quarter of them (19 872) 14,7 s, about 1 360 meter-hours a second: 20 000 keeps a request near
     *  half of the 29 s. */
    periodJobMeterHours: 20_000,
    /** A verifier's pack of a period: each part at most the registry of carbon units' attachment limit
     *  (100 MB; 10^8 bytes, the lower reading of «МБ»); a larger pack is split into parts (export/climate-pack.ts). */
    packPartBytes: 100_000_000,
    /** A period's КЭП (domain/climate/signatures.ts): the detached signature's file as brought (DER, PEM
     *  or base64), the signatures a period keeps, and one openssl run's time (adapters/signing/gost-cms.ts). */
    signatureBytes: 262_144,
    signaturesPerPeriod: 50,
    signatureCheckMs: 10_000,
    /** The CA certificates the administrator loads as trust anchors of КЭП chains: how many, each file's size. */
    trustRoots: 100,
    trustRootBytes: 65_536,
    /** A name read from a certificate (a signer's CN, O, T…; a CA's subject), in characters: a longer one
     *  is cut with «…» (a 20 KB subject was stored whole). */
    certificateName: 255,
    /** A hand-written field of a period's report on implementation (13.4), in characters. */
    reportText: 10_000,
    /** Why an approval is withdrawn. */
    reason: 2_000,
  },
} as const;

/** An id as storage keys hold it (a company's, a facility's, a user's): the characters an id is made
 *  of, at most LIMITS.id of them; the patterns that read a storage key back are built from it. */
export const STORED_ID = `[A-Za-z0-9_-]{1,${LIMITS.id}}`;
/** A caller's request id (x-request-id) kept in the log: plainly an id, at most LIMITS.id characters. */
export const REQUEST_ID_PATTERN = new RegExp(`^[A-Za-z0-9._:-]{1,${LIMITS.id}}$`);

/** The most of a forecast's rows one read of the calculation answers (`data`, about 100 KB). */
export const FORECAST_DATA_PAGE_MAX = LIMITS.page.forecastData;

/** The settings videos, one of each kind, with their titles (docs/user-guide.md, /settings). */
export const MEDIA_KINDS = ["instruction", "presentation"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
export const MEDIA_KIND_LABELS: Record<MediaKind, string> = {
  instruction: "Видеоинструкция",
  presentation: "Презентация",
};

/** A password is at least this long (the server refuses a shorter one; the forms say so first). */
export const PASSWORD_MIN_LENGTH = LIMITS.password.min;
/** A year's comment, and the reason of a review step, at most this many characters. */
export const COMMENT_MAX_CHARS = LIMITS.text.comment;

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
export const SOURCE_URL_MAX = LIMITS.text.sourceUrl;

/** The rows a preview shows from the top; the count says how many the file holds. */
export const PREVIEW_ROWS = LIMITS.page.previewRows;
/** The refused rows below the first ones a preview shows too, so the bad cell can be shown. */
export const PREVIEW_REFUSED_ROWS = LIMITS.page.previewRefusedRows;

/** The longest calculation name (the domain trims and checks it again for its other callers). */
export const CALCULATION_NAME_MAX = LIMITS.name.calculation;
/** Why a custom coefficient is what it is (D10): at most this many characters per field. */
export const JUSTIFICATION_MAX = LIMITS.text.justification;

export const PROJECT_NAME_MAX = LIMITS.name.project;

export const FACILITY_NAME_MAX = LIMITS.name.facility;
export const FACILITY_LICENCE_MAX = LIMITS.text.facilityLicence;
export const FACILITY_ADDRESS_MAX = LIMITS.text.facilityAddress;

export const POINT_NAME_MAX = LIMITS.name.point;
/** A point's instrument and its frequency of measurement, as written. */
export const POINT_NOTE_MAX = LIMITS.text.pointNote;

/** A normative document's text fields, at most this many characters each (schemas/document.ts). */
export const DOCUMENT_TEXT_MAX = LIMITS.document;

/** A production calendar's decree (schemas/production-calendar.ts). */
export const CALENDAR_DECREE_MAX = LIMITS.decree;

/** Why a dictionary coefficient changed (routes/admin.ts). */
export const COEFFICIENT_REASON_MAX = LIMITS.text.coefficientReason;
/** Where a value's uncertainty comes from (schemas/uncertainty.ts). */
export const UNCERTAINTY_SOURCE_MAX = LIMITS.text.uncertaintySource;

/** A forecast model version's description (routes/forecast-models.ts). */
export const MODEL_DESCRIPTION_MAX = LIMITS.text.modelDescription;

/** An abatement assessment's bounds (methodology section 11; LIMITS.abatement). */
export const ABATEMENT_MAX_STREAMS = LIMITS.abatement.streams;
export const ABATEMENT_MAX_OPTIONS = LIMITS.abatement.optionsPerStream;
export const ABATEMENT_STREAM_CODE_MAX = LIMITS.abatement.streamCode;
export const ABATEMENT_NAME_MAX = LIMITS.name.abatement;
/** An abatement request's JSON body (evaluate, an assessment's create and change R4): what
 *  50 streams need at every bound (605 KB: tests/support/abatement-vectors.ts largestAbatementBody),
 *  below the server's 1 MB. */
export const ABATEMENT_MAX_BODY_BYTES = LIMITS.abatement.bodyBytes;

/** D56: a sensor's code and working, a facility's sensors and gateway keys (LIMITS.monitoring). */
export const SENSOR_CODE_MAX = LIMITS.monitoring.sensorCode;
export const SENSOR_WORKING_MAX = LIMITS.monitoring.sensorWorking;
export const MAX_SENSORS_PER_FACILITY = LIMITS.monitoring.sensorsPerFacility;
export const MAX_SENSOR_REVISIONS = LIMITS.monitoring.sensorRevisions;
export const MAX_GATEWAY_KEYS_PER_FACILITY = LIMITS.monitoring.gatewayKeysPerFacility;
export const GATEWAY_KEY_LABEL_MAX = LIMITS.monitoring.gatewayKeyLabel;
