// A stored monitoring period as the API answers it and as its steps are recorded: shared by the
// computation (periods.ts) and the approval (approvals.ts).
import type { ClimateEvaluation, ClimateInputs } from "@core/climate-project";
import type * as z from "zod";
import type { climatePeriodSchema } from "../../contract/schemas/climate";
import type { ClimatePeriodRecord } from "../../ports";
import type { Actor, Deps } from "../context";
import { personName } from "../person-name";

export type ClimatePeriod = z.output<typeof climatePeriodSchema>;

export const CLIMATE_PERIOD_NOT_FOUND = "Отчетный период не найден";

/** The step of the history a user takes now, named as the register names them. */
export async function stepOf(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  action: ClimatePeriodRecord["history"][number]["action"],
  reason?: string,
) {
  const user = actor.profile ?? (await deps.repos.users.get(actor.company, actor.id));
  const name = user ? personName(user) : "";
  return {
    action,
    by: actor.email,
    ...(name ? { by_name: name } : {}),
    by_role: actor.role,
    at: deps.clock.now().toISOString(),
    ...(reason ? { reason } : {}),
  };
}

/** The period's answer: its record (no storage key) and its figures. */
export function answerOf(record: ClimatePeriodRecord, result: ClimateEvaluation): ClimatePeriod {
  const { blob: _blob, ...kept } = record;
  return { ...result, ...kept } as unknown as ClimatePeriod;
}

/** A period's inputs and figures as computed (its version's blob). */
export async function storedFigures(
  deps: Pick<Deps, "blobs">,
  record: ClimatePeriodRecord,
): Promise<{ inputs: ClimateInputs; result: ClimateEvaluation } | undefined> {
  const stored = await deps.blobs.get(record.blob);
  return stored && (JSON.parse(new TextDecoder().decode(stored.body)) as { inputs: ClimateInputs; result: ClimateEvaluation });
}

/** The calendar days a period's file names: its first day and the last day it
 *  includes — a period [01.06 00:00, 02.06 00:00) is «01.06–01.06», one ending 02.06 06:00 takes 02.06
 *  (yyyy-MM-dd, on the company's clock as the bounds are written). */
export function includedDays(period: { start: string; end: string }): { first: string; last: string } {
  const [date, time = "00:00"] = period.end.split("T");
  if (time !== "00:00") return { first: period.start.slice(0, 10), last: date };
  const [y, m, d] = date.split("-").map(Number);
  return { first: period.start.slice(0, 10), last: new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10) };
}
