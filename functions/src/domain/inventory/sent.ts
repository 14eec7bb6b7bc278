// Four eyes over everything a version prints: sending a year for review captures what its
// version would print — the inventory as it stands and the legal entity (requisites, the person
// responsible, the facilities and their emission points, D32) — as canonical JSON in object storage,
// its SHA-256 in the review. The year's data are frozen in review, the requisites, facilities and
// points are not: what changed of them after the send is shown to the reviewer as «изменено после
// отправки», and approving refuses while the version would print anything the sender did not send
// (a new send, after «Вернуть на доработку», is the way on). The version stores what was sent.
import { EMISSION_POINT_KINDS, FACILITY_KINDS, type EmissionPointKind, type FacilityKind } from "@core/inventory";
import type { Deps } from "../context";
import { COMPANY_FIELDS, FACILITY_FIELDS as FACILITY_LABELS, POINT_FIELDS as POINT_LABELS } from "../entity-fields";
import type { InventoryReview } from "../../ports";
import {
  ENTITY_FIELDS,
  FACILITY_FIELDS,
  POINT_FIELDS,
  canonicalJson,
  entityOf,
  sha256Of,
  type InventoryState,
  type SnapshotEntity,
} from "./versions";

/** What a send captured: the version's inventory and legal entity as they stood. */
export interface SentContent {
  inventory: InventoryState;
  legal_entity: SnapshotEntity;
}

/** The review's note of the send: the hash of the content and of its legal entity alone. */
export type SentNote = NonNullable<InventoryReview["sent"]>;

/** The blob of what the send that made review version `reviewVersion` captured. */
export const sentKey = (companyId: string, year: number, reviewVersion: number) =>
  `inventory/${companyId}/${year}/sent-${reviewVersion}.json`;

/** The requisites, facilities and points as a version would print them now. */
export async function liveEntity(deps: Pick<Deps, "repos">, companyId: string): Promise<SnapshotEntity> {
  const [company, facilities, points] = await Promise.all([
    deps.repos.companies.get(companyId),
    deps.repos.facilities.list(companyId),
    deps.repos.emissionPoints.listOfCompany(companyId),
  ]);
  if (!company) throw new Error(`company ${companyId} not found`);
  return entityOf(company, facilities, points);
}

/** Stores what the send captured; the note goes into the review it writes (version `reviewVersion`). */
export async function storeSent(
  deps: Pick<Deps, "blobs">,
  companyId: string,
  year: number,
  reviewVersion: number,
  content: SentContent,
  at: string,
): Promise<SentNote> {
  const key = sentKey(companyId, year, reviewVersion);
  const text = canonicalJson(content);
  await deps.blobs.put(key, new TextEncoder().encode(text), "application/json");
  return { version: reviewVersion, sha256: sha256Of(text), entity_sha256: sha256Of(canonicalJson(content.legal_entity)), at };
}

export async function loadSent(
  deps: Pick<Deps, "blobs">,
  review: Pick<InventoryReview, "company" | "year">,
  note: SentNote,
): Promise<SentContent> {
  const key = sentKey(review.company, review.year, note.version);
  const blob = await deps.blobs.get(key);
  const text = blob && new TextDecoder().decode(blob.body);
  if (!text || sha256Of(text) !== note.sha256) throw new Error(`sent inventory ${key}: missing or its SHA-256 does not match the review`);
  return JSON.parse(text) as SentContent;
}

export const contentSha256 = (content: SentContent) => sha256Of(canonicalJson(content));

const shown = (field: string, value: unknown): string => {
  if (value === undefined || value === null || value === "") return "—";
  if (field === "kind" && typeof value === "string") {
    return FACILITY_KINDS[value as FacilityKind] ?? EMISSION_POINT_KINDS[value as EmissionPointKind] ?? value;
  }
  return String(value);
};
const fieldChange = (label: string, before: unknown, after: unknown, field: string) =>
  `«${label}»: было «${shown(field, before)}», стало «${shown(field, after)}»`;

/** What of the legal entity differs from the send, in Russian, one line per field. */
export function entityChanges(sent: SnapshotEntity, live: SnapshotEntity): string[] {
  const out: string[] = [];
  for (const field of ENTITY_FIELDS) {
    const [before, after] = [sent.requisites[field], live.requisites[field]];
    if ((before ?? "") !== (after ?? "")) out.push(`Реквизиты, ${fieldChange(COMPANY_FIELDS[field] ?? field, before, after, field)}`);
  }
  const listed = <T extends { id: string; name: string }>(
    before: readonly T[],
    after: readonly T[],
    fields: readonly (keyof T & string)[],
    labels: Record<string, string>,
    what: string,
  ) => {
    const now = new Map(after.map((item) => [item.id, item]));
    const was = new Map(before.map((item) => [item.id, item]));
    for (const item of before) {
      const current = now.get(item.id);
      if (!current) {
        out.push(`${what} «${item.name}» удален(а)`);
        continue;
      }
      for (const field of fields) {
        if (field === "id") continue;
        if ((item[field] ?? "") !== (current[field] ?? "")) {
          out.push(`${what} «${item.name}», ${fieldChange(labels[field] ?? field, item[field], current[field], field)}`);
        }
      }
    }
    for (const item of after) if (!was.has(item.id)) out.push(`${what} «${item.name}» добавлен(а)`);
  };
  listed(sent.facilities, live.facilities, FACILITY_FIELDS, FACILITY_LABELS, "Площадка");
  listed(sent.points ?? [], live.points ?? [], POINT_FIELDS, POINT_LABELS, "Источник выбросов");
  return out;
}

/** What of the inventory differs from the send: the lines' names and projects, else its figures. */
export function inventoryChanges(sent: InventoryState, live: InventoryState): string[] {
  if (canonicalJson(sent) === canonicalJson(live)) return [];
  const out: string[] = [];
  const now = new Map(live.calculations.map((line) => [line.id, line]));
  for (const line of sent.calculations) {
    const current = now.get(line.id);
    if (!current) out.push(`Расчет «${line.name}» больше не входит в инвентаризацию`);
    else if (current.name !== line.name) out.push(`Расчет «${line.name}» переименован в «${current.name}»`);
    else if (current.project.name !== line.project.name) {
      out.push(`Проект расчета «${line.name}»: было «${line.project.name}», стало «${current.project.name}»`);
    }
  }
  const was = new Set(sent.calculations.map((line) => line.id));
  for (const line of live.calculations) if (!was.has(line.id)) out.push(`Расчет «${line.name}» добавлен в инвентаризацию`);
  return out.length > 0 ? out : ["Состав, коэффициенты или итоги инвентаризации"];
}

/** What the reviewer sees as changed after the send: the legal entity's fields (the year's data are
 *  frozen in review). Empty when nothing changed or the year was sent before sends were captured. */
export async function changedAfterSend(deps: Pick<Deps, "repos" | "blobs">, review: InventoryReview): Promise<string[]> {
  if (review.status !== "in_review" || !review.sent) return [];
  const live = await liveEntity(deps, review.company);
  if (sha256Of(canonicalJson(live)) === review.sent.entity_sha256) return [];
  return entityChanges((await loadSent(deps, review, review.sent)).legal_entity, live);
}

/** The approval's check: the content as it stands now against what was sent, every difference named. */
export function sentDifferences(sent: SentContent, live: SentContent): string[] {
  return [...entityChanges(sent.legal_entity, live.legal_entity), ...inventoryChanges(sent.inventory, live.inventory)];
}
