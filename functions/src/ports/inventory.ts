// A year's inventory: its review and sign-off, comments and approved versions (D20, D32, D33).
import type * as z from "zod";
import type { Order371Category } from "@core/inventory";
import type { inventoryCommentSchema, inventoryReviewSchema, inventorySchema, trendSettingsSchema } from "../contract/schemas/answers";
import type { Page, PageRequest } from "./paging";
import type { VersionSignature } from "./version-signer";

/** The review and sign-off of a company's inventory of one reporting year (issue: inventory). */
/** D20: a year's review and sign-off; version 0: never stored. */
export type InventoryReview = z.output<typeof inventoryReviewSchema>;

type InventoryFigures = z.output<typeof inventorySchema>;

/** D32: an approved version's figures of a year, read from its snapshot (domain/inventory/approved.ts). */
export interface ApprovedFigures {
  version: number;
  categories: InventoryFigures["categories"];
  facilities: InventoryFigures["facilities"];
  total_t_co2e: number;
  /** The legal entity's whole total of the version (D21's threshold is the company's). */
  company_t_co2e: number;
  balance: InventoryFigures["balance"];
  by_category: Partial<Record<Order371Category, number>>;
  /** D41: the GWP set the version's figures use. */
  gwp: InventoryFigures["gwp"];
}

/** A comment on a year's inventory or one of its lines: an item of its own (not inside the review,
 *  whose version it never moves, so no number of comments can block a sign-off). */
export type InventoryComment = z.output<typeof inventoryCommentSchema> & { company: string };

export interface InventoryCommentRepository {
  add(comment: InventoryComment): Promise<void>;
  get(companyId: string, year: number, id: string): Promise<InventoryComment | undefined>;
  /** Newest first. */
  list(companyId: string, year: number, page: PageRequest): Promise<Page<InventoryComment>>;
  count(companyId: string, year: number): Promise<number>;
  /** Refused (NotFound) when there is none. */
  remove(companyId: string, year: number, id: string): Promise<void>;
}

export interface InventoryReviewRepository {
  get(companyId: string, year: number): Promise<InventoryReview | undefined>;
  /** Writes `next` if the stored version is still `expectedVersion` (0: none stored); otherwise Conflict. */
  put(next: InventoryReview, expectedVersion: number): Promise<void>;
  /** D32, D33: a write that may reach the year begins: one conditional update counts it on the
   *  year's review and records `email` as the year's last editor (and among changed_by), creating
   *  the draft review when there is none (its version does not move); false, and nothing written,
   *  while the year is frozen or a freezing step holds its writes (held since after `staleBefore`). */
  beginWrite(companyId: string, year: number, email: string, now: string, staleBefore: string): Promise<boolean>;
  /** The write begun has ended, made or refused. */
  endWrite(companyId: string, year: number): Promise<void>;
  /** A freezing step holds the year's writes (beginWrite refuses) until it writes the review or
   *  releases them; false when another step holds them (since after `staleBefore`). */
  holdWrites(companyId: string, year: number, now: string, staleBefore: string): Promise<boolean>;
  /** The year's writes begun and ended, read consistently, and when the last began. */
  writeCounts(companyId: string, year: number): Promise<{ begun: number; ended: number; last_begun_at?: string }>;
  /** Counts as ended the writes begun (`begun` of them) that never ended: their process is gone. */
  settleAbandoned(companyId: string, year: number, begun: number): Promise<void>;
  releaseWrites(companyId: string, year: number): Promise<void>;
  /** Every year's review of the company (an administrator's GWP change checks them). */
  listOfCompany(companyId: string): Promise<InventoryReview[]>;
}

/** D20: one approved version of a year's inventory. The snapshot itself (canonical JSON, the
 *  calculations it counts with their inputs) is the blob `blob_key`; this small item carries its
 *  SHA-256 and what the version list shows. Written once, never changed. */
export interface InventoryVersion {
  company: string;
  year: number;
  version: number;
  sha256: string;
  /** the platform's signature over sha256 (absent from versions approved before). */
  signature?: VersionSignature;
  blob_key: string;
  /** approve or rework_done. */
  action: string;
  approved_at: string;
  approved_by: string;
  total_t_co2e: number;
  /** Per facility (null: projects without one), t CO2-eq: a facility's report compares with it. */
  facilities: Array<{ id: string | null; t_co2e: number }>;
  /** How many calculations the version lists. */
  calculations: number;
  /** The version approved before this one (the report lists what changed against it). */
  previous: number | null;
}

export interface InventoryVersionRepository {
  /** Claims the version number: Conflict when it is taken. */
  create(version: InventoryVersion): Promise<void>;
  get(companyId: string, year: number, version: number): Promise<InventoryVersion | undefined>;
  /** The year's versions, oldest first. */
  list(companyId: string, year: number): Promise<InventoryVersion[]>;
  /** Only for a version whose approval did not go through (the review changed meanwhile). */
  delete(companyId: string, year: number, version: number): Promise<void>;
}

/** The company's base year, significance threshold and targets (domain/inventory/targets.ts): one item. */
export type TrendSettings = z.output<typeof trendSettingsSchema> & { company: string };

export interface TrendSettingsRepository {
  get(companyId: string): Promise<TrendSettings | undefined>;
  /** Writes `next` if the stored version is still `expectedVersion` (0: none stored); otherwise Conflict. */
  put(next: TrendSettings, expectedVersion: number): Promise<void>;
}
