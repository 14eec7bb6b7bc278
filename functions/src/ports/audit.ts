// Audit: the changes made in /admin and the trail the table's stream writes.
import type * as z from "zod";
import type { auditEntrySchema } from "../contract/schemas/answers";
import type { Page, PageRequest } from "./paging";

/** One change made in /admin: who, when, what, and the object before and after (never a secret). */
export type AdminAuditEntry = z.output<typeof auditEntrySchema>;

/** One entry of the audit trail the table's stream handler writes (functions/src/events/table-changes.ts):
 *  which item changed and how, never the values. */
export interface AuditTrailEntry {
  at: string;
  event: "INSERT" | "MODIFY" | "REMOVE";
  item_pk: string;
  item_sk: string;
  company?: string;
  old_version?: number;
  new_version?: number;
  /** Names of the attributes that changed. */
  changed: string[];
}

export interface AuditTrailRepository {
  /** The changes of one UTC day (yyyy-MM-dd), in order. */
  day(day: string): Promise<AuditTrailEntry[]>;
}

export interface AdminAuditRepository {
  /** With `company`: a change of that company's own requisites or facilities, also kept where
   *  `listCompany` reads it. */
  add(entry: AdminAuditEntry, company?: string): Promise<void>;
  /** Newest first. */
  list(page: PageRequest): Promise<Page<AdminAuditEntry>>;
  /** The changes added with this company, newest first; never another company's. */
  listCompany(company: string, page: PageRequest): Promise<Page<AdminAuditEntry>>;
}
