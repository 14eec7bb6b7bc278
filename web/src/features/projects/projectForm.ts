// The add/edit dialog checks exactly what the server checks: the zod schema shared with
// functions/src/contract/schemas/project.ts. Its messages read "field: text"; the dialog shows the text
// under the field, and a server 400 detail of the same shape lands under the same field.
import { defaultReportingYear } from "@core/gwp-in-force";
import { projectCreateSchema } from "@server/contract";
import { fieldProblem, type Refusal } from "../../shared/fieldErrors";

export const PROJECT_FIELDS = ["name", "start_date", "end_date", "reporting_year", "facility"] as const;
export type ProjectField = (typeof PROJECT_FIELDS)[number];
export type ProjectFieldErrors = Partial<Record<ProjectField, string>>;

export interface ProjectDraft {
  name?: string;
  start_date?: string;
  end_date?: string;
  /** D12: as typed; blank → the end date's year. */
  reporting_year?: string;
}

export const YEAR_NOT_A_NUMBER = "Введите год четырьмя цифрами, например 2025";

/** The reporting year a draft means: as typed, or (blank) the end date's year; NaN when not a year. */
export function draftReportingYear(draft: ProjectDraft): number | undefined {
  const typed = (draft.reporting_year ?? "").trim();
  if (typed === "") return draft.end_date ? defaultReportingYear(draft.end_date) : undefined;
  return /^\d{4}$/.test(typed) ? Number(typed) : Number.NaN;
}

// A missing date deserves a plainer sentence than the schema's format hint.
const MISSING_DATE: Record<"start_date" | "end_date", string> = {
  start_date: "Укажите дату начала",
  end_date: "Укажите дату окончания",
};

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A refusal's one problem at a field of the form → { field: "name", message: "Введите название проекта" };
 *  otherwise its detail as it is. */
export function splitFieldDetail(refusal: Refusal): { field?: ProjectField; message: string } {
  const problem = fieldProblem(refusal);
  const field = PROJECT_FIELDS.find((candidate) => candidate === problem?.field);
  if (!problem || !field) return { message: refusal.detail };
  return { field, message: capitalize(problem.message) };
}

export function projectFieldErrors(draft: ProjectDraft): ProjectFieldErrors {
  const errors: ProjectFieldErrors = {};
  for (const field of ["start_date", "end_date"] as const) {
    if (!draft[field]) errors[field] = MISSING_DATE[field];
  }
  const year = draftReportingYear(draft);
  if (Number.isNaN(year)) errors.reporting_year = YEAR_NOT_A_NUMBER;
  const parsed = projectCreateSchema.safeParse({
    ...draft,
    name: draft.name ?? "",
    reporting_year: year === undefined || Number.isNaN(year) ? undefined : year,
  });
  if (!parsed.success) {
    // The contract's schema says each problem at its field (the issue's path), the text alone.
    for (const issue of parsed.error.issues) {
      const target = PROJECT_FIELDS.find((candidate) => candidate === issue.path[0]);
      if (target && !errors[target]) errors[target] = capitalize(issue.message);
    }
  }
  return errors;
}
