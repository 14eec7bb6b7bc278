// Display helpers shared by the lists (docs/user-guide.md: project names cut to 25 characters, calculations to 50).

export const ABSENT = "Отсутствует";

/** Cuts to `max` characters (not UTF-16 units) and marks the cut with «…». */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : text;
}

/** docs/user-guide.md, «Profile»: an empty field shows «Отсутствует». */
export function orAbsent(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return ABSENT;
  const text = String(value).trim();
  return text === "" ? ABSENT : text;
}
