// The year's checks at a company's size (methodology 9.1), shared by the normal-run test at a few
// hundred calculations and the deep one at 10 000: facilities whose calculations carry an own
// factor without its uncertainty, and one source entered many times without a period.
import { countCalls, type CallCounter } from "@server/adapters/dynamodb/call-count";
import type { Harness } from "./harness";
import { newId } from "@server/domain/ids";
import { writeCalculations } from "./large-inventory";
import { inventoryCalculations, type InventorySummary } from "./inventory";

export const YEAR = 2025;

export interface Company {
  h: Harness;
  token: string;
  companyId: string;
  /** Counts the DynamoDB calls of the harness's repositories. */
  counter: CallCounter;
}

/** One counter per harness: a client takes one. */
const counters = new WeakMap<Harness, CallCounter>();

/** A company with a signed-in user on the harness `h`, whose DynamoDB calls are counted. */
export async function company(h: Harness, name: string): Promise<Company> {
  const { token, companyId } = await h.signedInUser(name);
  const counter = counters.get(h) ?? counters.set(h, countCalls(h.doc!)).get(h)!;
  return { h, token, companyId, counter };
}

async function created<T>(res: Response): Promise<T> {
  if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Day `i` of YEAR (0: 1 January) as a calculation's period. */
const dayPeriod = (i: number) => {
  const day = new Date(Date.UTC(YEAR, 0, 1 + i)).toISOString().slice(0, 10);
  return { from: day, to: day };
};

/** A facility with a project of YEAR, and in it one calculation made through the API: an own
 *  emission factor with its justification and no uncertainty, covering 1 January (`own`), or a
 *  dictionary one without a period of its own. */
export async function facilityWithCalculation(c: Company, name: string, own: boolean): Promise<{ facility: string; calculation: string }> {
  const { h, token } = c;
  const facility = await created<{ id: string }>(
    await h.request("/api/v1/facilities/", { method: "POST", token, json: { name, kind: "underground_mine" } }),
  );
  const project = await created<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: {
        name: `${name}, ${YEAR}`,
        start_date: `${YEAR}-01-01`,
        end_date: `${YEAR}-12-31`,
        reporting_year: YEAR,
        facility: facility.id,
      },
    }),
  );
  const factor = own
    ? { ef: 14.3, dictionary_items: { get_underground_emission_ch4: null }, justifications: { ef: "Замеры 2025 г." }, period: dayPeriod(0) }
    : { ef: 18, koef_transform: 0.67 };
  const calculation = await created<{ id: string }>(
    await h.request("/api/v1/underground_emission_ch4/", {
      method: "POST",
      token,
      json: { name: `${name}: добыча`, project: project.id, volume: 1000, ...factor },
    }),
  );
  return { facility: facility.id, calculation: calculation.id };
}

/** From `from` to `to` calculations in all: the one made through the API and copies of it, written
 *  in batches (`daily`: each copy the next day of the year, at most 365 in all, so none overlaps
 *  another). */
export const grow = (c: Company, calculation: string, from: number, to: number, daily: boolean) =>
  growEach(c, [{ calculation, from, to }], daily);

/** grow for several calculations at once: one batch load and one reconciliation. */
export async function growEach(
  c: Company,
  plan: ReadonlyArray<{ calculation: string; from: number; to: number }>,
  daily: boolean,
): Promise<void> {
  const copies = [];
  for (const { calculation, from, to } of plan) {
    if (daily && to > 365) throw new Error("a source has 365 days");
    const template = await c.h.deps.repos.calculations.get(c.companyId, "underground_emission_ch4", calculation);
    if (!template) throw new Error(`no calculation ${calculation}`);
    for (let i = 0; i < to - from; i++) {
      copies.push({
        ...template,
        id: newId(),
        name: `${template.name} № ${from + i + 1}`,
        ...(daily ? { period: dayPeriod(from + i) } : {}),
      });
    }
  }
  await writeCalculations(c.h, copies);
}

/** GET v1/inventory/?year=YEAR: the answer, its size, its time and the DynamoDB calls it made.
 *  `warm`: asked once before, unmeasured, so that what the process keeps for a minute (the
 *  dictionaries) is kept at every size, and two sizes' calls compare however long seeding took. */
export async function measuredInventory(
  c: Company,
  { warm = false } = {},
): Promise<{ status: number; body: InventorySummary; bytes: number; ms: number; calls: number; commands: string }> {
  await c.h.settled();
  if (warm) await (await c.h.request(`/api/v1/inventory/?year=${YEAR}`, { token: c.token })).arrayBuffer();
  c.counter.reset();
  const start = performance.now();
  const res = await c.h.request(`/api/v1/inventory/?year=${YEAR}`, { token: c.token });
  const text = await res.text();
  const ms = performance.now() - start;
  const calls = c.counter.calls.length;
  const commands = c.counter.calls.map((call) => call.command).join(",");
  return {
    status: res.status,
    body: res.status === 200 ? (JSON.parse(text) as InventorySummary) : (undefined as never),
    bytes: Buffer.byteLength(text),
    ms,
    calls,
    commands,
  };
}

/** Every calculation behind a check's list, through the paged route. */
export const behind = (c: Company, list: string) => inventoryCalculations(c.h, c.token, YEAR, { check: list });
