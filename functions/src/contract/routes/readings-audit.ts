// D104–D105, declared: readings the platform questions at a facility — the cut-offs not confirmed by the
// run channel of the meter's working («отключение не подтверждено»), answered and confirmed by another,
// and the ВТБ section's hand measurements beside the fixed meters. Served by http/readings-audit.ts,
// mounted beside v1/facilities/.
import * as z from "zod";
import {
  cutoffAnswerSchema,
  cutoffConfirmSchema,
  cutoffFileQuery,
  cutoffListSchema,
  cutoffPeriodQuery,
  cutoffSchema,
  handMeasurementCreateSchema,
  handMeasurementListSchema,
  handMeasurementSchema,
} from "../schemas/readings-audit";
import { XLSX, fileAnswer, json, type OwnedId, pathParam, route, userAccess } from "./declare";

const ownFacility: OwnedId = { in: "path", name: "id", object: "facility" };
const facilityScoped = userAccess("facilities", { scope: "company", ids: [ownFacility] });
const facilityIdParams = z.object({ id: pathParam("Facility id") });
const cutoffIdParams = z.object({ id: pathParam("Facility id"), cutoff: pathParam("Cut-off record id") });
const RENDERED =
  "Rendered by the spreadsheet worker in a heavy-work slot of the user and the company (429 with Retry-After when they are taken).";
const ADVISORY = "Advisory: the mine's own АГК cuts power; the platform audits that it did (D104).";

export const listCutoffsRoute = route(
  facilityScoped(
    "listCutoffs",
    "The facility's cut-offs not confirmed (D104) starting in a period of company days, newest first",
    [400, 404],
    `A methane meter's minute mean at or above its cut-off setpoint (the register's alarm, A) while a run_status channel of the same working read 1 for 2 minutes or more after it: the meter, the setpoint, the minutes, the run channel, the answer and the confirmation. At most 92 days; default the 30 days to today. ${ADVISORY}`,
  ),
  { get: "/{id}/cutoffs", cost: "light", params: facilityIdParams, query: cutoffPeriodQuery, 200: json(cutoffListSchema, "The records") },
);

export const answerCutoffRoute = route(
  facilityScoped(
    "answerCutoff",
    "Answer a cut-off not confirmed with its cause (D104), kept with who and when",
    [400, 403, 404, 409],
    "cause: protection_failed (the protection did not act), not_cut_equipment (the run channel is not the equipment cut), false_reading (the reading was false: `comment` says how that is known, else 400). Once: a second answer 409. Reviewers 403.",
  ),
  {
    post: "/{id}/cutoffs/{cutoff}/answer",
    cost: "light",
    params: cutoffIdParams,
    body: cutoffAnswerSchema,
    200: json(cutoffSchema, "The record"),
  },
);

export const confirmCutoffRoute = route(
  facilityScoped(
    "confirmCutoff",
    "Confirm the answer of a cut-off not confirmed (D104): four eyes, as the gassing book (D89)",
    [400, 403, 404, 409],
    "By a user an administrator gave the duty named (head_section, head_ab, chief_engineer), never the one who answered (403); only an answered record (400); once (409).",
  ),
  {
    post: "/{id}/cutoffs/{cutoff}/confirm",
    cost: "light",
    params: cutoffIdParams,
    body: cutoffConfirmSchema,
    200: json(cutoffSchema, "The record"),
  },
);

export const cutoffsFileRoute = route(
  facilityScoped(
    "exportCutoffs",
    "The cut-offs not confirmed of a period as xlsx or PDF (D104)",
    [400, 404, 429],
    `Oldest first: the meter, its place and working, the setpoint, the peak, start, end and minutes, the run channel and its minutes, the cause with who and when, the confirmation; then the signature lines. At most 92 days. ${RENDERED}`,
  ),
  {
    get: "/{id}/cutoffs/export",
    cost: "heavy",
    params: facilityIdParams,
    query: cutoffFileQuery,
    200: fileAnswer("The records", XLSX, "application/pdf"),
  },
);

export const listHandMeasurementsRoute = route(
  facilityScoped(
    "listHandMeasurements",
    "The ВТБ section's hand measurements made in a period of company days (D105), newest first",
    [400, 404],
    "Each with what the fixed meter read beside it (its minute nearest the measurement within 10 minutes), the difference and the permitted error, and the record that corrects it, if any. At most 92 days; default the 30 days to today.",
  ),
  {
    get: "/{id}/hand-measurements",
    cost: "light",
    params: facilityIdParams,
    query: cutoffPeriodQuery,
    200: json(handMeasurementListSchema, "The measurements"),
  },
);

export const recordHandMeasurementRoute = route(
  facilityScoped(
    "recordHandMeasurement",
    "Record a hand measurement of methane beside a fixed meter (D105); never edited",
    [400, 403, 404, 409],
    "instrument (ШИ-10, ШИ-11 0–6 %; ШИ-12 0–100 %) and its number, place, working (default the meter's), the nearest fixed meter of the facility, value % vol., the time (without a zone on the company's clock). 400 at the field: a value out of the instrument's range, a time to come, a meter of another facility or not a methane meter. A correction is a new record with `corrects` (409 when that one is corrected already). Differing from the meter's minute (within 10 minutes) by more than ±0,2 % abs (the meter below 2,5 %) opens a `suspect` event on the meter (reason hand), its minutes «под сомнением» until its next passed check. Reviewers 403.",
  ),
  {
    post: "/{id}/hand-measurements",
    cost: "light",
    params: facilityIdParams,
    body: handMeasurementCreateSchema,
    201: json(handMeasurementSchema, "The measurement"),
  },
);

export const handMeasurementsFileRoute = route(
  facilityScoped(
    "exportHandMeasurements",
    "The hand measurements of a period as xlsx or PDF (D105)",
    [400, 404, 429],
    `Oldest first: date and time, instrument and number, place, working, the fixed meter and what it read, the difference and the permitted error, who, the corrections; then the signature lines. At most 92 days. ${RENDERED}`,
  ),
  {
    get: "/{id}/hand-measurements/export",
    cost: "heavy",
    params: facilityIdParams,
    query: cutoffFileQuery,
    200: fileAnswer("The journal", XLSX, "application/pdf"),
  },
);

/** Every route above, in the order http/readings-audit.ts serves them. */
export const READINGS_AUDIT_ROUTES = [
  listCutoffsRoute,
  answerCutoffRoute,
  confirmCutoffRoute,
  cutoffsFileRoute,
  listHandMeasurementsRoute,
  recordHandMeasurementRoute,
  handMeasurementsFileRoute,
] as const;
