// Export jobs as a bounded queue (docs/security.md, «Caps, job queue and chart data bounded»): a
// job holds a heavy-work slot of the user's and the company's budget from its request until it ends
// (its thread or the job function gives the slot back, adapters/spreadsheets/jobs.ts), so queued and
// running jobs count and one more is a 429 with Retry-After. An identical request (the same company,
// file and data version) reuses the job that is queued, running or done instead of making another.
import { createHash } from "node:crypto";
import type { Actor, Deps } from "./context";
import { NotFound } from "./errors";
import { newId } from "./ids";
import { JOB_FILE_DAYS, handOnSlot, reserveHeavyWork, type HeavySlot } from "./heavy-work";
import type { ExportJobState, ExportResult, JobTicket } from "../export/formats";

/** What a job renders: a year's report passport or a project's export; or a model it trains on a
 *  history (by the file's SHA-256, domain/forecast/training.ts). */
export type JobRequest =
  | { op: "inventory_report"; year: number; facility?: string; format: string; version?: number }
  | { op: "export"; projectId: string; format: string; detail: boolean; decimals?: number }
  | { op: "climate_pack"; project: string; period: string; partBytes: number }
  /** A climate period computed as a job: `claim`, the token of its hold on the project's periods, makes
   *  each its own (domain/climate/periods.ts). */
  | { op: "climate_period"; project: string; claim: string }
  /** A stored climate period computed again at a version: the same request again while its job waits
   *  or runs is that job. */
  | { op: "climate_period"; project: string; recompute: { period: string; version: number } }
  /** A dispatch export reconciled with the stored readings: each reconciliation its own, by its id.
   *  The op is stored with the job, so it keeps the wing's old word. */
  | { op: "telemetry_reconciliation"; reconciliation: string }
  | {
      op: "train";
      sha256: string;
      file_name: string;
      params: Record<string, number | string>;
      horizon: number;
      description: string;
      activate: boolean;
      features?: string[];
    };

/** What the file is made of, read as it stands now: any write that could change the file changes
 *  this (every calculation write moves the inventory's write counter before it is made; projects,
 *  facilities, the requisites and the year's review are read whole). */
async function dataVersion(deps: Pick<Deps, "repos">, company: string, request: JobRequest): Promise<unknown> {
  // A training reads nothing but its file, which the request names by its hash; a period's job is
  // its own by its hold's token.
  if (request.op === "train" || request.op === "climate_period" || request.op === "telemetry_reconciliation") return null;
  // A climate period's pack is made from the period as stored, its approval, its report (the
  // executor's fields; the project, the requisites and the facilities a period not yet approved
  // prints live) and the executor's КЭП: a change of any of them is another pack (// a done pack was served after the report was edited, its manifest no longer the payload signed).
  if (request.op === "climate_pack") {
    const [period, signatures, hand, project, companyRecord, facilities] = await Promise.all([
      deps.repos.climateProjects.getPeriod(company, request.project, request.period),
      deps.repos.climateSignatures.list(company, request.project, request.period),
      deps.repos.climateProjects.getReportHand(company, request.project, request.period),
      deps.repos.climateProjects.get(company, request.project),
      deps.repos.companies.get(company),
      deps.repos.facilities.list(company),
    ]);
    return {
      period,
      signatures: signatures.map((s) => s.file_sha256),
      report: hand ?? null,
      project: project ?? null,
      company: companyRecord ?? null,
      facilities,
    };
  }
  const writes = deps.repos.statistics.inventoryWrites(company).then((c) => c.writes);
  if (request.op === "export") {
    const project = await deps.repos.projects.get(company, request.projectId);
    return { writes: await writes, project };
  }
  const [companyRecord, review, facilities, projects] = await Promise.all([
    deps.repos.companies.get(company),
    deps.repos.inventoryReviews.get(company, request.year),
    deps.repos.facilities.list(company),
    deps.repos.projects.listAllOfCompany(company),
  ]);
  return {
    writes: await writes,
    company: companyRecord,
    review: review && { status: review.status, version: review.version },
    facilities,
    projects: projects.map((p) => [p.id, p.version]),
  };
}

async function digestOf(deps: Pick<Deps, "repos">, company: string, request: JobRequest): Promise<string> {
  const version = await dataVersion(deps, company, request);
  return createHash("sha256").update(JSON.stringify({ request, version })).digest("base64url");
}

/** The state of `job` while it can still be reused: queued, running or done (its file kept); a
 *  training only while queued or running (trained again, the history makes a new version). */
async function reusable(
  deps: Pick<Deps, "spreadsheets">,
  actor: Actor,
  job: string,
  op: JobRequest["op"],
): Promise<ExportJobState | undefined> {
  if (!deps.spreadsheets.jobStatus) return undefined;
  try {
    const state = await deps.spreadsheets.jobStatus(actor, job);
    return state.state === "failed" || (op === "train" && state.state === "done") ? undefined : state;
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
}

/** The job of `request`: the one an identical request made, while reusable; else a new one,
 *  started by `start` with a heavy-work slot it holds until it ends (429 when none is left):
 *  `taken` when the request took it already (before reading its body), given back unless a new
 *  job holds it. */
export async function exportJob(
  deps: Pick<Deps, "repos" | "spreadsheets" | "clock">,
  actor: Actor,
  request: JobRequest,
  start: (ticket: JobTicket) => Promise<ExportResult>,
  taken?: HeavySlot,
): Promise<ExportJobState> {
  const digest = await digestOf(deps, actor.company, request);
  const held = await deps.repos.exportJobs.holder(actor.company, digest);
  const reused = held && (await reusable(deps, actor, held, request.op));
  if (reused) {
    await taken?.();
    return reused;
  }
  // A heavy route's slot (the contract's cost) is the job's from here: it gives it back where it ends.
  const slot = taken ?? handOnSlot(actor) ?? (await reserveHeavyWork(deps, actor));
  const id = newId();
  // Its files expire with the bucket's lifecycle, and the claim with them.
  const expiresAt = Math.floor(deps.clock.now().getTime() / 1000) + JOB_FILE_DAYS * 24 * 60 * 60;
  let holder: string;
  try {
    holder = await deps.repos.exportJobs.claim(actor.company, digest, id, held, expiresAt);
  } catch (error) {
    await slot();
    throw error;
  }
  if (holder !== id) {
    // An identical request claimed it first: its job is this one's.
    await slot();
    return (await reusable(deps, actor, holder, request.op)) ?? { job: holder, state: "queued", progress: 0 };
  }
  try {
    const result = await start({ id, slots: slot.reservations });
    if (result.kind !== "job") throw new Error(`export job: the worker answered ${result.kind}`);
    return result.job;
  } catch (error) {
    await Promise.all([slot(), deps.repos.exportJobs.release(actor.company, digest, id)]);
    throw error;
  }
}
