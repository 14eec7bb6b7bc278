// What the API and the spreadsheet worker function (lambda/spreadsheets.ts) say to each other in a
// synchronous invoke: small JSON both ways. The API has authenticated the user and sends who they
// are; only the API's role may invoke the worker (infra/lib/stack.ts). Files come back inline,
// base64 (at most INLINE_EXPORT_LIMIT_BYTES, so the answer stays under Lambda's 6 MB), or as a
// presigned download address of an object under exports/. A domain refusal (another company's
// project: 404) comes back as data with its status, so the API answers it as it would itself.
import { ROLES } from "../../contract/schemas/common";
import * as z from "zod/mini";
import type { DomainError } from "../../domain/errors";

const actor = z.object({
  id: z.string(),
  company: z.string().check(z.minLength(1)),
  email: z.string(),
  role: z.enum(ROLES),
});

/** Checked by the worker: a request it cannot read is a fault between the two functions (it fails
 *  the invoke and alarms), never an answer to a user. The format and decimals were validated by
 *  the API's route. */
export const workerRequest = z.discriminatedUnion("op", [
  z.object({
    op: z.literal("export"),
    actor,
    projectId: z.string(),
    format: z.string(),
    detail: z.optional(z.boolean()),
    decimals: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(4))),
  }),
  z.object({ op: z.literal("template"), type: z.string() }),
  // The report passport (export/inventory-report.ts); year and format were validated by the API.
  z.object({
    op: z.literal("inventory_report"),
    actor,
    year: z.number().check(z.int()),
    facility: z.optional(z.string()),
    format: z.enum(["xlsx", "pdf"]),
  }),
]);

export type WorkerRequest = z.infer<typeof workerRequest>;

export type WorkerAnswer =
  | { kind: "body"; fileName: string; contentType: string; base64: string }
  | { kind: "redirect"; url: string; fileName: string }
  | { kind: "error"; status: DomainError["status"]; detail: string; code?: string };

/** The statuses a DomainError may carry; any other in an answer is not believed. */
export const DOMAIN_STATUSES = new Set<number>([400, 401, 403, 404, 409, 413, 415, 429] satisfies DomainError["status"][]);
