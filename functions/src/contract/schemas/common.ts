// Schema pieces shared by the API and the web app. Classic zod: @hono/zod-openapi declares routes with it.
import { MEMBER_ROLES } from "@core/inventory";
import * as z from "zod";
import { ru } from "zod/locales";
import { LIMITS } from "./limits";
export {
  FORECAST_DATA_PAGE_MAX,
  LIMITS,
  MEDIA_KINDS,
  MEDIA_KIND_LABELS,
  PASSWORD_MIN_LENGTH,
  COMMENT_MAX_CHARS,
  type MediaKind,
} from "./limits";

// Validation messages in Russian wherever a schema does not give its own text.
z.config(ru());

/** docs/security.md: the longest id a request may name, in its path, query or body (a uuid has 36
 *  characters, a job's signed id 80): a longer one is no id of ours, and past a storage key's size
 *  limit a lookup would fail instead of finding nothing. */
export const ID_MAX_LENGTH = LIMITS.id;
const TOO_LONG = `идентификатор не длиннее ${ID_MAX_LENGTH} символов`;

/** An id a request names: a string of at most ID_MAX_LENGTH characters. */
export function idString(expected = "ожидается идентификатор") {
  return z.string(expected).max(ID_MAX_LENGTH, TOO_LONG);
}

// Dates and times are read by one reader, schemas/dates.ts: a day the calendar lacks is a 400 at its field.
export { isIsoDate, isoDate } from "./dates";

export function pageParams() {
  return {
    limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(LIMITS.page.max))),
    offset: z.optional(z.coerce.number().check(z.int(), z.gte(0))),
  };
}

/** staff: prepares the company's data; reviewer: a staff member who also approves the year's
 *  inventory (set by admins); admin: a platform operator. */

export const ROLES = MEMBER_ROLES;
export type Role = (typeof ROLES)[number];

export const booleanParam = z.optional(z.enum(["true", "false"]));

/** The name of a company, facility, emission point or project: trimmed, given (`empty` says what to
 *  write, the message of a missing one too), at most `max` characters. */
export const requiredName = (empty: string, max: number) =>
  z.string(empty).check(z.trim(), z.minLength(1, empty), z.maxLength(max, `название не длиннее ${max} символов`));

/** A trimmed text field of at most `max` characters (required: not empty), its messages naming `field`. */
export const textField = (max: number, required = false) =>
  z
    .string("ожидается строка")
    .check(z.trim(), ...(required ? [z.minLength(1, "заполните поле")] : []), z.maxLength(max, `не длиннее ${max} символов`));

/** While a facility's batches taken are not yet read into its events and the gassing book: how many, since
 *  when, and «данные обрабатываются: N мин» (domain/monitoring/ingest/processing.ts). */
export const processingSchema = z
  .nullable(
    z.object({
      batches: z.int().meta({ description: "The facility's batches still queued (of its newest 50)" }),
      since: z.string().meta({ description: "The oldest one's receipt (ISO)" }),
      minutes: z.int().meta({ description: "Whole minutes since then, at least 1" }),
      text: z.string().meta({ description: "«данные обрабатываются: 2 мин»" }),
    }),
  )
  .meta({
    description:
      "Batches of the facility taken and not yet read into its events and the gassing book: the answer may be short of them; null when every one is read",
  });
