// How a safety document names a person: surname and initials, shared by the server (the book, the
// journal, the acknowledgements) and the web app (whether the signed-in user is the one an entry names).

/** a person as a safety document names one, surname and initials («Кузнецова О. И.» of
 *  first name «Ольга Ивановна», last name «Кузнецова»); empty when they have given no surname. */
export function surnameInitials(user: { first_name?: string | null; last_name?: string | null }): string {
  const surname = user.last_name?.trim() ?? "";
  if (!surname) return "";
  const initials = (user.first_name ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => `${part.charAt(0).toUpperCase()}.`);
  return [surname, ...initials].join(" ");
}
