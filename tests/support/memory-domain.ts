// The domain on the in-memory repositories (adapters/memory), for the unit tier: the rules run
// as the API runs them, without a database, HTTP or another process. Bodies are read by the
// contract's schemas as the routes read them, and every write runs as a request's (its year
// writes ended, domain/inventory/writes.ts). What only HTTP or storage shows stays with
// tests/support/harness.ts.
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import { memoryStorage, type MemoryStorageSnapshot } from "@server/adapters/memory/storage";
import type { AppConfig } from "@server/config";
import { calculationBodySchema, splitBody } from "@server/contract/schemas/calculation-body";
import { facilityCreateSchema } from "@server/contract/schemas/facility";
import { projectCreateSchema, projectPatchSchema, type Project } from "@server/contract/schemas/project";
import { calculationView, createCalculation, patchCalculation } from "@server/domain/calculations/calculations";
import { getCalculation } from "@server/domain/calculation-lookup";
import { checkedActor, type Actor, type Deps } from "@server/domain/context";
import { createFacility } from "@server/domain/company/facilities";
import { withYearWrites } from "@server/domain/inventory/writes";
import { transition } from "@server/domain/inventory/review";
import { inventoryState } from "@server/domain/inventory/state";
import { getInventory } from "@server/domain/inventory/year";
import { createProject, patchProject } from "@server/domain/calculations/projects";
import { createCompany, createUser, type UserInput } from "@server/domain/company/users";
import { parseWith } from "@server/http/validate";
import type { CalculationOf, CalculationView } from "@server/contract";
import type { Role } from "@server/contract/schemas/common";
import type { CalculationType } from "@core/registry";
import type { Clock, Facility, WebhookTransport } from "@server/ports";
import type { ExportResult } from "@server/export/formats";
import { seedPlatform, testDeps } from "./deps";
import type { WebhookSender } from "@server/domain/monitoring/derive/webhooks";

export interface MemoryDomain {
  deps: Deps;
  /** The webhook sender its deps tell of deliveries (tests/support/deps.ts). */
  webhooks: WebhookSender;
  /** Waits for the table's stream (statistics, inventory sums) and the upload checks. */
  settled(): Promise<void>;
  /** A company of its own with one member (staff unless `role` says otherwise). */
  actor(companyName?: string, role?: Role): Promise<Actor>;
  /** Another member of `actor`'s company, signed in as itself: a person with a name and a duty. */
  colleague(actor: Actor, person: Omit<UserInput, "companyId" | "password">): Promise<Actor>;
  /** A write as a request makes it: its year writes ended before it answers. */
  write<T>(work: () => Promise<T>): Promise<T>;
  facility(actor: Actor, body: Record<string, unknown>): Promise<Facility>;
  project(actor: Actor, body: Record<string, unknown>): Promise<Project>;
  patchProject(actor: Actor, id: string, body: Record<string, unknown>): Promise<Project>;
  /** A calculation created from the body the API takes (`project`, `name` and the type's fields),
   *  answered as the API answers it; a body the API refuses is refused with the same Invalid. */
  calc<T extends CalculationType>(actor: Actor, type: T, body: Record<string, unknown>): Promise<CalculationOf<T>>;
  /** An edit from the body the API takes (the type's fields, `version`, `is_deleted` …). */
  patch(actor: Actor, calculation: { type: string; id: string }, body: Record<string, unknown>): Promise<CalculationView>;
  /** The company's year sent to review by `staff` and approved by `reviewer`, as the review's buttons do. */
  approveYear(staff: Actor, reviewer: Actor, year: number): Promise<void>;
}

let users = 0;

/** The bytes of an export or passport answered in the body (streamed or whole). */
export async function fileOf(result: ExportResult): Promise<Uint8Array<ArrayBuffer>> {
  if (result.kind !== "body") throw new Error(`the file came as ${result.kind}`);
  return new Uint8Array(await new Response(result.body as ConstructorParameters<typeof Response>[0]).arrayBuffer());
}

/** A clock standing at `at`: a domain test runs on a day it names, never on the day it is run on (the
 *  readings' layout is chosen by the date: minute items while a day is open). */
export const clockAt = (at: string | number): Clock => ({ now: () => new Date(at) });

/** The platform's seed as a fresh table and blob folder hold it, by the time of the clock it was made
 *  on: a unit run makes some hundred domains, and seeding each anew (the dictionaries, the calendar, the
 *  default models and the stream's records of them) was 7 s of its CPU. A domain on a clock standing
 *  where one seeded before starts from that one's copy; a clock that moved while seeding is not kept. */
const seeds = new Map<string, { storage: MemoryStorageSnapshot; blobs: string }>();

/** The domain over a fresh in-memory table seeded as an installation is, on `clock`. */
export async function memoryDomain(clock: Clock, overrides: Partial<AppConfig> = {}, transport?: WebhookTransport): Promise<MemoryDomain> {
  const at = clock.now().toISOString();
  const seeded = seeds.get(at);
  const storage = memoryStorage(() => clock.now(), seeded?.storage);
  const blobs = mkdtempSync(join(tmpdir(), "blobs-"));
  if (seeded) cpSync(seeded.blobs, blobs, { recursive: true });
  const { deps, uploads, webhooks } = testDeps(storage.repos, fsBlobStore(blobs), overrides, clock, transport);
  if (!seeded) {
    await seedPlatform(deps);
    const snapshot = await storage.snapshot();
    if (clock.now().toISOString() === at) {
      const copy = mkdtempSync(join(tmpdir(), "blobs-seed-"));
      cpSync(blobs, copy, { recursive: true });
      seeds.set(at, { storage: snapshot, blobs: copy });
    }
  }
  await storage.settled();
  const write = <T>(work: () => Promise<T>) => withYearWrites(deps, work);
  return {
    deps,
    webhooks,
    write,
    async settled() {
      await Promise.all([storage.settled(), uploads.settled()]);
      await storage.settled();
    },
    async actor(companyName, role) {
      users += 1;
      const company = await createCompany(deps, { name: companyName ?? `Компания ${randomBytes(4).toString("hex")}` });
      const user = await createUser(deps, { companyId: company.id, email: `user${users}@example.com`, password: "correct-horse", role });
      return { id: user.id, company: company.id, email: user.email, role: user.role };
    },
    async colleague(actor, person) {
      const user = await createUser(deps, { ...person, companyId: actor.company, password: "correct-horse" });
      return { id: user.id, company: actor.company, email: user.email, role: user.role };
    },
    facility: (actor, body) => write(() => createFacility(deps, actor, parseWith(facilityCreateSchema, body))),
    project: (actor, body) => write(() => createProject(deps, actor, parseWith(projectCreateSchema, body))),
    patchProject: (actor, id, body) => write(() => patchProject(deps, actor, id, parseWith(projectPatchSchema, body))),
    calc: <T extends CalculationType>(actor: Actor, type: T, body: Record<string, unknown>) =>
      write(async () => {
        const checked = parseWith(calculationBodySchema(type, "create"), body) as Record<string, unknown>;
        const { common, values } = splitBody<"create">(type, checked);
        return calculationView(await createCalculation(deps, checkedActor(actor), type, { ...common, values })) as CalculationOf<T>;
      }),
    patch: (actor, calculation, body) =>
      write(async () => {
        const current = await getCalculation(deps, actor, calculation.type, calculation.id);
        const type = current.type as CalculationType;
        const checked = parseWith(calculationBodySchema(type, "patch"), body) as Record<string, unknown>;
        const { common, values } = splitBody<"patch">(type, checked);
        return calculationView(await patchCalculation(deps, actor, type, current.id, { ...common, values }, current));
      }),
    async approveYear(staff, reviewer, year) {
      for (const [actor, action] of [
        [staff, "send_to_review"],
        [reviewer, "approve"],
      ] as const) {
        const { review } = await getInventory(deps, staff, year);
        await write(() => transition(deps, actor, year, { action, version: review.version }, (_c, y) => inventoryState(deps, staff, y)));
      }
    },
  };
}
