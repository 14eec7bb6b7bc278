// Companies: the tenants every other item belongs to.
import type * as z from "zod";
import type { companySchema } from "../contract/schemas/answers";

/** A company: the answer's shape is the stored record (inn/kpp and version absent on older ones). */
export type Company = z.output<typeof companySchema>;

export interface CompanyRepository {
  create(company: Company): Promise<void>;
  get(companyId: string): Promise<Company | undefined>;
  /** The company whose name reads as `name` (domain/company/look-alike.ts). */
  findByName(name: string): Promise<Company | undefined>;
  list(): Promise<Company[]>;
  /** Writes `next` only if the stored version is still `expectedVersion` (0: never edited). */
  replace(next: Company, expectedVersion: number): Promise<void>;
}
