// Project fields as the API accepts them (docs/api.md, docs/user-guide.md). The web dialog validates with the same rules.
import * as z from "zod";
import type { projectSchema } from "./answers";
import { isoDate, requiredName } from "./common";
import { REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "@core/gwp-in-force";
import { LIMITS, PROJECT_NAME_MAX } from "./limits";
export { PROJECT_NAME_MAX } from "./limits";

const name = requiredName("введите название проекта", PROJECT_NAME_MAX);

const endNotBeforeStart = z.refine<{ start_date?: string; end_date?: string }>(
  (p) => !p.start_date || !p.end_date || p.end_date >= p.start_date,
  { message: "дата окончания раньше даты начала", path: ["end_date"] },
);

const reportingYear = z
  .number("ожидается год, например 2025")
  .check(
    z.int("ожидается год, например 2025"),
    z.gte(REPORTING_YEAR_MIN, `отчетный год не раньше ${REPORTING_YEAR_MIN}`),
    z.lte(REPORTING_YEAR_MAX, `отчетный год не позже ${REPORTING_YEAR_MAX}`),
  );

/** The facility the project belongs to (its id), or null for none. */
const facility = z.nullable(
  z.string("ожидается идентификатор площадки или null").check(z.maxLength(LIMITS.id, "ожидается идентификатор площадки")),
);

/** POST create_project/. company, user and status may be sent (docs/api.md) but are decided by the server. */
export const projectCreateSchema = z
  .object({
    name,
    start_date: isoDate(),
    end_date: isoDate(),
    /** Picks the GWP set in force (methodology D12); default: the end date's year. */
    reporting_year: z.optional(reportingYear),
    facility: z.optional(facility),
    status: z.optional(z.unknown()),
    company: z.optional(z.unknown()),
    user: z.optional(z.unknown()),
  })
  .check(endNotBeforeStart);

/** The fields of a project's answer that no edit changes: the specification's client sends the whole
 *  project back (docs/api.md). The domain refuses only a change of what cannot change. */
const answerOnly = {
  id: z.optional(z.unknown()),
  company: z.optional(z.unknown()),
  user: z.optional(z.unknown()),
  status: z.optional(z.unknown()),
  created_at: z.optional(z.unknown()),
  updated_at: z.optional(z.unknown()),
} satisfies Partial<Record<keyof typeof projectSchema.shape, z.ZodType>>;

const unknownField = (issue: z.core.$ZodRawIssue) => (issue.code === "unrecognized_keys" ? "такого поля нет у проекта" : undefined);

/** PATCH {id}/: the whole project or a part of it; is_deleted/is_active archive or restore. */
export const projectPatchSchema = z
  .strictObject(
    {
      name: z.optional(name),
      start_date: z.optional(isoDate()),
      end_date: z.optional(isoDate()),
      reporting_year: z.optional(reportingYear),
      facility: z.optional(facility),
      is_active: z.optional(z.boolean("ожидается true или false")),
      is_deleted: z.optional(z.boolean("ожидается true или false")),
      version: z.optional(z.number("ожидается целое число").check(z.int("ожидается целое число"))),
      ...answerOnly,
    },
    { error: unknownField },
  )
  .check(endNotBeforeStart);

export type ProjectCreateInput = z.infer<typeof projectCreateSchema>;
export type ProjectPatchInput = z.infer<typeof projectPatchSchema>;

/** A project as the API returns it. */
export type Project = z.output<typeof projectSchema>;
