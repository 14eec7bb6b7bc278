// A company's facilities (mines, open pits, processing plants): the sites its inventory is kept by
// (docs/methodology.md, Inventory and the report). Any user of the company lists them and manages them on the profile screen;
// a project may belong to one.
import type { Actor, Deps } from "../context";
import { NotFound } from "../errors";
import { firstVersion } from "../ids";
import type { Facility } from "../../ports";
import type { FacilityCreateInput, FacilityPatchInput } from "../../contract/schemas/facility";
import { guardFrozen } from "../inventory/freeze";
import { recordChange } from "../audit";
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
    updated_at: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  await guardFrozen(deps, actor, { kind: "facility", before: current, after: next });
  await deps.repos.facilities.replace(next, patch.version);
  await logFacility(deps, actor, "facility.update", current, next);
  return next;
}
