// КЭП of a climate project's period: the executor signs, in the tool they already use
// (CryptoPro, КриптоАРМ), one file the platform offers, and brings the detached CMS signature back.
//
// The file signed is the period's verifier's pack's manifest.json (export/climate-pack.ts
// `climatePackManifest`, handed in by the caller as `payload`: the pack is a layer above the domain),
// not the report's PDF alone: it names every file of the pack — the report, each meter's readings, the
// hourly tables, the deviations, the totals — by its SHA-256, so one signature binds the executor to
// the figures and to the data a verifier recomputes them from; the verifier checks it in their own tool
// against manifest.json, and verify.py checks each file against the manifest. The pack is made from
// what the period stored, so the manifest is the same bytes for the same period state; the pack
// carries the signatures over its manifest as it is (kep/manifest.json.N.sig).
//
// The check (docs/security.md): the signature must be over exactly these bytes (OpenSSL's cms -verify
// with the GOST engine, adapters/signing/gost-cms.ts, or the same in TypeScript where there is no
// such OpenSSL, gost-native.ts), by a GOST R 34.10-2012 key, with a certificate valid now (the
// moment the platform receives it is the latest it can have been made: a signature
// whose certificate has expired is refused even if its stated signing time is earlier, since that time
// is the signer's own clock) and, where the signature states a signing time, valid then too; the chain
// to the CA certificates the administrator loaded (trust-roots.ts), or «не проверена» where none is.
import { createHash } from "node:crypto";
import { dateText, zoneOf } from "@core/company-clock";
import { LIMITS } from "../../contract/schemas/limits";
import type { ChainState, ClimatePeriodRecord, ClimateProject, ClimateSignatureRecord, Company } from "../../ports";
import { recordChange } from "../audit";
import type { Actor, Deps } from "../context";
import { Conflict, Invalid, invalidAt, TooLarge, Unavailable } from "../errors";
import { newId } from "../ids";
import { getPeriodOfProject } from "./projects";
import { trustRootPems } from "./trust-roots";

export const SIGNATURE_TEXTS = {
  empty: "Файл подписи пуст: выберите файл .sig (.p7s), сохраненный КриптоПро или КриптоАРМ",
  tooLarge: `Файл подписи больше ${Math.round(LIMITS.climate.signatureBytes / 1024)} КБ: это не отсоединенная подпись`,
  notCms: "Это не подпись CMS: ожидается отсоединенная подпись (.sig, .p7s) в DER, PEM или base64, как ее сохраняют КриптоПро и КриптоАРМ",
  content:
    "Подпись сделана не над этим файлом: подпишите файл, который выдает «Скачать файл для подписи», не меняя его, и сохраните отсоединенную подпись",
  broken: "Подпись повреждена: ее значение или структура не сходится с сертификатом подписанта",
  notGost: "Подпись сделана не по ГОСТ Р 34.10-2012: квалифицированная электронная подпись делается ключом ГОСТ 2012",
  unavailable: "Проверка КЭП недоступна на этом сервере: нет OpenSSL с движком ГОСТ (пакет libengine-gost-openssl)",
  duplicate: "Этот файл уже подписан этим сертификатом: подпись сохранена у периода раньше",
  tooMany: `У периода уже ${LIMITS.climate.signaturesPerPeriod} подписей`,
  chainUnchecked: "цепочка не проверена: корневые сертификаты не загружены",
  stale: "подпись к прежней версии файла: период или его отчет изменились после подписания, в пакет она не входит",
} as const;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export interface SignedFile {
  file_name: string;
  bytes: Uint8Array;
}

/** The file to sign for the period, as the caller makes it (the pack's manifest). */
export type Payload = () => Promise<SignedFile>;

/** The period (404 for another company's or a missing one, as GET …/periods/{p}/). */
export async function periodOf(deps: Deps, actor: Actor, projectId: string, periodId: string) {
  const { project, record } = await getPeriodOfProject(deps, actor, projectId, periodId);
  return { project, record };
}

/** The signature's DER from the file as saved: DER as is; PEM (any BEGIN label) or bare base64 decoded. */
export function signatureDer(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 0) throw invalidAt("file_data", SIGNATURE_TEXTS.empty);
  if (bytes[0] === 0x30) return bytes;
  const text = new TextDecoder("latin1").decode(bytes).trim();
  const pem = /-----BEGIN [A-Z0-9 ]+-----([\s\S]*?)-----END [A-Z0-9 ]+-----/.exec(text);
  const body = (pem ? pem[1] : text).replace(/\s+/g, "");
  if (!body || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw invalidAt("file_data", SIGNATURE_TEXTS.notCms);
  const der = new Uint8Array(Buffer.from(body, "base64"));
  if (der[0] !== 0x30) throw invalidAt("file_data", SIGNATURE_TEXTS.notCms);
  return der;
}

/** A kept signature as listed: never its bytes; `current` whether it is over the file offered now
 *  (the pack carries only those, export/climate-pack.ts). */
export function signatureView(record: ClimateSignatureRecord, currentSha256: string, executor?: Pick<Company, "inn" | "ogrn">) {
  const { company: _c, signature_base64: _s, ...rest } = record;
  return { ...rest, current: record.file_sha256 === currentSha256, warnings: certificateWarnings(record.signer, executor) };
}

/** what the card warns of — a certificate whose ИНН or ОГРН is not the executor's
 *  (its requisites as they are now), and a self-signed one (issued by its own subject, no CA's). */
export function certificateWarnings(signer: ClimateSignatureRecord["signer"], executor?: Pick<Company, "inn" | "ogrn">): string[] {
  const warnings: string[] = [];
  // An organisation's ИНН: ИНН ЮЛ, or a 10-digit ИНН (a person's has 12 digits: the employee's own).
  const inns = [signer.inn_le, signer.inn?.length === 10 ? signer.inn : undefined].filter((v): v is string => Boolean(v));
  if (executor?.inn && inns.length > 0 && !inns.includes(executor.inn)) {
    warnings.push(`ИНН в сертификате (${inns.join(", ")}) не ИНН исполнителя (${executor.inn})`);
  }
  if (executor?.ogrn && signer.ogrn && signer.ogrn !== executor.ogrn) {
    warnings.push(`ОГРН в сертификате (${signer.ogrn}) не ОГРН исполнителя (${executor.ogrn})`);
  }
  if (executor && !signer.inn_le && !signer.ogrn)
    warnings.push("в сертификате нет ИНН ЮЛ и ОГРН: это не сертификат организации исполнителя");
  if (signer.issuer === signer.common_name) {
    warnings.push("сертификат самоподписанный: выдан самим подписантом, а не удостоверяющим центром");
  }
  return warnings;
}
export type ClimateSignatureView = ReturnType<typeof signatureView>;

/** The chain's state in words, as the screen and the change log say it. */
export function chainText(chain: ChainState): string {
  if (chain.state === "verified") return "цепочка проверена: до загруженного корневого сертификата";
  if (chain.state === "failed") return `цепочка не подтверждена: ${chain.reason}`;
  return SIGNATURE_TEXTS.chainUnchecked;
}

/** the period found (404) and its signatures counted (none of their bodies read)
 *  before a signature's form is read: a period at its cap refuses an upload for the price of a count
 *  (it once read every kept signature, bodies and all, after the form: about 6 reads' cost). */
export async function signatureRoom(deps: Deps, actor: Actor, projectId: string, periodId: string): Promise<void> {
  const { project, record } = await periodOf(deps, actor, projectId, periodId);
  if ((await deps.repos.climateSignatures.count(actor.company, project.id, record.id)) >= LIMITS.climate.signaturesPerPeriod) {
    throw new Invalid(SIGNATURE_TEXTS.tooMany);
  }
}

/** Keeps `record` in the period's next free place: a place another upload took meanwhile is looked for
 *  again (the period's signatures read anew), past the cap refused. */
async function keepInPlace(deps: Deps, record: ClimateSignatureRecord, place: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (place >= LIMITS.climate.signaturesPerPeriod) throw new Invalid(SIGNATURE_TEXTS.tooMany);
    try {
      await deps.repos.climateSignatures.add(record, place);
      return;
    } catch (error) {
      if (!(error instanceof Conflict) || attempt >= PLACE_ATTEMPTS) throw error;
      place = (await deps.repos.climateSignatures.list(record.company, record.project, record.period)).length;
    }
  }
}
/** Uploads at once for the last places: each that loses a place looks again this many times. */
const PLACE_ATTEMPTS = 8;

/** POST …/periods/{p}/signatures/: the detached signature checked against the signed manifest and kept. */
export async function addClimateSignature(
  deps: Deps,
  actor: Actor,
  projectId: string,
  periodId: string,
  file: { name: string; bytes: Uint8Array } | undefined,
  payload: Payload,
): Promise<ClimateSignatureView> {
  if (!file) throw invalidAt("file_data", SIGNATURE_TEXTS.empty);
  if (file.bytes.length > LIMITS.climate.signatureBytes) throw new TooLarge(SIGNATURE_TEXTS.tooLarge);
  const der = signatureDer(file.bytes);
  const { project, record: period } = await periodOf(deps, actor, projectId, periodId);
  const kept = await deps.repos.climateSignatures.list(actor.company, project.id, period.id);
  if (kept.length >= LIMITS.climate.signaturesPerPeriod) throw new Invalid(SIGNATURE_TEXTS.tooMany);
  if (!deps.gostCms) throw new Unavailable(SIGNATURE_TEXTS.unavailable);
  const made = await payload();
  const signed = { ...made, sha256: sha256(made.bytes) };
  const signatureBase64 = Buffer.from(der).toString("base64");
  const now = deps.clock.now();
  const check = await deps.gostCms.verify({ signature: der, content: signed.bytes, roots: await trustRootPems(deps), at: now });
  if (!check.ok) {
    if (check.reason === "unavailable") throw new Unavailable(SIGNATURE_TEXTS.unavailable);
    throw invalidAt("file_data", check.reason === "content" ? SIGNATURE_TEXTS.content : SIGNATURE_TEXTS.broken);
  }
  if (check.algorithm === "other") throw invalidAt("file_data", SIGNATURE_TEXTS.notGost);
  const company = await deps.repos.companies.get(actor.company);
  const zone = zoneOf(company);
  const { signer } = check;
  const validity = `${dateText(signer.valid_from, zone)} – ${dateText(signer.valid_to, zone)}`;
  if (Date.parse(signer.valid_to) < now.getTime()) {
    throw invalidAt(
      "file_data",
      `срок действия сертификата подписанта истек ${dateText(signer.valid_to, zone)} (действовал ${validity}): подпись таким сертификатом недействительна`,
    );
  }
  if (Date.parse(signer.valid_from) > now.getTime()) {
    throw invalidAt("file_data", `сертификат подписанта начинает действовать только ${dateText(signer.valid_from, zone)}`);
  }
  if (check.signing_time) {
    const at = Date.parse(check.signing_time);
    if (at < Date.parse(signer.valid_from) || at > Date.parse(signer.valid_to)) {
      throw invalidAt(
        "file_data",
        `подпись поставлена ${dateText(check.signing_time, zone)}, вне срока действия сертификата (${validity})`,
      );
    }
  }
  if (kept.some((k) => k.signer.fingerprint_sha256 === signer.fingerprint_sha256 && k.file_sha256 === signed.sha256)) {
    throw new Conflict(SIGNATURE_TEXTS.duplicate);
  }
  if (check.chain.state === "failed") {
    throw invalidAt("file_data", `сертификат подписанта не подтвержден загруженными корневыми сертификатами: ${check.chain.reason}`);
  }
  const record: ClimateSignatureRecord = {
    id: newId(),
    company: actor.company,
    project: project.id,
    period: period.id,
    file_name: signed.file_name,
    file_sha256: signed.sha256,
    signer,
    ...(check.signing_time ? { signing_time: check.signing_time } : {}),
    chain: check.chain,
    signature_base64: signatureBase64,
    created_at: now.toISOString(),
    created_by: actor.email,
  };
  await keepInPlace(deps, record, kept.length);
  await recordChange(
    deps,
    actor,
    {
      action: "climate_signature.create",
      target_type: "climate_signature",
      target_id: record.id,
      target_label: signed.file_name,
      before: null,
      after: {
        file_name: signed.file_name,
        file_sha256: signed.sha256,
        signer: signer.common_name,
        organization: signer.organization ?? "",
        certificate: `${validity}, серийный номер ${signer.serial}, издатель ${signer.issuer}`,
        chain: chainText(check.chain),
      },
    },
    actor.company,
  );
  return signatureView(record, signed.sha256, company);
}

/** the SHA-256 of the file to sign, kept by what it is made from — the period's
 *  version (its figures, approval and flags), the project's, the report's hand-written version and the
 *  requisites, facility, points and register its report prints — so that listing the signatures makes
 *  the pack's manifest only when one of them changed (it reads every meter's minutes and renders the
 *  report: 1,8 s median a listing before). */
async function payloadSha256(
  deps: Deps,
  actor: Actor,
  project: ClimateProject,
  record: ClimatePeriodRecord,
  company: Company | undefined,
  payload: Payload,
): Promise<string> {
  const [hand, facility, points, sensors] = await Promise.all([
    deps.repos.climateProjects.getReportHand(actor.company, project.id, record.id),
    deps.repos.facilities.get(actor.company, project.facility),
    deps.repos.emissionPoints.listOfFacility(actor.company, project.facility),
    deps.repos.sensors.listOfFacility(actor.company, project.facility),
  ]);
  const basis = JSON.stringify({
    period: [record.version, record.approval?.sha256 ?? null],
    project: project.version,
    hand: hand?.version ?? 0,
    company,
    facility,
    points,
    sensors,
  });
  const key = `climate/${actor.company}/${project.id}/${record.id}.payload/${sha256(new TextEncoder().encode(basis))}`;
  const kept = await deps.blobs.get(key);
  if (kept) return new TextDecoder().decode(kept.body);
  const current = sha256((await payload()).bytes);
  await deps.blobs.put(key, new TextEncoder().encode(current), "text/plain");
  return current;
}

/** GET …/periods/{p}/signatures/: the period's kept signatures, the earliest first, each marked
 *  whether it is over the file `payload` makes now. A signature stays with the period when the period
 *  or its report changes after it (a hand field of the report written, the period computed again, its
 *  approval): it is then over an earlier manifest, which the list says («подпись к прежней версии
 *  файла») instead of showing it as valid. The file is made only when there is a signature to compare. */
export async function listClimateSignatures(
  deps: Deps,
  actor: Actor,
  projectId: string,
  periodId: string,
  payload: Payload,
): Promise<ClimateSignatureView[]> {
  const { project, record } = await periodOf(deps, actor, projectId, periodId);
  const kept = await deps.repos.climateSignatures.list(actor.company, project.id, record.id);
  if (kept.length === 0) return [];
  const company = await deps.repos.companies.get(actor.company);
  const current = await payloadSha256(deps, actor, project, record, company, payload);
  return kept.map((k) => signatureView(k, current, company));
}
