// v1/telemetry/, declared: the mine's readings pushed by its gateway or a user (methodology D57) and a
// batch's status. Served by http/telemetry.ts.
import * as z from "zod";
import { LIMITS } from "../schemas/limits";
import {
  batchAcceptedSchema,
  batchStatusSchema,
  eventAcknowledgeSchema,
  eventListQuerySchema,
  eventListSchema,
  eventSchema,
  offerAcceptSchema,
  offerSchema,
  readingsBodySchema,
} from "../schemas/telemetry";
import { access, inputJsonSchema, json, pathParam, route, userAccess } from "./declare";

const push = access("telemetry", "gateway", {
  scope: "company",
  ids: [{ in: "body", name: "facility", object: "facility" }],
});

export const pushReadingsRoute = route(
  push(
    "pushReadings",
    "Push readings of a facility's sensors: stored durably, then applied",
    [400, 404, 415],
    `\`Authorization: Gateway <key>\` (the facility is the key's) or a user's bearer token with \`facility\` in the JSON body or \`?facility=\` for CSV. JSON \`{facility?, readings: [{sensor, t, value}]}\` or \`text/csv\` with the header \`sensor;t;value\`; at most ${LIMITS.telemetry.readingsPerRequest} readings and 1 MB. 202 once the batch is stored: a bad line is refused with its number and reason in the batch's status while the others are kept.`,
  ),
  {
    post: "/readings",
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

export const getBatchRoute = route(
  userAccess("telemetry", { scope: "own" })("getTelemetryBatch", "A pushed batch: its state, its counts and each refused line", [404]),
  {
    get: "/batches/{batch}",
    params: z.object({ batch: pathParam("Batch id") }),
    200: json(batchStatusSchema, "The batch"),
  },
);

const offersAccess = userAccess("telemetry", { scope: "company", ids: [{ in: "query", name: "facility", object: "facility" }] });
const acceptAccess = userAccess("telemetry", { scope: "company", ids: [{ in: "body", name: "facility", object: "facility" }] });

export const listOffersRoute = route(
  offersAccess(
    "listTelemetryOffers",
    "Per emission point and month of a year, the measured figures the mine's readings give (D61–D63)",
    [400, 404],
    "Advisory: computed from the mine's АГК readings; a month is offered at 95 % completeness or more, below it only with a reason.",
  ),
  {
    get: "/offers",
    query: z.object({ facility: pathParam("Facility id"), year: z.string().regex(/^\d{4}$/, "year: год в виде ГГГГ") }),
    200: json(z.array(offerSchema), "The offers, by point and month"),
  },
);

export const acceptOffersRoute = route(
  acceptAccess(
    "acceptTelemetryOffers",
    "Accept months of a point into a project as measured calculations «по данным АГК»",
    [400, 404, 409],
  ),
  { post: "/offers/accept", body: offerAcceptSchema, 201: json(z.array(offerSchema), "The months as accepted") },
);

export const listEventsRoute = route(
  offersAccess(
    "listTelemetryEvents",
    "A facility's monitoring events (D65): threshold events by level, stale channels, forecast events",
    [400, 404],
    `Events overlapping [from, to) (dates at 00:00 on the company's clock or ISO instants; the last 24 h when not given; at most ${LIMITS.telemetry.eventsPeriodDays} days), filtered by working, level, kind and shift number; at most ${LIMITS.telemetry.eventsListed} listed, count says how many matched. Advisory: protective cut-off stays with the mine's own АГК.`,
  ),
  { get: "/events", query: eventListQuerySchema, 200: json(eventListSchema, "The events, by start") },
);

export const acknowledgeEventRoute = route(
  userAccess("telemetry", { scope: "own" })(
    "acknowledgeTelemetryEvent",
    "Acknowledge a monitoring event with a comment (who and when are kept)",
    [400, 403, 404, 409],
  ),
  {
    post: "/events/{event}/acknowledge",
    params: z.object({ event: pathParam("Event id") }),
    body: eventAcknowledgeSchema,
    200: json(eventSchema, "The event as acknowledged"),
  },
);

export const TELEMETRY_PUSH_ROUTES = [pushReadingsRoute] as const;
export const TELEMETRY_ROUTES = [getBatchRoute, listOffersRoute, acceptOffersRoute, listEventsRoute, acknowledgeEventRoute] as const;
