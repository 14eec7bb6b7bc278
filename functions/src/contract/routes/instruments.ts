// declared: the instruments' own record at a facility — its sensors' checks (D94, the «Метан»
// maintenance journal). Served by http/instruments.ts, mounted beside v1/facilities/.
import * as z from "zod";
import {
  checkIntervalsBodySchema,
  checkIntervalsSchema,
  sensorCheckStatesSchema,
  sensorCheckCreateSchema,
  sensorCheckListSchema,
  sensorCheckPeriodQuery,
  sensorCheckSchema,
  sensorCheckSignSchema,
  verificationCreateSchema,
  verificationListSchema,
  verificationSchema,
  handoverCreateSchema,
  handoverListSchema,
  handoverSchema,
  journalSignaturesQuery,
  journalSignaturesSchema,
  journalSignatureSchema,
  journalSignSchema,
  instrumentFileQuery,
} from "../schemas/sensor-checks";
import { XLSX, binaryFile, fileAnswer, formBody, json, type OwnedId, pathParam, route, userAccess } from "./declare";
import { fileOrLink } from "./export-jobs";

const ownFacility: OwnedId = { in: "path", name: "id", object: "facility" };
const facilityScoped = userAccess("facilities", { scope: "company", ids: [ownFacility] });
const facilityIdParams = z.object({ id: pathParam("Facility id") });
const sensorIdParams = z.object({ id: pathParam("Facility id"), sensor: pathParam("Sensor id") });
const checkIdParams = z.object({ id: pathParam("Facility id"), sensor: pathParam("Sensor id"), check: pathParam("Check id") });

const SIGNERS =
  "Signed by users an administrator gave the duty: the АГК operator (agk_operator), the АГК electrician (agk_electrician), " +
  "the deputy head of ВТБ for АГК (deputy_head_agk), three different people. Reviewers get 403.";

export const listFacilityChecksRoute = route(
  facilityScoped(
    "listFacilitySensorChecks",
    "The checks of the facility's sensors done in a period of company days (D94), newest first",
    [400, 404],
    "At most 92 days; default the 30 days to today. Each with its signatures (surname and initials) and the check that corrects it, if any.",
  ),
  {
    get: "/{id}/sensor-checks",
    cost: "heavy",
    params: facilityIdParams,
    query: sensorCheckPeriodQuery,
    200: json(sensorCheckListSchema, "The checks"),
  },
);

export const listSensorChecksRoute = route(
  facilityScoped("listSensorChecks", "One sensor's checks done in a period of company days (D94), newest first", [400, 404]),
  {
    get: "/{id}/sensors/{sensor}/checks",
    cost: "heavy",
    params: sensorIdParams,
    query: sensorCheckPeriodQuery,
    200: json(sensorCheckListSchema, "The checks"),
  },
);

export const recordSensorCheckRoute = route(
  facilityScoped(
    "recordSensorCheck",
    "Record a sensor's check in the «Метан» journal's columns, signed by its author in their duty (D94)",
    [400, 403, 404, 409],
    "The reading against a reference instrument, the «Контроль» button, the alarm and cut-off by a control mixture within its " +
      "cylinder's validity (an expired cylinder is refused), the fault and measures, planned works. `passed` is refused when a test did " +
      "not work; `failed` needs the fault. Its shift is derived from `at` on the facility's shifts. Never edited after: a correction is a " +
      `new check with \`follows\` (409 when that check is corrected already; of two sent at once one is written). The same check sent again (its time, findings, \`follows\` and author) answers the one written and writes nothing. ${SIGNERS}`,
  ),
  {
    post: "/{id}/sensors/{sensor}/checks",
    cost: "light",
    params: sensorIdParams,
    body: sensorCheckCreateSchema,
    201: json(sensorCheckSchema, "The check"),
  },
);

export const signSensorCheckRoute = route(
  facilityScoped(
    "signSensorCheck",
    "Sign a sensor's check in the signer's duty (D94)",
    [400, 403, 404, 409],
    `409 when that duty has signed, or the signer signed it in another duty; other duties' signatures given at the same moment are all kept. ${SIGNERS}`,
  ),
  {
    post: "/{id}/sensors/{sensor}/checks/{check}/sign",
    cost: "light",
    params: checkIdParams,
    body: sensorCheckSignSchema,
    200: json(sensorCheckSchema, "The check, signed"),
  },
);

export const sensorCheckDueRoute = route(
  facilityScoped(
    "sensorChecksDue",
    "What is due of each sensor's checks now (D94): the last check, the next due, days overdue, a failed latest check",
    [404],
    "Derived from the checks and the mine's intervals (GET …/check-intervals/), never typed; a sensor without a rule has no next_due.",
  ),
  { get: "/{id}/sensor-checks/due", cost: "heavy", params: facilityIdParams, 200: json(sensorCheckStatesSchema, "The sensors in service") },
);

export const getCheckIntervalsRoute = route(
  facilityScoped(
    "getCheckIntervals",
    "The facility's check intervals per sensor kind and role, as the mine's АГК project sets them",
    [404],
  ),
  {
    get: "/{id}/check-intervals",
    cost: "light",
    params: facilityIdParams,
    200: json(checkIntervalsSchema, "The intervals (version 0: never set)"),
  },
);

export const putCheckIntervalsRoute = route(
  facilityScoped(
    "putCheckIntervals",
    "Set the facility's check intervals (the mine's own: no binding interval was found in the acts read)",
    [400, 403, 404, 409],
    "The whole list with the document it comes from and the version read (409 when another changed it). The most specific rule holds: kind and role, kind, role, any. Reviewers get 403.",
  ),
  {
    put: "/{id}/check-intervals",
    cost: "light",
    params: facilityIdParams,
    body: checkIntervalsBodySchema,
    200: json(checkIntervalsSchema, "The intervals, version + 1"),
  },
);

export const listVerificationsRoute = route(
  facilityScoped(
    "listSensorVerifications",
    "A sensor's state verifications (поверка) as a measuring instrument, newest first, with its state today (D94)",
    [404],
  ),
  {
    get: "/{id}/sensors/{sensor}/verifications",
    cost: "light",
    params: sensorIdParams,
    200: json(verificationListSchema, "The verifications"),
  },
);

export const recordVerificationRoute = route(
  facilityScoped(
    "recordSensorVerification",
    "Record a sensor's verification: type, state register number, serial, verified on, valid to, certificate (D94)",
    [400, 403, 404, 409],
    "Never edited: a correction is a newer record naming the one it corrects (corrects), which stays listed and no longer counts; one correction each (409 for a second). The sensor is out of verification from the day after valid_to until a next one, and is named so wherever its state is shown. Reviewers get 403.",
  ),
  {
    post: "/{id}/sensors/{sensor}/verifications",
    cost: "light",
    params: sensorIdParams,
    body: verificationCreateSchema,
    201: json(verificationSchema, "The verification"),
  },
);

const verificationIdParams = z.object({
  id: pathParam("Facility id"),
  sensor: pathParam("Sensor id"),
  verification: pathParam("Verification id"),
});

// The form is read by the handler (readUploadForm), which names what is wrong with it.
export const attachCertificateRoute = route(
  facilityScoped(
    "attachVerificationCertificate",
    "Attach the certificate's scan to a recorded verification (D94): once, marked with who and when",
    [400, 403, 404, 409, 413, 415],
    "Multipart with `file`: PDF, PNG or JPEG, at most 10 MB (LIMITS.sensorChecks.certificateFileBytes), told by its first bytes, " +
      "not its name. An addition to the record: the verification's fields are not changed, and a second file is refused (409; a " +
      "correction is a newer verification). Kept in the blob store as a coefficient's evidence file is. Reviewers get 403.",
  ),
  {
    put: "/{id}/sensors/{sensor}/verifications/{verification}/certificate",
    cost: "light",
    params: verificationIdParams,
    body: formBody({
      type: "object",
      properties: { file: binaryFile("PDF, PNG or JPEG, at most 10 MB").schema },
      required: ["file"],
    }),
    bodyCap: "evidence",
    200: json(verificationSchema, "The verification with its certificate file"),
  },
);

export const downloadCertificateRoute = route(
  facilityScoped("downloadVerificationCertificate", "The certificate's scan of a sensor's verification, as attached", [404]),
  {
    get: "/{id}/sensors/{sensor}/verifications/{verification}/certificate",
    cost: "light",
    params: verificationIdParams,
    200: fileOrLink("The file as attached, or in AWS where to fetch it", "application/pdf", "image/png", "image/jpeg"),
  },
);

const handoverIdParams = z.object({ id: pathParam("Facility id"), handover: pathParam("Handover id") });

export const listHandoversRoute = route(
  facilityScoped(
    "listHandovers",
    "The facility's shift handovers made in a period of company days (D95), newest first",
    [400, 404],
    "At most 92 days; default the 30 days to today.",
  ),
  {
    get: "/{id}/handovers",
    cost: "heavy",
    params: facilityIdParams,
    query: sensorCheckPeriodQuery,
    200: json(handoverListSchema, "The handovers"),
  },
);

export const handOverRoute = route(
  facilityScoped(
    "handOverShift",
    "Hand over the shift now ending, or the one that has just ended (`shift_from`) (D95): the lists of what is open filled now, what people add, signed by the one handing over",
    [400, 403, 404, 409, 429],
    "Filled from the «Мониторинг» view and the checks' states at this moment: meters at or above A now and the book's entries not closed, silent meters and flows, meters at ≥ 0,9·W, checks failed or overdue, sensors out of verification, shown forecasts with P ≥ 0,5. `corrects`: a handover this one corrects (409 when corrected already): the correction keeps its shifts, its time and the lists filled then, takes what people add anew and is signed again by both; the corrected one is kept as it was and is no longer taken over (409). Reviewers get 403.",
  ),
  {
    post: "/{id}/handovers",
    cost: "heavy",
    params: facilityIdParams,
    body: handoverCreateSchema,
    201: json(handoverSchema, "The handover"),
  },
);

export const takeOverRoute = route(
  facilityScoped(
    "takeOverShift",
    "Take over the shift: the second signature (D95); after it the handover never changes",
    [403, 404, 409],
    "409 when taken already, by the one who handed over, or when the handover has been corrected (the correction is taken over). Reviewers get 403.",
  ),
  {
    post: "/{id}/handovers/{handover}/take",
    cost: "light",
    params: handoverIdParams,
    200: json(handoverSchema, "The handover, signed by both"),
  },
);

export const journalSignaturesRoute = route(
  facilityScoped("listJournalSignatures", "The АГК operator's signatures of a company day's shift journals (D95)", [400, 404]),
  {
    get: "/{id}/journal-signatures",
    cost: "light",
    params: facilityIdParams,
    query: journalSignaturesQuery,
    200: json(journalSignaturesSchema, "The signatures"),
  },
);

export const signJournalRoute = route(
  facilityScoped(
    "signShiftJournal",
    "The АГК operator signs a shift's journal — only after the handover into that shift is signed by both (D95)",
    [400, 403, 404, 409],
    "403 without the АГК operator's duty or a reviewer; 400 a shift not begun; 409 no handover into the shift signed by both yet, or the journal signed already.",
  ),
  {
    post: "/{id}/journal-signatures",
    cost: "light",
    params: facilityIdParams,
    body: journalSignSchema,
    201: json(journalSignatureSchema, "The signature"),
  },
);

// ---- item 6: the documents --------------------------------------------------------------------------

const RENDERED =
  "Rendered by the spreadsheet worker in a heavy-work slot of the user and the company (429 with Retry-After when they are taken).";

export const checksFileRoute = route(
  facilityScoped(
    "exportSensorChecks",
    "The «Метан» maintenance journal of a period as xlsx or PDF: the checks in the columns of the form «Журнал эксплуатации и обслуживания» (D94)",
    [400, 404, 429],
    `Oldest first: route (the sensor's working), date, shift and time, the sensor and its place, the reading against the reference instrument, the «Контроль» button, the alarm and cut-off by the control mixture and its cylinder, the result, the fault and measures, planned works, the three signatures with names and times, the corrections; then the signature lines. Figures are numbers in the xlsx. At most 92 days. ${RENDERED}`,
  ),
  {
    get: "/{id}/sensor-checks/export",
    cost: "heavy",
    params: facilityIdParams,
    query: instrumentFileQuery,
    200: fileAnswer("The journal", XLSX, "application/pdf"),
  },
);

export const handoversFileRoute = route(
  facilityScoped(
    "exportHandovers",
    "The shift handovers of a period as xlsx or PDF (D95): their lists, the protections bypassed, the remarks, both signatures with names and times",
    [400, 404, 429],
    `Oldest first; the PDF a page a handover with the signature lines. At most 92 days. ${RENDERED}`,
  ),
  {
    get: "/{id}/handovers/export",
    cost: "heavy",
    params: facilityIdParams,
    query: instrumentFileQuery,
    200: fileAnswer("The handovers", XLSX, "application/pdf"),
  },
);

export const registerFileRoute = route(
  facilityScoped(
    "exportSensorRegister",
    "The register of the facility's sensors in service with their metrology as xlsx (D94)",
    [404, 429],
    `Per sensor: kind, working, place, the latest verification (instrument type, state register number, serial, verified on, valid to, certificate), its state («поверен до …», «вне поверки с …», «поверка не записана»), the mine's check interval, the last check and its result, the next due and the days overdue (a number). ${RENDERED}`,
  ),
  { get: "/{id}/sensor-register/export", cost: "heavy", params: facilityIdParams, 200: fileAnswer("The register", XLSX) },
);

/** Every route above, in the order http/instruments.ts serves them. */
export const INSTRUMENT_ROUTES = [
  listFacilityChecksRoute,
  listSensorChecksRoute,
  recordSensorCheckRoute,
  signSensorCheckRoute,
  sensorCheckDueRoute,
  getCheckIntervalsRoute,
  putCheckIntervalsRoute,
  listVerificationsRoute,
  recordVerificationRoute,
  attachCertificateRoute,
  downloadCertificateRoute,
  listHandoversRoute,
  handOverRoute,
  takeOverRoute,
  journalSignaturesRoute,
  signJournalRoute,
  checksFileRoute,
  handoversFileRoute,
  registerFileRoute,
] as const;
