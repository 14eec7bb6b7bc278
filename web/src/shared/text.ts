// Display helpers shared by the lists (docs/user-guide.md: project names cut to 25 characters, calculations to 50).

export const ABSENT = "Отсутствует";

/** Cuts to `max` characters (not UTF-16 units) and marks the cut with «…». */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : text;
}

// A year in a name: four digits 19xx or 20xx standing alone.
const YEAR = /(?<!\d)(?:19|20)\d{2}(?!\d)/g;

/** A project's name cut to `max` characters without ever losing its year (docs/user-guide.md,
 *  Conventions of the screens): when the plain cut would drop the year, the part before it is cut
 *  instead, and the year stays («Шахта «Распадская-Ко… 2025»). */
export function truncateKeepingYear(text: string, max: number): string {
  const short = truncate(text, max);
  const year = [...text.matchAll(YEAR)].at(-1);
  if (short === text || !year || Array.from(text.slice(0, year.index)).length + year[0].length <= max) return short;
  const head = text.slice(0, year.index).replace(/[\s(«"„—–,:-]+$/u, "");
  const more = /[\p{L}\p{N}]/u.test(text.slice(year.index + year[0].length));
  const room = max - year[0].length - 1 - (more ? 1 : 0);
  return `${truncate(head, Math.max(room, 1))} ${year[0]}${more ? "…" : ""}`;
}

/** docs/user-guide.md, «Profile»: an empty field shows «Отсутствует». */
export function orAbsent(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return ABSENT;
  const text = String(value).trim();
  return text === "" ? ABSENT : text;
}

/** The account that set up what came with the platform (seeded data, the demo year). */
export const SYSTEM_ACCOUNT = "system";

/** Who did something, as a user reads it: a person's name or e-mail, and for what came with the
 *  platform «система» — never the internal account «system». */
export function actorText(who: string | null | undefined): string {
  if (!who) return "";
  return who === SYSTEM_ACCOUNT ? "система" : who;
}

/** A person as the product names them: first and last name, else their e-mail. */
export function whoText(person: { first_name?: string; last_name?: string; email: string }): string {
  return (
    [person.first_name, person.last_name]
      .map((p) => p?.trim())
      .filter(Boolean)
      .join(" ") || person.email
  );
}

/** A text as a narrow place wraps it: «№ 2», «95 %», «32,413 т», «9 348,67 тыс. м³» kept on one line
 *  (no-break spaces), so a line never ends with «№» or a number and starts with its sign or unit. */
export const keepSignsWithNumbers = (text: string): string =>
  text
    .replace(/№ (?=\S)/g, "№\u00a0")
    .replace(/(\d) (?=(?:%|т|тыс|мин|ч|м³)(?![\p{L}\d]))/gu, "$1\u00a0")
    .replace(/тыс\. (?=м)/g, "тыс.\u00a0");
