// A company's facilities (mines, open pits, processing plants): the sites its inventory is kept by
// (docs/methodology.md, Inventory and the report). Any user of the company lists them and manages them on the profile screen;
// a project may belong to one.
import type { Actor, Deps } from "../context";
import { Invalid, NotFound } from "../errors";
import { firstVersion } from "../ids";
import type { Facility } from "../../ports";
import type { FacilityCreateInput, FacilityPatchInput } from "../../contract/schemas/facility";
import { guardFrozen } from "../inventory/freeze";
import { type AdminChange, recordChange } from "../audit";
import type { CapPlace } from "../caps";
import { patched } from "../patched";

/** Every change of a facility goes to the change log under its company (domain/company/requisites-audit.ts). */
const logFacility = (deps: Deps, actor: Actor, action: string, before: Facility | null, after: Facility) =>
  recordChange(
    deps,
    actor,
    { action, target_type: "facility", target_id: after.id, target_label: after.name, before, after },
    after.company,
  );

export async function listFacilities(deps: Deps, actor: Actor): Promise<Facility[]> {
  return deps.repos.facilities.list(actor.company);
}

export async function getFacility(deps: Pick<Deps, "repos">, actor: Actor, facilityId: string): Promise<Facility> {
  const facility = await deps.repos.facilities.get(actor.company, facilityId);
  if (!facility) throw new NotFound("Площадка не найдена");
  return facility;
}

/** A facility's own things (its emission points, its sensors, its gateway keys), stored under it. */
interface FacilityThings<T> {
  get(companyId: string, facilityId: string, id: string): Promise<T | undefined>;
  listOfFacility(companyId: string, facilityId: string): Promise<T[]>;
}

/** The facility's things of one kind; 404 when the facility is not the company's. */
export async function listOfFacility<T>(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  facilityId: string,
  things: FacilityThings<T>,
): Promise<T[]> {
  await getFacility(deps, actor, facilityId);
  return things.listOfFacility(actor.company, facilityId);
}

/** One of the facility's things, or 404 in `missing`'s words (the facility's own 404 when it is not the company's). */
export async function getOfFacility<T>(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  facilityId: string,
  things: FacilityThings<T>,
  id: string,
  missing: string,
): Promise<T> {
  const thing = await things.get(actor.company, facilityId, id);
  if (!thing) {
    await getFacility(deps, actor, facilityId);
    throw new NotFound(missing);
  }
  return thing;
}

/** The place of `amount` new things of the facility under its cap `{name}#FACILITY#{facility}` of
 *  `limit`, counted by the facility's list where the cap has no counter yet; a full cap answers `refusal`. */
export const facilityPlace = <T>(
  actor: Actor,
  facilityId: string,
  things: FacilityThings<T>,
  cap: { name: string; limit: number; refusal: string },
  amount?: number,
): CapPlace => ({
  cap: `${cap.name}#FACILITY#${facilityId}`,
  limit: cap.limit,
  count: async () => (await things.listOfFacility(actor.company, facilityId)).length,
  refusal: () => new Invalid(cap.refusal),
  amount,
});

/** A change of one of the facility's things in the company's change log, labelled by the thing's
 *  name and the facility's: `«{label} ({facility})»`. */
export const recordFacilityChange = (
  deps: Pick<Deps, "repos" | "clock">,
  actor: Pick<Actor, "id" | "email">,
  facilityName: string,
  thing: { id: string; company: string; label: string },
  change: Pick<AdminChange, "action" | "target_type" | "before" | "after">,
) =>
  recordChange(
    deps,
    actor,
    {
      action: change.action,
      target_type: change.target_type,
      target_id: thing.id,
      target_label: `${thing.label} (${facilityName})`,
      before: change.before,
      after: change.after,
    },
    thing.company,
  );

export async function createFacility(deps: Deps, actor: Actor, input: FacilityCreateInput): Promise<Facility> {
  const facility: Facility = {
    ...firstVersion(deps, actor),
    name: input.name,
    kind: input.kind,
    licence_number: input.licence_number ?? "",
    address: input.address ?? "",
    is_active: true,
  };
  await deps.repos.facilities.create(facility);
  await logFacility(deps, actor, "facility.create", null, facility);
  return facility;
}

export async function patchFacility(deps: Deps, actor: Actor, facilityId: string, patch: FacilityPatchInput): Promise<Facility> {
  const current = await getFacility(deps, actor, facilityId);
  const next: Facility = {
    ...current,
    ...patched(current, patch, ["name", "kind", "licence_number", "address", "is_active"]),
    // D90: the calendar as it now stands, its changes by the day they hold from.
    ...(patch.shift_calendar ? { shift_calendar: [...patch.shift_calendar].sort((a, b) => a.valid_from.localeCompare(b.valid_from)) } : {}),
    updated_at: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  await guardFrozen(deps, actor, { kind: "facility", before: current, after: next });
  await deps.repos.facilities.replace(next, patch.version);
  await logFacility(deps, actor, "facility.update", current, next);
  return next;
}
