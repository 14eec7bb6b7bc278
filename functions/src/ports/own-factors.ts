// A company's own factors (methodology D107): a value the mine typed into a calculation as
// «Фактическое значение» with its stated uncertainty and justification, kept as the company's entry so
// that the next calculation takes the identical value. A record: written once, never edited in place.
import type * as z from "zod";
import type { ownFactorSchema } from "../contract/schemas/own-factors";

/** One kept factor, as stored: the answer's fields and the company that owns it. */
export type OwnFactor = Omit<z.output<typeof ownFactorSchema>, "created_by_name" | "type_label" | "field_label"> & { company: string };

export interface OwnFactorRepository {
  /** Writes a new entry (its id is new: an existing one is never overwritten). */
  add(factor: OwnFactor): Promise<void>;
  /** The company's entries, oldest first (ids are UUID v7, so by when they were kept). */
  list(companyId: string): Promise<OwnFactor[]>;
}
