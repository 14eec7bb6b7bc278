// A company's stored, versioned objects of one kind: what the repository of each such kind offers
// (assessments, climate projects, facilities), written once.

export interface CompanyObjects<T> {
  /** Refused (Conflict) when the id is taken. */
  create(item: T): Promise<void>;
  get(companyId: string, id: string): Promise<T | undefined>;
  /** Every one of the company, in the order its repository names. */
  list(companyId: string): Promise<T[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: T, expectedVersion: number): Promise<void>;
}
