// One-time changes of a company's stored data made on start.

/** One-time changes of a company's stored data made on start (domain/company/emission-points-migration.ts):
 *  a migration done is marked, so it runs once per company. */
export interface MigrationRepository {
  isDone(companyId: string, name: string): Promise<boolean>;
  markDone(companyId: string, name: string, at: string): Promise<void>;
}
