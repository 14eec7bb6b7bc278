// A large company's year for the report passport's job path (docs/performance.md, «Report passport»):
// one calculation made through the API is copied `count` times straight through the repository
// (new ids and names, the same inputs and results), so a test gets a year of hundreds of lines in
// seconds rather than through as many API calls. The table's stream counts them as it would the API's.
import type { Deps } from "@server/domain/context";
import { newId } from "@server/domain/ids";
import type { Calculation } from "@server/ports";

/** `vary(i)`: what copy i changes besides its id and name (a period of its own, say). */
export async function copyCalculation(
  deps: Pick<Deps, "repos">,
  company: string,
  type: string,
  id: string,
  count: number,
  vary: (i: number) => Partial<Calculation> = () => ({}),
): Promise<void> {
  const template = await deps.repos.calculations.get(company, type, id);
  if (!template) throw new Error(`no calculation ${type} ${id} of ${company}`);
  const WRITERS = 8;
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      for (let i = next++; i < count; i = next++) {
        await deps.repos.calculations.create({ ...template, ...vary(i), id: newId(), name: `${template.name} № ${i + 2}` });
      }
    }),
  );
}
