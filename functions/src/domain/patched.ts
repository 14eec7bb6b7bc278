// A PATCH on a stored record: the fields it sends take the place of the record's, the ones it
// leaves out (or sends as null) keep theirs.

/** Of `fields`, the patch's value where it gives one, else the current record's. */
export function patched<T extends object, K extends keyof T>(
  current: T,
  patch: { [P in K]?: T[P] | null },
  fields: readonly K[],
): Pick<T, K> {
  return Object.fromEntries(fields.map((field) => [field, patch[field] ?? current[field]])) as Pick<T, K>;
}
