// Comments on a year's inventory or one of its lines (a calculation id or a category line). Each is
// an item of its own, so adding one never moves the review's version and no number of comments can
// block approving or returning the year. At most 2 000 characters each and 1 000 per year; deleted
// by their author or by a reviewer (role reviewer or admin). Comments written before they were items
// sit inside the year's review item (`comments`): they are listed after the newer ones (they are
// older) and deleted the same way, so nothing needs migrating.
import { lineOf } from "../../contract/field-errors";
import { namesByEmail } from "../person-name";
import { isReviewer } from "@core/inventory";
import { CALCULATION_TYPES } from "@core/registry";
import type { Actor, Deps } from "../context";
import { Conflict, Forbidden, invalidAt, NotFound } from "../errors";
import { newId } from "../ids";
import { withPlace } from "../caps";
import type { InventoryComment, Page, PageRequest } from "../../ports";
import { COMMENT_MAX_CHARS } from "../../contract/schemas/common";
import { LIMITS } from "../../contract/schemas/limits";

export { COMMENT_MAX_CHARS };
export const COMMENTS_PER_YEAR = LIMITS.inventory.commentsPerYear;

/** The comments stored as items count; those kept inside the review item are never added to. */
const commentsCap = (year: number) => `COMMENTS#YEAR#${year}`;

export type CommentAnswer = Omit<InventoryComment, "company">;

/** The comment as answered: its author named by the name they have now (one name per person). */
const answer = (
  { company: _company, by_name: _stored, ...comment }: InventoryComment,
  names: ReadonlyMap<string, string>,
): CommentAnswer => {
  const name = names.get(comment.by);
  return name ? { ...comment, by_name: name } : comment;
};

/** A line of the year: `category|ipcc_code|gas` (D45). */
const LINE_TARGET = /^\d{1,2}\|\d(?:\.[0-9A-Za-z]{1,4}){1,6}\|(?:CH4|CO2)$/;

/** a comment's target is a line of the year or a calculation of the actor's company;
 *  anything else (another company's calculation, a path) is 404, as for any id not the company's. */
async function resolvedTarget(deps: Deps, actor: Actor, target: string | null | undefined): Promise<string | null> {
  if (!target) return null;
  if (LINE_TARGET.test(target)) return target;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(target)) {
    const found = await Promise.all(CALCULATION_TYPES.map((type) => deps.repos.calculations.get(actor.company, type, target)));
    if (found.some((calculation) => calculation !== undefined)) return target;
  }
  throw new NotFound(lineOf({ field: "target", message: "строка инвентаризации или расчет не найдены" }));
}

export async function addComment(
  deps: Deps,
  actor: Actor,
  year: number,
  body: { target?: string | null; text: string },
): Promise<CommentAnswer> {
  const text = body.text.trim();
  if (!text) throw invalidAt("text", "введите комментарий");
  const target = await resolvedTarget(deps, actor, body.target);
  if (text.length > COMMENT_MAX_CHARS) throw invalidAt("text", `не более ${COMMENT_MAX_CHARS} символов`);
  // A place of the year's cap is taken by one conditional update (parallel comments cannot pass
  // it) and given back when the write fails or the comment is deleted.
  const place = {
    cap: commentsCap(year),
    limit: COMMENTS_PER_YEAR,
    count: () => deps.repos.inventoryComments.count(actor.company, year),
    refusal: () => new Conflict(`К инвентаризации ${year} года уже ${COMMENTS_PER_YEAR} комментариев: удалите ненужные`),
  };
  const comment: InventoryComment = {
    id: newId(),
    company: actor.company,
    year,
    target,
    text,
    by: actor.email,
    at: deps.clock.now().toISOString(),
  };
  await withPlace(deps, actor.company, place, () => deps.repos.inventoryComments.add(comment));
  return answer(comment, await namesByEmail(deps.repos, actor.company));
}

/** Newest first: the comments stored as items, then those kept inside the review item. */
export async function listComments(deps: Deps, actor: Actor, year: number, page: PageRequest): Promise<Page<CommentAnswer>> {
  const [items, review, names] = await Promise.all([
    deps.repos.inventoryComments.list(actor.company, year, page),
    deps.repos.inventoryReviews.get(actor.company, year),
    namesByEmail(deps.repos, actor.company),
  ]);
  const older = [...(review?.comments ?? [])].reverse().map((c) => answer({ ...c, year, company: actor.company }, names));
  const room = page.limit - items.results.length;
  const from = Math.max(0, page.offset - items.count);
  return {
    results: [...items.results.map((c) => answer(c, names)), ...(room > 0 ? older.slice(from, from + room) : [])],
    count: items.count + older.length,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function assertMayDelete(actor: Actor, author: string) {
  if (author === actor.email || isReviewer(actor.role)) return;
  throw new Forbidden("Удалить комментарий может его автор, проверяющий или администратор");
}

export async function removeComment(deps: Deps, actor: Actor, year: number, id: string): Promise<void> {
  if (!UUID.test(id)) throw new NotFound("Комментарий не найден");
  const item = await deps.repos.inventoryComments.get(actor.company, year, id);
  if (item) {
    assertMayDelete(actor, item.by);
    await deps.repos.inventoryComments.remove(actor.company, year, id);
    await deps.repos.caps.give(actor.company, commentsCap(year));
    return;
  }
  const review = await deps.repos.inventoryReviews.get(actor.company, year);
  const older = review?.comments?.find((c) => c.id === id);
  if (!review || !older) throw new NotFound("Комментарий не найден");
  assertMayDelete(actor, older.by);
  await deps.repos.inventoryReviews.put(
    {
      ...review,
      comments: review.comments.filter((c) => c.id !== id),
      updated_at: deps.clock.now().toISOString(),
      version: review.version + 1,
    },
    review.version,
  );
}
