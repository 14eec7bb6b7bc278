// D20: an approved year is a snapshot. Approving (or finishing the rework) stores version n of the
// whole inventory as it stands — lines, the calculations it lists with their inputs and results,
// coefficients, GWP, totals, checks, who and when — as canonical JSON (RFC 8785, D34) in
// object storage under the company, written once; its SHA-256 and the figures the version list
// shows go into a small item of their own. The calculations a version counts live in the snapshot,
// not in the year's review item, so a year of any size can be approved. Reports of an approved
// year print the snapshot; version n+1 says what changed against version n.
import { createHash } from "node:crypto";
import { senderOf } from "@core/inventory";
import type { Actor, Deps } from "../context";
import { NotFound } from "../errors";
import type { Inventory, InventoryCalculation } from "./types";
import type { StoredCalculation, Company, EmissionPoint, Facility, InventoryReview, InventoryVersion } from "../../ports";
import type * as z from "zod";
import type { inventorySnapshotSchema, versionSummarySchema } from "../../contract/routes/inventory";

/** A line of a snapshot: the inventory's row of a calculation with what it was computed from. */
export interface SnapshotLine extends InventoryCalculation {
  version: number;
  inputs: StoredCalculation["inputs"];
  results: StoredCalculation["results"];
  methodology_version: string;
}

/** The year's inventory as a version stores it (the live review and the other years left out), with
 *  the activity data entered beside the calculations (8.1: coal processed per facility). */
export type InventoryState = Omit<Inventory, "review" | "years" | "calculations"> & {
  calculations: SnapshotLine[];
  coal_processed?: InventoryReview["coal_processed"];
};

export interface LineChange {
  id: string;
  name: string;
  project: string;
  /** t CO2-eq the line adds to the total (0 when it does not count). */
  before?: number;
  after?: number;
  /** A side the sums did not count (an alternative, D18): its own t CO2-eq, so a change list says
   *  «не учтен» with the real value, never «0,00». */
  uncounted_before?: number;
  uncounted_after?: number;
}

/** What changed against the previous version: lines added, removed, changed, and the total. */
export interface SnapshotChanges {
  against: number;
  total: { before: number; after: number };
  added: LineChange[];
  removed: LineChange[];
  changed: LineChange[];
  /** A facility's coal processed (8.1) set, changed or cleared; only when one was (t, null: none). */
  coal_processed?: Array<{ facility: string; before: number | null; after: number | null }>;
}

/** D32: the legal entity's requisites and the person responsible as the passport prints them. */
export const ENTITY_FIELDS = [
  "name",
  "ogrn",
  "inn",
  "kpp",
  "okved",
  "postal_address",
  "responsible_name",
  "responsible_position",
  "responsible_phone",
  "responsible_email",
] as const satisfies ReadonlyArray<keyof Company>;
/** D32: what of a facility the passport prints. */
export const FACILITY_FIELDS = ["id", "name", "kind", "licence_number", "address"] as const satisfies ReadonlyArray<keyof Facility>;

/** D32, D25: what of an emission point the passport prints. */
export const POINT_FIELDS = [
  "id",
  "facility",
  "name",
  "kind",
  "instrument",
  "frequency",
  "in_service_from",
  "in_service_to",
] as const satisfies ReadonlyArray<keyof EmissionPoint>;

/** D32: the legal entity and its facilities as they were at approval, under the hash; the date of
 *  signing is the snapshot's approved_at. A passport of the version prints these, whatever the
 *  profile says now. */
export interface SnapshotEntity {
  requisites: Partial<Pick<Company, (typeof ENTITY_FIELDS)[number]>>;
  facilities: Array<Pick<Facility, (typeof FACILITY_FIELDS)[number]>>;
  /** The facilities' emission points with their instruments and frequencies (absent before they were kept). */
  points?: Array<Pick<EmissionPoint, (typeof POINT_FIELDS)[number]>>;
}

/** A stored version: the answer's snapshot (contract/routes/inventory.ts), its year, changes and
 *  legal entity typed as the domain writes them. */
export type InventorySnapshot = Omit<z.output<typeof inventorySnapshotSchema>, "inventory" | "changes" | "legal_entity"> & {
  inventory: InventoryState;
  changes: SnapshotChanges | null;
  /** D32; absent from versions approved before it was kept (their passport prints the profile). */
  legal_entity?: SnapshotEntity;
};

/** D32: the requisites, the person responsible and the facilities to freeze with a version. */
export function entityOf(company: Company, facilities: readonly Facility[], points: readonly EmissionPoint[] = []): SnapshotEntity {
  const requisites: SnapshotEntity["requisites"] = {};
  for (const field of ENTITY_FIELDS) if (company[field] !== undefined) requisites[field] = company[field];
  return {
    requisites,
    facilities: facilities.map((f) => Object.fromEntries(FACILITY_FIELDS.map((k) => [k, f[k]])) as SnapshotEntity["facilities"][number]),
    points: points.map((p) => Object.fromEntries(POINT_FIELDS.map((k) => [k, p[k]])) as NonNullable<SnapshotEntity["points"]>[number]),
  };
}

/** The company and facilities a passport of the snapshot prints: the version's own (D32), over the
 *  live ones for what the version does not hold. */
export function printedEntity(
  snapshot: Pick<InventorySnapshot, "legal_entity"> | undefined,
  company: Company,
  facilities: Facility[],
  points: EmissionPoint[],
): { company: Company; facilities: Facility[]; points: EmissionPoint[] } {
  const frozen = snapshot?.legal_entity;
  if (!frozen) return { company, facilities, points };
  const livePoints = new Map(points.map((p) => [p.id, p]));
  const cleared = Object.fromEntries(ENTITY_FIELDS.map((k) => [k, undefined]));
  const byId = new Map(facilities.map((f) => [f.id, f]));
  return {
    company: { ...company, ...cleared, ...frozen.requisites, name: frozen.requisites.name ?? company.name },
    facilities: frozen.facilities.map((f) => ({ ...(byId.get(f.id) ?? ({ company: company.id } as Facility)), ...f })),
    points: frozen.points
      ? frozen.points.map((p) => ({ ...(livePoints.get(p.id) ?? ({ company: company.id, is_active: true } as EmissionPoint)), ...p }))
      : points,
  };
}

/** The blob of version n: under the company, one key per version, never rewritten. */
export const snapshotKey = (companyId: string, year: number, version: number) => `inventory/${companyId}/${year}/v${version}.json`;

/** RFC 8785 (JCS, D34): JSON.stringify writes strings and numbers as the scheme asks (ECMAScript's
 *  forms); every object's keys are sorted by UTF-16 code units (Array.prototype.sort's order) and
 *  nothing is indented, so the same inventory always hashes the same. docs/api.md states the form;
 *  export/verify/snapshot_hash.py recomputes it with Python's standard library. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

const round9 = (value: number) => Math.round(value * 1e9) / 1e9;

export const sha256Of = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

const lineTotal = (line: SnapshotLine) => (line.counted ? line.gases.reduce((sum, g) => sum + g.t_co2e, 0) : 0);
const describe = (line: SnapshotLine) => ({ id: line.id, name: line.name, project: line.project.name });
const ownTotal = (line: SnapshotLine) => line.gases.reduce((sum, g) => sum + g.t_co2e, 0);
/** The side of a change the sums left out, with the line's own value. */
const uncounted = (line: SnapshotLine, side: "before" | "after") => (line.counted ? {} : { [`uncounted_${side}`]: ownTotal(line) });

export function changesBetween(before: InventorySnapshot, after: InventoryState): SnapshotChanges {
  const old = new Map(before.inventory.calculations.map((line) => [line.id, line]));
  const now = new Map(after.calculations.map((line) => [line.id, line]));
  const changes: SnapshotChanges = {
    against: before.version,
    total: { before: before.inventory.total_t_co2e, after: after.total_t_co2e },
    added: [],
    removed: [],
    changed: [],
  };
  for (const line of after.calculations) {
    const was = old.get(line.id);
    if (!was) changes.added.push({ ...describe(line), after: lineTotal(line), ...uncounted(line, "after") });
    else if (was.version !== line.version || lineTotal(was) !== lineTotal(line) || was.name !== line.name || was.counted !== line.counted) {
      changes.changed.push({
        ...describe(line),
        before: lineTotal(was),
        after: lineTotal(line),
        ...uncounted(was, "before"),
        ...uncounted(line, "after"),
      });
    }
  }
  for (const line of before.inventory.calculations) {
    if (!now.has(line.id)) changes.removed.push({ ...describe(line), before: lineTotal(line), ...uncounted(line, "before") });
  }
  const processed = coalProcessedChanges(before.inventory.coal_processed ?? [], after.coal_processed ?? []);
  if (processed.length > 0) changes.coal_processed = processed;
  return changes;
}

function coalProcessedChanges(before: Array<{ facility: string; t: number }>, after: Array<{ facility: string; t: number }>) {
  const was = new Map(before.map((row) => [row.facility, row.t]));
  const now = new Map(after.map((row) => [row.facility, row.t]));
  return [...new Set([...was.keys(), ...now.keys()])]
    .sort()
    .map((facility) => ({ facility, before: was.get(facility) ?? null, after: now.get(facility) ?? null }))
    .filter((row) => row.before !== row.after);
}

/** Stores the next version of the year from `state` (the review is about to be approved). The
 *  version item is claimed first (a conditional write: of two approvals at once one gets 409), so
 *  only its winner writes the blob, and a key is written once. */
export async function storeVersion(
  deps: Pick<Deps, "repos" | "blobs" | "signer">,
  actor: Actor,
  review: InventoryReview,
  action: string,
  at: string,
  state: InventoryState,
  /** The legal entity the send captured; the live one when the send captured none. */
  entity?: SnapshotEntity,
): Promise<InventoryVersion> {
  const { year } = review;
  const existing = await deps.repos.inventoryVersions.list(actor.company, year);
  // Numbers are never reused: a version whose approval failed may have left its item behind.
  const version = Math.max(0, ...existing.map((v) => v.version)) + 1;
  const [previous, company, facilities, points] = await Promise.all([
    review.snapshot ? loadSnapshot(deps, actor.company, year, review.snapshot.version) : undefined,
    deps.repos.companies.get(actor.company),
    deps.repos.facilities.list(actor.company),
    deps.repos.emissionPoints.listOfCompany(actor.company),
  ]);
  if (!company) throw new NotFound("Организация не найдена");
  const sender = review.status === "in_review" ? senderOf(review.history) : undefined;
  const snapshot: InventorySnapshot = {
    company: actor.company,
    year,
    version,
    previous: previous?.version ?? null,
    action,
    approved_at: at,
    approved_by: actor.email,
    // Four eyes (D33): who sent what was approved, under the hash, for a verifier to compare.
    ...(sender ? { sent_by: sender } : {}),
    inventory: state,
    changes: previous ? changesBetween(previous, state) : null,
    legal_entity: entity ?? entityOf(company, facilities, points),
  };
  const text = canonicalJson(snapshot);
  const sha256 = sha256Of(text);
  const item: InventoryVersion = {
    company: actor.company,
    year,
    version,
    sha256,
    // the platform's signature over the hash, which a verification pack carries.
    signature: await deps.signer.sign(sha256),
    blob_key: snapshotKey(actor.company, year, version),
    action,
    approved_at: at,
    approved_by: actor.email,
    total_t_co2e: state.total_t_co2e,
    facilities: state.facilities.map((f) => ({ id: f.id, t_co2e: f.t_co2e })),
    calculations: state.calculations.length,
    previous: snapshot.previous,
  };
  await deps.repos.inventoryVersions.create(item);
  try {
    await deps.blobs.put(item.blob_key, new TextEncoder().encode(text), "application/json");
  } catch (error) {
    await deps.repos.inventoryVersions.delete(actor.company, year, version);
    throw error;
  }
  return item;
}

/** Undoes storeVersion when the review could not be written (it changed meanwhile): the version
 *  was never approved, so nothing refers to it. */
export async function discardVersion(deps: Pick<Deps, "repos" | "blobs">, version: InventoryVersion): Promise<void> {
  await deps.blobs.delete(version.blob_key);
  await deps.repos.inventoryVersions.delete(version.company, version.year, version.version);
}

/** The stored text of a version, checked against its hash. */
export async function snapshotText(
  deps: Pick<Deps, "repos" | "blobs">,
  companyId: string,
  year: number,
  version: number,
): Promise<{ item: InventoryVersion; text: string }> {
  const item = await deps.repos.inventoryVersions.get(companyId, year, version);
  const blob = item && (await deps.blobs.get(item.blob_key));
  if (!item || !blob) throw new NotFound(`Версия ${version} инвентаризации ${year} года не найдена`);
  const text = new TextDecoder().decode(blob.body);
  if (sha256Of(text) !== item.sha256) throw new Error(`inventory snapshot ${item.blob_key}: SHA-256 does not match its version item`);
  return { item, text };
}

export async function loadSnapshot(deps: Pick<Deps, "repos" | "blobs">, companyId: string, year: number, version: number) {
  return JSON.parse((await snapshotText(deps, companyId, year, version)).text) as InventorySnapshot;
}

/** A version as the list answers it (contract/routes/inventory.ts). */
type VersionListed = z.output<typeof versionSummarySchema>;

/** The year's approved versions, oldest first: those the review's chain of approvals reaches (a
 *  version whose approval failed half-way is left out). */
export async function listVersions(deps: Deps, actor: Actor, year: number): Promise<VersionListed[]> {
  const review = await deps.repos.inventoryReviews.get(actor.company, year);
  return approvedVersionNumbers(deps, actor.company, review ?? { company: actor.company, year });
}

/** The versions the review's chain of approvals reaches, oldest first. */
export async function approvedVersionNumbers(
  deps: Pick<Deps, "repos">,
  companyId: string,
  review: Pick<InventoryReview, "company" | "year" | "snapshot">,
): Promise<VersionListed[]> {
  const items = await deps.repos.inventoryVersions.list(companyId, review.year);
  const byNumber = new Map(items.map((v) => [v.version, v]));
  const chain: VersionListed[] = [];
  for (let n = review?.snapshot?.version ?? null; n !== null; ) {
    const item = byNumber.get(n);
    if (!item) break;
    const { version, sha256, approved_at, approved_by, total_t_co2e, signature } = item;
    chain.unshift({ version, sha256, approved_at, approved_by, total_t_co2e, ...(signature ? { signature } : {}) });
    n = item.previous;
  }
  return chain;
}

/** 404 unless the year's chain of approvals reaches version n: checked before anything is made of
 *  it (a job for its pack or passport among them). */
export async function requireApprovedVersion(deps: Deps, actor: Actor, year: number, version: number): Promise<void> {
  const listed = await listVersions(deps, actor, year);
  if (!listed.some((v) => v.version === version)) throw new NotFound(`Версия ${version} инвентаризации ${year} года не найдена`);
}

/** Version n's snapshot as stored (the text whose SHA-256 the list shows); 404 unless approved. */
export async function getVersionText(deps: Deps, actor: Actor, year: number, version: number): Promise<string> {
  await requireApprovedVersion(deps, actor, year, version);
  return (await snapshotText(deps, actor.company, year, version)).text;
}

/** The snapshot's inventory of one facility (or the whole company): lines, rows and totals of
 *  that facility only, recomputed from the stored lines, each net of what the version's netting
 *  took off it (D26, D40), so the facility's lines add up to its total; the threshold stays the
 *  company's (D21). */
export function scopedState(state: InventoryState, facilityId: string | undefined): InventoryState {
  if (!facilityId) return state;
  const calculations = state.calculations.filter((c) => c.facility === facilityId);
  const ids = new Set(calculations.map((c) => c.id));
  const categories = state.categories.flatMap((row) => {
    const own = calculations.filter((c) => c.counted && row.calculations.includes(c.id) && c.ipcc_code === row.ipcc_code);
    const gases = own.flatMap((c) =>
      c.gases
        .filter((g) => g.gas === row.gas)
        .map((g) => {
          const off = c.netting?.find((n) => n.gas === g.gas);
          return { t: g.t - (off?.t ?? 0), t_co2e: g.t_co2e - (off?.t_co2e ?? 0) };
        }),
    );
    if (gases.length === 0) return [];
    const sum = (key: "t" | "t_co2e") => round9(gases.reduce((total, g) => total + g[key], 0));
    return [{ ...row, t: sum("t"), t_co2e: sum("t_co2e"), calculations: own.map((c) => c.id) }];
  });
  const facilities = state.facilities.filter((f) => f.id === facilityId);
  return {
    ...state,
    facility: facilityId,
    calculations,
    categories,
    facilities,
    ...(state.coal_processed ? { coal_processed: state.coal_processed.filter((row) => row.facility === facilityId) } : {}),
    total_t_co2e: facilities.reduce((sum, f) => sum + f.t_co2e, 0),
    checks: state.checks.filter((check) => check.calculations.length === 0 || check.calculations.some((id) => ids.has(id))),
  };
}
