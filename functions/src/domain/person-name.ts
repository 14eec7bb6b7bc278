// How the product names a person wherever it names one: comments, the review trail, the passport,
// the header. One name per person: the one they have now, set on their profile.
import type { User } from "../ports";

/** First and last name, or empty when they have given neither. */
export const personName = (user: Pick<User, "first_name" | "last_name">): string =>
  [user.first_name, user.last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");
