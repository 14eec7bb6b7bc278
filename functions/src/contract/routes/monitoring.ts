// v1/telemetry/, declared: the mine's readings pushed by its gateway or a user (methodology D57) and a
// batch's status. Served by http/monitoring.ts.
import * as z from "zod";
import { LIMITS } from "../schemas/limits";
import {
  batchAcceptedSchema,
  batchListedSchema,
  batchStatusSchema,
  eventAcknowledgeSchema,
  eventsAcknowledgeSchema,
  eventListQuerySchema,
  eventListSchema,
  eventSchema,
  liveBindBodySchema,
  liveBindingSchema,
  liveChartSchema,
  liveViewSchema,
  schemeSchema,
  offerAcceptSchema,
  offerSchema,
  pointChannelsSchema,
  readingsBodySchema,
  reconciliationBodySchema,
  reconciliationQuerySchema,
  reconciliationSchema,
  shiftReportQuerySchema,
  readingsFileBodySchema,
} from "../schemas/monitoring";
import { uploadGrantSchema } from "../schemas/answers";
import {
  gassingConfirmSchema,
  gassingListQuerySchema,
  gassingListSchema,
  gassingRegisterSchema,
  gassingSchema,
  journalQuerySchema,
  journalSchema,
} from "../schemas/journal";
import { declaredFile } from "./admin";
import { XLSX, access, fileAnswer, inputJsonSchema, json, pathParam, route, userAccess } from "./declare";

/** Of the caller's company, or of the facility the query or the body names (another company's is 404). */
const own = userAccess("monitoring", { scope: "own" });
const facilityInQuery = userAccess("monitoring", { scope: "company", ids: [{ in: "query", name: "facility", object: "facility" }] });
const facilityInBody = userAccess("monitoring", { scope: "company", ids: [{ in: "body", name: "facility", object: "facility" }] });
const facility = pathParam("Facility id");

const push = access("monitoring", "gateway", {
  scope: "company",
  ids: [{ in: "body", name: "facility", object: "facility" }],
});

export const pushReadingsRoute = route(
  push(
    "pushReadings",
    "Push readings of a facility's sensors: stored durably, then applied",
    [400, 404, 415],
    `\`Authorization: Gateway <key>\` (the facility is the key's) or a user's bearer token with \`facility\` in the JSON body or \`?facility=\` for CSV. JSON \`{facility?, readings: [{sensor, t, value}]}\` or \`text/csv\` with the header \`sensor;t;value\`; at most ${LIMITS.monitoring.readingsPerRequest} readings and 1 MB. 202 once the batch is stored: a bad line is refused with its number and reason in the batch's status while the others are kept. An \`Idempotency-Key\` header (the gateway's batch id, 1–200 printable ASCII characters) sent again for the facility within a day with the same readings (each line's sensor, time and value as sent) answers the batch it first made and stores nothing; sent again with other readings it is 422, the detail naming the key and the batch it first made, and nothing is stored.`,
  ),
  {
    post: "/readings",
    cost: "light",
    query: z.object({ facility: z.optional(pathParam("The facility, for a CSV pushed with a user's token")) }),
    // Described, not validated here: the handler reads it line by line, keeping the good lines.
    body: {
      required: true,
      content: { "application/json": { schema: inputJsonSchema(readingsBodySchema) }, "text/csv": { schema: { type: "string" as const } } },
    },
    bodyCap: "readings",
    202: json(batchAcceptedSchema, "The batch is stored and queued"),
  },
);

export const getBatchRoute = route(own("getReadingsBatch", "A pushed batch: its state, its counts and each refused line", [404]), {
  get: "/batches/{batch}",
  cost: "light",
  params: z.object({ batch: pathParam("Batch id") }),
  200: json(batchStatusSchema, "The batch"),
});

export const listBatchesRoute = route(
  facilityInQuery(
    "listReadingsBatches",
    `A facility's batches of readings, pushed and uploaded, newest first (at most ${LIMITS.monitoring.batchesListed}): each one's state, its counts and, set aside, its reason`,
    [400, 404],
  ),
  {
    get: "/batches",
    cost: "light",
    query: z.object({ facility }),
    200: json(z.array(batchListedSchema), "The batches, newest first"),
  },
);

export const listOffersRoute = route(
  facilityInQuery(
    "listMonitoringOffers",
    "Per emission point and month of a year, the measured figures the mine's readings give (D61–D63)",
    [400, 404],
    "Advisory: computed from the mine's АГК readings; a month is offered at 95 % completeness or more, below it only with a reason.",
  ),
  {
    get: "/offers",
    cost: "heavy",
    query: z.object({ facility, year: z.string().regex(/^\d{4}$/, "год в виде ГГГГ") }),
    200: json(z.array(offerSchema), "The offers, by point and month"),
  },
);

export const listPointChannelsRoute = route(
  facilityInQuery(
    "listMonitoringPointChannels",
    "Per emission point the АГК measures, its own channels (those that name it) and what it lacks for a month",
    [400, 404],
    "A point's month on GET offers/ is computed from these channels alone; a point lacking one gets no month.",
  ),
  {
    get: "/offers/channels",
    cost: "light",
    query: z.object({ facility }),
    200: json(z.array(pointChannelsSchema), "The points by name"),
  },
);

export const acceptOffersRoute = route(
  facilityInBody(
    "acceptMonitoringOffers",
    "Accept months of a point into a project as measured calculations «по данным АГК»",
    [400, 404, 409],
  ),
  // Light: bounded by its body (at most LIMITS.monitoring.offerMonths months of one point); a month's claim
  // answers a parallel accept 409 before anything is read (R6).
  { post: "/offers/accept", cost: "light", body: offerAcceptSchema, 201: json(z.array(offerSchema), "The months as accepted") },
);

export const listEventsRoute = route(
  facilityInQuery(
    "listSensorEvents",
    "A facility's monitoring events (D65): threshold events by level, stale channels, forecast events",
    [400, 404],
    `Events overlapping [from, to) (dates at 00:00 on the company's clock or ISO instants; the last 24 h when not given; at most ${LIMITS.monitoring.eventsPeriodDays} days), filtered by working, level, kind and shift number; paged by start (\`limit\` at most and by default ${LIMITS.monitoring.eventsPage}, \`offset\`), count says how many matched. Advisory: protective cut-off stays with the mine's own АГК.`,
  ),
  { get: "/events", cost: "light", query: eventListQuerySchema, 200: json(eventListSchema, "The events, by start") },
);

export const acknowledgeEventRoute = route(
  own("acknowledgeSensorEvent", "Acknowledge a monitoring event with a comment (who and when are kept)", [400, 403, 404, 409]),
  {
    post: "/events/{event}/acknowledge",
    cost: "light",
    params: z.object({ event: pathParam("Event id") }),
    body: eventAcknowledgeSchema,
    200: json(eventSchema, "The event as acknowledged"),
  },
);

export const acknowledgeEventsRoute = route(
  own(
    "acknowledgeSensorEvents",
    "Acknowledge several monitoring events at once with one comment (who and when are kept on each)",
    [400, 403, 404],
    "Each event not yet acknowledged is acknowledged with the comment; one acknowledged before keeps its own acknowledgement and is answered as it is. An id that is none of the company's 404, nothing acknowledged.",
  ),
  {
    post: "/events/acknowledge",
    cost: "light",
    body: eventsAcknowledgeSchema,
    200: json(z.array(eventSchema), "The events as they now are, in the order named"),
  },
);

const ADVISORY = "Advisory: protective cut-off stays with the mine's АГК.";

export const getLiveRoute = route(
  facilityInQuery(
    "getMonitoringLive",
    "A facility's workings now: each methane meter against its levels, the air and drainage flow, staleness and the bound models' forecasts",
    [400, 404],
    `${ADVISORY} Answers an ETag; a request with the same If-None-Match is answered 304 without a body (the AWS screen polls every 15 s).`,
  ),
  {
    get: "/live",
    cost: "light",
    query: z.object({ facility }),
    200: json(liveViewSchema, "The tiles"),
    304: { description: "Not modified since the ETag sent" },
  },
);

export const getSchemeRoute = route(
  facilityInQuery(
    "getMonitoringScheme",
    "D106: each section's meters in airflow order (D103) with their places, values and states (norm, W/A, gassing, questioned, out of verification, silent), the junctions of fresh air and the shearer's run and position",
    [400, 404],
    `${ADVISORY} Read from what is kept (the tiles' heads, the checks, the book's open entries, the week's events): no day of minutes folded.`,
  ),
  {
    get: "/scheme",
    cost: "light",
    query: z.object({ facility }),
    200: json(schemeSchema, "The sections"),
  },
);

export const streamLiveRoute = route(
  facilityInQuery(
    "streamMonitoringLive",
    "The tiles as server-sent events: the current ones at once, then each time an applied batch or a binding changes them",
    [400, 404],
    `${ADVISORY} \`text/event-stream\` on the local host: \`event: live\` with the tiles as JSON (the ETag its id), \`event: heartbeat\` every ${LIMITS.monitoring.liveHeartbeatSeconds} s, \`event: close\` before it ends (after ${LIMITS.monitoring.liveStreamMinutes} min, after \`max_events\` updates, or when the server stops): the page opens it again. In AWS the screen polls the tiles instead (docs/architecture.md).`,
  ),
  {
    get: "/live/stream",
    cost: "light",
    query: z.object({
      facility,
      max_events: z.optional(
        z
          .string()
          .regex(/^\d{1,6}$/, "целое число")
          .meta({ description: `Close after this many updates (at most ${LIMITS.monitoring.liveStreamEvents})` }),
      ),
    }),
    200: { description: "The stream", content: { "text/event-stream": { schema: { type: "string" as const } } } },
  },
);

export const liveChartRoute = route(
  facilityInQuery(
    "getMonitoringLiveChart",
    "A working's last 24 h: its methane meters' minute means with W and A, and the bound models' forecasts with their interval",
    [400, 404],
    `${ADVISORY} Its day of minutes is folded, and the models run, off the request thread in a heavy-work slot (429 with Retry-After when the user's or the company's are taken).`,
  ),
  {
    get: "/live/chart",
    cost: "heavy",
    query: z.object({
      facility,
      working: z.string().max(LIMITS.monitoring.sensorWorking, `не длиннее ${LIMITS.monitoring.sensorWorking} символов`),
    }),
    200: json(liveChartSchema, "The working's chart"),
  },
);

export const listLiveModelsRoute = route(
  facilityInQuery("listMonitoringLiveModels", "The forecast models bound to the facility's workings, per working and horizon", [400, 404]),
  { get: "/live/models", cost: "light", query: z.object({ facility }), 200: json(z.array(liveBindingSchema), "The bindings") },
);

export const bindLiveModelRoute = route(
  facilityInBody(
    "bindMonitoringLiveModel",
    "Bind a forecast model to a working at a horizon (model null: unbind); the tiles' forecaster runs it on each applied batch",
    [400, 403, 404],
    "The model must be the company's own or the platform's, not archived, of that horizon; the meter defaults to the working's first methane meter by code. A reviewer gets 403.",
  ),
  {
    post: "/live/models",
    cost: "light",
    body: liveBindBodySchema,
    200: json(z.array(liveBindingSchema), "The facility's bindings after the change"),
  },
);

export const shiftReportRoute = route(
  facilityInQuery(
    "monitoringShiftReport",
    "A shift's monitoring report of a facility as xlsx or PDF, on the company's clock",
    [400, 404],
    "Per working and methane sensor the completeness, the highest CH4 and the minutes at or above 0,9·W, W and A (D62, D64); the shift's events with their acknowledgements; the forecast events and whether they came true. Advisory: protective cut-off stays with the mine's own АГК.",
  ),
  { get: "/shift-report", cost: "heavy", query: shiftReportQuerySchema, 200: fileAnswer("The report", XLSX, "application/pdf") },
);

export const journalRoute = route(
  facilityInQuery(
    "monitoringJournal",
    "The АГК operator's journal of a company day: per methane sensor the hourly, shift and day means of its valid minute means, and the day's gassings; or the file (?format=xlsx|pdf)",
    [400, 404],
    "Means of the valid minute means (D59, after D58's flags; substituted minutes count in none) of each hour, shift (D64) and the day on the company's clock, null without one; completeness the valid minutes over the day's minutes up to now. The file lays it out as the methodological recommendations' journal, a shift a sheet or page, with the signature lines of the АГК operator, the head of the ВТБ section and the shift head. Advisory: protective cut-off stays with the mine's own АГК.",
  ),
  {
    get: "/journal",
    cost: "heavy",
    query: journalQuerySchema,
    200: {
      description: "The journal, or its file",
      content: { "application/json": { schema: journalSchema }, ...fileAnswer("The file", XLSX, "application/pdf").content },
    },
  },
);

export const listGassingsRoute = route(
  facilityInQuery(
    "listMonitoringGassings",
    "The gassing book («Книга учета загазирований») of a period of company days: the gassings starting in it with their entries; or the book as xlsx or PDF (?format=xlsx|pdf)",
    [400, 404, 429],
    "A gassing opens at the first minute mean at or above the sensor's permissible limit (its alarm level, else its place's) and closes after 2 valid minutes below (end: the first of them); overlapping gassings of two or more sensors of one working are one «общее», else «местное». A closed entry shows the gassing as it was when closed; an entry whose gassing the minutes no longer give is listed from what it kept. People by surname and initials. The file: the book's columns and the signature lines, rendered in a heavy-work slot (429 with Retry-After when the company's are taken). At most 92 days.",
  ),
  {
    get: "/gassings",
    cost: "heavy",
    query: gassingListQuerySchema,
    200: {
      description: "The register, or its file",
      content: { "application/json": { schema: gassingListSchema }, ...fileAnswer("The file", XLSX, "application/pdf").content },
    },
  },
);

export const registerGassingRoute = route(
  own(
    "registerMonitoringGassing",
    "The dispatcher's entry of a gassing in the book: whom they informed, the cause, the type, the losses, who cleared the gas and who investigated, the measures, a comment (who and when are kept); close: true closes it",
    [400, 403, 404, 409],
    "Closing is refused (400, naming them) while any of the four notifications (chief engineer, head of the АБ section, head of the affected section, the territorial Rostekhnadzor body) is unticked, while the gassing lasts, or while the cause, the type or the measures are empty (each named in Russian). A closed entry is not changed again (409). A reviewer gets 403.",
  ),
  {
    post: "/gassings/{gassing}/register",
    cost: "heavy",
    params: z.object({ gassing: pathParam("Gassing id") }),
    body: gassingRegisterSchema,
    200: json(gassingSchema, "The gassing as registered"),
  },
);

export const confirmGassingRoute = route(
  own(
    "confirmMonitoringGassing",
    "Confirm a closed entry of the gassing book as the section's head, the head of the АБ section or the chief engineer",
    [400, 403, 404, 409],
    "Only by a user an administrator gave that duty (else 403); only a closed entry (else 400); each duty once (else 409). Who (surname and initials) and when are kept.",
  ),
  {
    post: "/gassings/{gassing}/confirm",
    // An entry not yet written is looked for in the minutes, as a registration.
    cost: "heavy",
    params: z.object({ gassing: pathParam("Gassing id") }),
    body: gassingConfirmSchema,
    200: json(gassingSchema, "The entry as confirmed"),
  },
);

export const readingsUploadUrlRoute = route(
  facilityInBody(
    "readingsUploadUrl",
    `Where to PUT a dispatch system's export (CSV, ≤ ${LIMITS.monitoring.fileBytes / 1048576} MB: a year of one sensor set) straight to storage`,
    [400, 404, 413, 415, 429],
    `Checks the facility, the declared type (text/csv, else 415) and size (else 413) and answers a URL (an S3 presigned PUT of exactly the declared size in AWS, the API's PUT /api/v1/uploads/ locally) and file_upload, the object's key, which POST v1/telemetry/files/ names. The company's exports uploading or waiting to be applied count against its budget (${LIMITS.monitoring.uploadBudgetBytes / 1048576} MB and ${LIMITS.monitoring.uploadsInFlight} files): past it 429 with Retry-After until the consumer has applied what came before.`,
  ),
  {
    post: "/upload-url",
    cost: "light",
    body: z.object({ facility: readingsFileBodySchema.shape.facility, ...declaredFile }),
    200: json(
      uploadGrantSchema.extend({
        file_upload: z.string().meta({ description: "The uploaded object's key: send it to POST v1/telemetry/files/" }),
      }),
      "The upload URL and the key",
    ),
  },
);

export const importFileRoute = route(
  facilityInBody(
    "importReadingsFile",
    "Feed an uploaded dispatch export to the readings' consumer as one batch",
    [400, 404],
    "The file (CSV in Windows-1251 or UTF-8, «;», times «ДД.ММ.ГГГГ ЧЧ:ММ:СС» on the company's clock or ISO 8601 with a zone; one column per sensor code after the time, or one row per reading «Датчик;Время;Значение») is stored as one batch and answered 202 like a push; its lines are read by the consumer, each bad line refused with its number and reason in the batch's status while the others are kept. A 0-byte file and a header in another encoding are refused at once (400, the line named). Naming the same upload again answers the same batch.",
  ),
  { post: "/files", cost: "light", body: readingsFileBodySchema, 202: json(batchAcceptedSchema, "The file's batch is stored and queued") },
);

const reconciliation = z.object({ id: pathParam("The reconciliation's id") });

export const createReconciliationRoute = route(
  facilityInBody(
    "createReadingsReconciliation",
    "Reconcile the stored readings with an uploaded dispatch export («Сверка с выгрузкой АГК»)",
    [400, 404, 429],
    "The file is sent as for POST v1/telemetry/files/ (POST v1/telemetry/upload-url/, the PUT) and read as that route reads it (CSV in Windows-1251 or UTF-8, «;», a column per sensor or a row per reading), but nothing of it is stored: each sensor's readings are compared with the stored ones between its first and last instant in the file, off the request thread (a job, holding a heavy-work slot of the user and the company). 202 with the reconciliation's id and where to read it. A 0-byte file and an unreadable header are refused at once (400, the line named).",
  ),
  {
    post: "/reconciliations",
    cost: "heavy",
    body: reconciliationBodySchema,
    202: json(z.object({ id: z.string(), status_url: z.string() }), "Queued"),
  },
);

export const getReconciliationRoute = route(
  own(
    "getReadingsReconciliation",
    "A reconciliation: its state and, once done, per sensor and day the readings missing, extra and different",
    [400, 404],
    `The rows of sensor and day a page at a time (\`offset\`, \`limit\` ≤ ${LIMITS.page.max}, ${LIMITS.page.max} without one); \`days_count\` says how many in all.`,
  ),
  {
    get: "/reconciliations/{id}",
    cost: "heavy",
    params: reconciliation,
    query: reconciliationQuerySchema,
    200: json(reconciliationSchema, "The reconciliation"),
  },
);

export const fillReconciliationRoute = route(
  own(
    "fillReadingsReconciliation",
    "«Догрузить недостающие»: one batch of the readings a done reconciliation found missing, made from the file",
    [400, 404],
    `Stored as a pushed batch is and applied by the consumer (its counts in its status), with only the readings still missing: one stored since the reconciliation (the gateway's own) is kept as it is. Asked again, the same batch. 400 when the reconciliation is not done, found nothing missing, everything it found missing has been stored since, or more than ${LIMITS.monitoring.reconciliationFillReadings} (load the file itself then).`,
  ),
  {
    post: "/reconciliations/{id}/fill",
    cost: "heavy",
    params: reconciliation,
    202: json(batchAcceptedSchema, "The batch is stored and queued"),
  },
);

export const reconciliationXlsxRoute = route(
  own("readingsReconciliationXlsx", "A done reconciliation's differences as an xlsx: a row per reading missing, extra or different", [404]),
  { get: "/reconciliations/{id}/xlsx", cost: "heavy", params: reconciliation, 200: fileAnswer("The workbook", XLSX) },
);

export const MONITORING_PUSH_ROUTES = [pushReadingsRoute] as const;
export const MONITORING_ROUTES = [
  getBatchRoute,
  listBatchesRoute,
  listOffersRoute,
  listPointChannelsRoute,
  acceptOffersRoute,
  listEventsRoute,
  acknowledgeEventRoute,
  acknowledgeEventsRoute,
  getLiveRoute,
  getSchemeRoute,
  streamLiveRoute,
  liveChartRoute,
  listLiveModelsRoute,
  bindLiveModelRoute,
  shiftReportRoute,
  journalRoute,
  listGassingsRoute,
  registerGassingRoute,
  confirmGassingRoute,
  readingsUploadUrlRoute,
  importFileRoute,
  createReconciliationRoute,
  getReconciliationRoute,
  fillReconciliationRoute,
  reconciliationXlsxRoute,
] as const;
