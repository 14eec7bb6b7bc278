// How the product names a person wherever it names one: comments, the review trail, the passport,
// the header. One name per person: the one they have now, set on their profile.
import type { Repositories, User } from "../ports";
import { surnameInitials } from "@core/person-name";

/** First and last name, or empty when they have given neither. */
export const personName = (user: Pick<User, "first_name" | "last_name">): string =>
  [user.first_name, user.last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");

/** The name each user of the company has now, by e-mail (those who gave none are left out). */
export async function namesByEmail(repos: Pick<Repositories, "users">, companyId: string): Promise<Map<string, string>> {
  const users = await repos.users.listByCompany(companyId);
  return new Map(users.flatMap((u) => (personName(u) ? [[u.email, personName(u)] as const] : [])));
}

/** The review's steps each named by the name its person has now, else as the step recorded it. */
export async function withCurrentNames<R extends { history: ReadonlyArray<{ by: string; by_name?: string }> }>(
  repos: Pick<Repositories, "users">,
  companyId: string,
  review: R,
): Promise<R> {
  if (review.history.length === 0) return review;
  const names = await namesByEmail(repos, companyId);
  return { ...review, history: review.history.map((step) => (names.has(step.by) ? { ...step, by_name: names.get(step.by) } : step)) };
}

/** surname and initials («Кузнецова О. И.»), shared with the web app. */
export { surnameInitials };

/** What a document prints for someone who gave no surname (never their e-mail). */
export const UNNAMED_PERSON = "ФИО не указано в профиле";

/** Each user of the company by e-mail, surname and initials (UNNAMED_PERSON for one who gave none). */
export async function initialsByEmail(repos: Pick<Repositories, "users">, companyId: string): Promise<(email: string) => string> {
  const users = await repos.users.listByCompany(companyId);
  const names = new Map(users.map((u) => [u.email, surnameInitials(u)] as const));
  return (email) => names.get(email) || UNNAMED_PERSON;
}
