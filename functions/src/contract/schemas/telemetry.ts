// The mine's readings as a push sends them (POST v1/telemetry/readings/, methodology D57) and a
// batch's status (GET v1/telemetry/batches/{batch}/).
import * as z from "zod";

/** JSON: `{facility?, readings: [{sensor, t, value}]}`; the handler reads it line by line itself, so a
 *  bad reading is refused with its number while the others are kept (domain/telemetry/readings.ts). */
export const readingsBodySchema = z.object({
  facility: z.optional(z.string()).meta({ description: "With a user's token: the facility whose sensors these are" }),
  readings: z.array(
    z.object({
      sensor: z.string().meta({ description: "The sensor's code in the register («М-12»)" }),
      t: z.string().meta({ description: "ISO 8601 instant with its zone («2026-03-01T05:00:00Z», «…+07:00»)" }),
      value: z.number().meta({ description: "In the sensor's unit" }),
    }),
  ),
});

export const batchAcceptedSchema = z.object({
  batch: z.string(),
  status_url: z.string().meta({ description: "GET it with a user's token for the batch's state" }),
});

export const batchStatusSchema = z.object({
  batch: z.string(),
  facility: z.string(),
  state: z.enum(["queued", "done"]).meta({ description: "queued: stored, not yet in the roll-ups; done: every reading applied" }),
  received_at: z.string(),
  lines: z.int().meta({ description: "Readings the request held" }),
  accepted: z.int().meta({ description: "New readings stored" }),
  duplicate: z.int().meta({ description: "The same (sensor, instant, value) stored before: kept once" }),
  corrected: z.int().meta({ description: "A new value for a stored (sensor, instant): the old one kept in the log" }),
  refused: z.array(z.object({ line: z.int(), reason: z.string().meta({ description: "In Russian" }) })),
  readings_sha256: z.string().meta({ description: "SHA-256 of the batch's accepted readings as stored" }),
});
