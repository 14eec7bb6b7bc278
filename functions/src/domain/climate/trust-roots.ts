// The CA certificates a platform administrator loads as trust anchors of КЭП chains:
// the root certificates of the accredited CAs (and, where wanted, their intermediates: each loaded
// certificate is an anchor). None ship with the platform: until one is loaded a period's signature is
// kept with «цепочка не проверена: корневые сертификаты не загружены». Platform-wide, admin-only, each
// load and removal in the change log.
import { X509Certificate, createHash } from "node:crypto";
import { dateText, DEFAULT_TIME_ZONE } from "@core/company-clock";
import { LIMITS } from "../../contract/schemas/limits";
import { certificateText, unescapedName } from "../../contract/certificate-text";
import type { TrustRootRecord } from "../../ports";
import { assertAdmin, recordChange } from "../audit";
import type { Actor, Deps } from "../context";
import { Invalid, invalidAt, NotFound, TooLarge } from "../errors";

export const TRUST_ROOT_TEXTS = {
  empty: "выберите файл сертификата УЦ (.cer, .crt, .pem)",
  tooLarge: `Файл сертификатов больше ${Math.round(LIMITS.climate.trustRootBytes / 1024)} КБ`,
  notCertificate: "это не сертификат X.509 (ожидается .cer в DER или PEM)",
  notCa: "сертификат не является сертификатом УЦ (в нем нет CA:TRUE)",
  tooMany: `Корневых сертификатов может быть не более ${LIMITS.climate.trustRoots}`,
  notFound: "Корневой сертификат не найден",
} as const;

/** The counter of the platform's CA certificates (ports/counters.ts CapCounter), under no company. */
export const TRUST_ROOTS_COUNTER = { company: "platform", cap: "CAROOTS" } as const;
const { company: PLATFORM, cap: TRUST_ROOTS_CAP } = TRUST_ROOTS_COUNTER;

/** The certificates of a file: DER (one) or PEM (one or more). */
function certificatesOf(bytes: Uint8Array): X509Certificate[] {
  const text = new TextDecoder("latin1").decode(bytes);
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  try {
    if (blocks) return blocks.map((block) => new X509Certificate(block));
    if (bytes[0] === 0x30) return [new X509Certificate(Buffer.from(bytes))];
    // A .cer saved «в кодировке Base64» without its header lines.
    const bare = text.replace(/\s+/g, "");
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(bare)) return [new X509Certificate(Buffer.from(bare, "base64"))];
  } catch {
    throw invalidAt("file_data", TRUST_ROOT_TEXTS.notCertificate);
  }
  throw invalidAt("file_data", TRUST_ROOT_TEXTS.notCertificate);
}

/** A subject or issuer as shown and stored (contract/certificate-text.ts). */
const nameOf = (name: string) => certificateText(unescapedName(name.replace(/\n/g, ", ")));

export type TrustRootView = Omit<TrustRootRecord, "pem">;
const viewOf = ({ pem: _pem, ...rest }: TrustRootRecord): TrustRootView => rest;

export async function listTrustRoots(deps: Deps, actor: Actor): Promise<TrustRootView[]> {
  assertAdmin(actor);
  return (await deps.repos.trustRoots.list()).map(viewOf);
}

/** The loaded certificates' PEM, for a signature's check. */
export async function trustRootPems(deps: Deps): Promise<string[]> {
  return (await deps.repos.trustRoots.list()).map((root) => root.pem);
}

/** POST v1/admin/ca-roots/: each CA certificate of the file loaded (one already loaded is left as it is). */
export async function addTrustRoots(deps: Deps, actor: Actor, file: { bytes: Uint8Array } | undefined): Promise<TrustRootView[]> {
  assertAdmin(actor);
  if (!file || file.bytes.length === 0) throw invalidAt("file_data", TRUST_ROOT_TEXTS.empty);
  if (file.bytes.length > LIMITS.climate.trustRootBytes) throw new TooLarge(TRUST_ROOT_TEXTS.tooLarge);
  const certificates = certificatesOf(file.bytes);
  const now = deps.clock.now();
  for (const certificate of certificates) {
    if (!certificate.ca) throw invalidAt("file_data", TRUST_ROOT_TEXTS.notCa);
    if (Date.parse(certificate.validTo) < now.getTime()) {
      throw invalidAt(
        "file_data",
        `срок действия сертификата «${nameOf(certificate.subject)}» истек ${dateText(new Date(Date.parse(certificate.validTo)), DEFAULT_TIME_ZONE)}`,
      );
    }
  }
  const loaded = await deps.repos.trustRoots.list();
  const known = new Set(loaded.map((root) => root.id));
  // The file's new certificates, all counted before any is written: a file that would cross the cap is
  // refused whole (one crossing it once stored 96 of its certificates and answered 400).
  const fresh: X509Certificate[] = [];
  for (const certificate of certificates) {
    const id = createHash("sha256").update(certificate.raw).digest("hex");
    if (known.has(id)) continue;
    known.add(id);
    fresh.push(certificate);
  }
  const tooMany = (room: number) =>
    new Invalid(
      `${TRUST_ROOT_TEXTS.tooMany}: в файле ${fresh.length} новых, можно добавить не более ${Math.max(0, room)}; ни один не загружен`,
    );
  if (loaded.length + fresh.length > LIMITS.climate.trustRoots) throw tooMany(LIMITS.climate.trustRoots - loaded.length);
  if (fresh.length === 0) return [];
  // The file's places taken at once under the cap's counter (read, then written, two
  // administrators' files at once stored 121); the places of certificates not written are given back.
  const { caps } = deps.repos;
  const limit = LIMITS.climate.trustRoots;
  const counted = async () => (await deps.repos.trustRoots.list()).length;
  if (!(await caps.take(PLATFORM, TRUST_ROOTS_CAP, limit, counted, fresh.length))) {
    throw tooMany(limit - (await caps.taken(PLATFORM, TRUST_ROOTS_CAP)));
  }
  const added: TrustRootRecord[] = [];
  try {
    await addEach(deps, actor, fresh, now, added);
  } catch (error) {
    await caps.give(PLATFORM, TRUST_ROOTS_CAP, fresh.length - added.length);
    throw error;
  }
  return added.map(viewOf);
}

async function addEach(deps: Deps, actor: Actor, fresh: X509Certificate[], now: Date, added: TrustRootRecord[]): Promise<void> {
  for (const certificate of fresh) {
    const id = createHash("sha256").update(certificate.raw).digest("hex");
    const root: TrustRootRecord = {
      id,
      subject: nameOf(certificate.subject),
      issuer: nameOf(certificate.issuer),
      valid_from: new Date(Date.parse(certificate.validFrom)).toISOString(),
      valid_to: new Date(Date.parse(certificate.validTo)).toISOString(),
      pem: certificate.toString(),
      created_at: now.toISOString(),
      created_by: actor.email,
    };
    await deps.repos.trustRoots.add(root);
    added.push(root);
    await recordChange(deps, actor, {
      action: "ca_root.create",
      target_type: "ca_root",
      target_id: id,
      target_label: root.subject,
      before: null,
      after: viewOf(root),
    });
  }
}

/** DELETE v1/admin/ca-roots/{id}/. */
export async function removeTrustRoot(deps: Deps, actor: Actor, id: string): Promise<void> {
  assertAdmin(actor);
  const root = (await deps.repos.trustRoots.list()).find((r) => r.id === id);
  if (!root || !(await deps.repos.trustRoots.remove(id))) throw new NotFound(TRUST_ROOT_TEXTS.notFound);
  await deps.repos.caps.give(PLATFORM, TRUST_ROOTS_CAP);
  await recordChange(deps, actor, {
    action: "ca_root.remove",
    target_type: "ca_root",
    target_id: id,
    target_label: root.subject,
    before: viewOf(root),
    after: null,
  });
}
