// A monitoring period approved as a year is approved (methodology D80 with D20, D32–D34):
// four eyes — a reviewer or an administrator other than the person who computed the period approves it
// (the core's periodActionProblem) — and the approval freezes it. Approving stores a snapshot: the
// project's plan, the legal entity's requisites as they are then, the period's inputs (each device's
// hours from the minutes), figures and who computed them, as RFC 8785 canonical JSON with its SHA-256
// on the period. While approved the period answers from that snapshot, recomputing it is 409
// (periods.ts), and readings written later into its hours of its meters only flag it
// («показания изменились после утверждения», flagChangedReadings, a subscriber of «readings written»);
// its figures never move. A reviewer other than that person withdraws the approval with a reason, as
// a year is reopened. Each step is in the period's history and the company's change log.
import { PERIOD_ACTIONS, PERIOD_CHANGED, periodActionProblem } from "@core/climate-approval";
import type { ClimateEvaluation, ClimateInputs } from "@core/climate-project";
import { dateTimeText, zoneOf } from "@core/company-clock";
import type * as z from "zod";
import type { climatePeriodReviewSchema } from "../../contract/schemas/climate";
import type { ClimatePeriodRecord, ClimateProject, ReadingsWritten } from "../../ports";
import { recordChange } from "../audit";
import type { Actor, Deps } from "../context";
import { Conflict, Forbidden, invalidAt, NotFound } from "../errors";
import { liveEntity } from "../inventory/sent";
import { canonicalJson, sha256Of, type SnapshotEntity } from "../inventory/versions";
import { answerOf, CLIMATE_PERIOD_NOT_FOUND, type ClimatePeriod, stepOf, storedFigures } from "./period-record";
import { getPeriodOfProject } from "./projects";
import { missingText, reportMissing } from "./report-missing";
import { registerOfChange } from "../monitoring/ingest/kept-register";

export type PeriodReviewRequest = z.output<typeof climatePeriodReviewSchema>;

/** What an approval froze: the n-th approval of the period, whole. */
export interface ApprovedPeriodSnapshot {
  kind: "climate_period_approval";
  approval: { number: number; at: string; by: string; by_name?: string };
  legal_entity: SnapshotEntity;
  project: ClimateProject;
  /** The period's record as computed (bounds, the executor's figures, totals, who computed it). */
  period: Omit<ClimatePeriodRecord, "blob" | "approval" | "history" | "readings_changed" | "version">;
  inputs: ClimateInputs;
  result: ClimateEvaluation;
}

/** Where the n-th approval of a period keeps its snapshot. */
export const snapshotKey = (p: Pick<ClimatePeriodRecord, "company" | "project" | "id">, number: number) =>
  `climate/${p.company}/${p.project}/${p.id}.approved-${number}.json`;

/** The snapshot the period's approval froze, checked against the SHA-256 the period carries: what an
 *  approved period answers, prints and packs. */
export async function approvedSnapshot(deps: Pick<Deps, "blobs">, record: ClimatePeriodRecord): Promise<ApprovedPeriodSnapshot> {
  if (!record.approval) throw new Error(`climate period ${record.id} is not approved`);
  const stored = await deps.blobs.get(snapshotKey(record, record.approval.number));
  if (!stored) throw new Error(`climate period ${record.id}: the snapshot of approval ${record.approval.number} is missing`);
  const text = new TextDecoder().decode(stored.body);
  if (sha256Of(text) !== record.approval.sha256) {
    throw new Error(`climate period ${record.id}: the snapshot of approval ${record.approval.number} does not match its SHA-256`);
  }
  return JSON.parse(text) as ApprovedPeriodSnapshot;
}

/** POST v1/climate-projects/{id}/periods/{p}/review/: approve the period, or withdraw its approval. */
export async function reviewClimatePeriod(
  deps: Deps,
  actor: Actor,
  projectId: string,
  id: string,
  request: PeriodReviewRequest,
): Promise<ClimatePeriod> {
  const { project, record } = await getPeriodOfProject(deps, actor, projectId, id);
  if (request.version !== record.version) throw new Conflict(PERIOD_CHANGED);
  const rule = PERIOD_ACTIONS[request.action];
  const problem = periodActionProblem(request.action, actor, { approved: record.approval !== null, computed_by: record.computed_by });
  if (problem) throw new (problem.startsWith("невозможно") ? Conflict : Forbidden)(`«${rule.label}» ${problem}`);
  const reason = request.reason?.trim() || undefined;
  if (rule.reason && !reason) throw invalidAt("reason", "укажите причину");
  const stored = await storedFigures(deps, record);
  if (!stored) throw new NotFound(CLIMATE_PERIOD_NOT_FOUND);
  if (request.action === "approve") {
    // D79, D80: not before the executor's part of the report is written.
    const hand = await deps.repos.climateProjects.getReportHand(actor.company, project.id, record.id);
    const zone = zoneOf(await deps.repos.companies.get(actor.company));
    const refusal = missingText(reportMissing(hand?.fields, stored.result.deviations, zone));
    if (refusal) throw new Conflict(refusal);
  }
  const step = await stepOf(deps, actor, request.action, reason);
  let next: ClimatePeriodRecord;
  let result = stored.result;
  if (request.action === "approve") {
    const number = record.history.filter((s) => s.action === "approve").length + 1;
    const approval = { number, at: step.at, by: actor.email, ...(step.by_name ? { by_name: step.by_name } : {}) };
    const { blob: _b, approval: _a, history: _h, readings_changed: _r, version: _v, ...period } = record;
    const snapshot: ApprovedPeriodSnapshot = {
      kind: "climate_period_approval",
      approval,
      legal_entity: await liveEntity(deps, actor.company),
      project,
      period,
      inputs: stored.inputs,
      result: stored.result,
    };
    const text = canonicalJson(snapshot);
    // Written before the period names it; a write refused below leaves it unnamed, and the next
    // approval of that number writes it again.
    await deps.blobs.put(snapshotKey(record, number), new TextEncoder().encode(text), "application/json");
    next = {
      ...record,
      approval: { ...approval, sha256: sha256Of(text) },
      history: [...record.history, step],
      version: record.version + 1,
    };
  } else {
    next = { ...record, approval: null, history: [...record.history, step], version: record.version + 1 };
    // Withdrawn, it answers its live figures again: those of the version it was approved in.
    result = stored.result;
  }
  // One conditional write: a recomputation or another step that wrote first makes this one 409.
  await deps.repos.climateProjects.replacePeriod(next, record.version);
  await logPeriod(deps, actor, project, `climate_period.${request.action}`, record, next, reason);
  return answerOf(next, result);
}

/** What the company's change log keeps of a period's step: its state and figures as read. */
export async function logPeriod(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  project: ClimateProject,
  action: string,
  before: ClimatePeriodRecord,
  after: ClimatePeriodRecord,
  reason?: string,
): Promise<void> {
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const view = (p: ClimatePeriodRecord, why?: string) => ({
    state: p.approval ? "утвержден" : "не утвержден",
    carbon_units: p.carbon_units,
    er_t_co2e: p.totals.er_t_co2e ?? 0,
    computed_by: p.computed_by,
    sha256: p.approval?.sha256 ?? null,
    reason: why ?? null,
  });
  await recordChange(
    deps,
    actor,
    {
      action,
      target_type: "climate_period",
      target_id: after.id,
      target_label: `${project.name}, ${dateTimeText(after.start, zone)} – ${dateTimeText(after.end, zone)}`,
      before: view(before),
      after: view(after, reason),
    },
    actor.company,
  );
}

/** A subscriber of «readings written» (ports/changes.ts): a period of a project of the facility whose meters'
 *  readings in its hours a batch wrote is flagged (when, which meters); its figures never move.
 *  Idempotent: a batch published again writes the same meters, the time of the last write only. */
export async function flagChangedReadings(
  deps: Pick<Deps, "repos" | "clock" | "runtime">,
  change: Pick<ReadingsWritten, "company" | "facility" | "readings" | "register">,
): Promise<ClimatePeriodRecord[]> {
  const projects = (await deps.repos.climateProjects.list(change.company)).filter((p) => p.facility === change.facility);
  if (projects.length === 0) return [];
  const codes = new Map((await registerOfChange(deps, change)).map((s) => [s.id, s.code]));
  const flagged: ClimatePeriodRecord[] = [];
  for (const project of projects) {
    const planned = new Set(
      [...project.devices.flatMap((d) => Object.values(d.sensors)), project.e_own_sensor].filter((c): c is string => Boolean(c)),
    );
    const written = change.readings.filter((r) => planned.has(codes.get(r.sensor) ?? ""));
    if (written.length === 0) continue;
    for (const period of await deps.repos.climateProjects.listPeriods(change.company, project.id)) {
      const [from, to] = [Date.parse(period.start_utc), Date.parse(period.end_utc)];
      const sensors = written.filter((r) => r.times.some((t) => t >= from && t < to)).map((r) => codes.get(r.sensor) as string);
      if (sensors.length === 0) continue;
      const known = period.readings_changed?.sensors ?? [];
      const all = [...new Set([...known, ...sensors])].sort();
      const next: ClimatePeriodRecord = {
        ...period,
        readings_changed: { at: deps.clock.now().toISOString(), sensors: all },
        version: period.version + 1,
      };
      try {
        await deps.repos.climateProjects.replacePeriod(next, period.version);
        flagged.push(next);
      } catch (error) {
        // A step written meanwhile: the batch's subscriber runs again on a retry only, so read it once more.
        if (!(error instanceof Conflict)) throw error;
        const again = await deps.repos.climateProjects.getPeriod(change.company, project.id, period.id);
        if (!again) continue;
        const retried = { ...again, readings_changed: { at: deps.clock.now().toISOString(), sensors: all }, version: again.version + 1 };
        await deps.repos.climateProjects.replacePeriod(retried, again.version);
        flagged.push(retried);
      }
    }
  }
  return flagged;
}
