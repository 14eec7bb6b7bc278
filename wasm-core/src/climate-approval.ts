// Who may approve a climate project's monitoring period and withdraw the approval (methodology
// D80 with D20, D32 and D33 of the year's approval): four eyes — a reviewer or an administrator other
// than the person who computed the period approves it, and an approved period is frozen (its figures
// are the stored snapshot's; recomputing it is refused) until a reviewer other than that person
// withdraws the approval with a reason, as a year is reopened. The server refuses with these words and
// the screen shows them beside the actions it offers. Browser-safe: no Node imports.
import { isReviewer, type MemberRole } from "./inventory";

export const PERIOD_ACTIONS = {
  approve: { label: "Утвердить", done: "утвержден", reason: false },
  withdraw: { label: "Отозвать утверждение", done: "утверждение отозвано", reason: true },
} as const;
export type PeriodAction = keyof typeof PERIOD_ACTIONS;
export const PERIOD_ACTION_NAMES = Object.keys(PERIOD_ACTIONS) as PeriodAction[];

/** What the rule reads of a period: whether it stands approved and who computed its figures. */
export interface PeriodReviewState {
  readonly approved: boolean;
  readonly computed_by: string;
}

/** Why `user` may not take `action` on the period now, in Russian (after the action's label), or
 *  undefined when they may. */
export function periodActionProblem(
  action: PeriodAction,
  user: { readonly role: MemberRole | string; readonly email: string },
  period: PeriodReviewState,
): string | undefined {
  if (action === "approve" && period.approved) return "невозможно: период уже утвержден";
  if (action === "withdraw" && !period.approved) return "невозможно: период не утвержден";
  if (!isReviewer(user.role)) return "может только проверяющий или администратор";
  if (period.computed_by === user.email) return "может только другой проверяющий или администратор: период рассчитали вы";
  return undefined;
}

/** The actions `user` may take on the period now. */
export const periodActionsFor = (user: { readonly role: MemberRole | string; readonly email: string }, period: PeriodReviewState) =>
  PERIOD_ACTION_NAMES.filter((action) => !periodActionProblem(action, user, period));

/** Why a period may not be computed again: its approval freezes its figures (D20, D32). */
export const FROZEN_PERIOD =
  "Период утвержден: его цифры заморожены и не пересчитываются. Чтобы пересчитать, проверяющий сначала отзывает утверждение с указанием причины";

/** The flag an approved period carries once readings of its meters in its hours were written after its approval. */
export const READINGS_CHANGED = "показания изменились после утверждения";

/** A period changed since the version the request was based on. */
export const PERIOD_CHANGED = "Отчетный период был изменен другим пользователем. Обновите страницу и повторите.";
