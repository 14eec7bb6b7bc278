// Normative documents (docs/user-guide.md, /documents): the shipped catalogue merged with what admins stored.
// A catalogue entry needs no stored item until an admin edits it or uploads its PDF; then the stored
// item (same id) wins. Files live in the blob store under documents/{generated id}: ids only, never
// the uploaded file's name, so keys cannot collide or leave their prefix.
import type { Actor, Deps } from "../context";
import { Conflict, invalidAt, NotFound, UnsupportedMedia } from "../errors";
import { newId } from "../ids";
import { checkPdf, isPdf, PDF_TYPE } from "../files/uploads";
import { storedFile, type StoredFile } from "../files/stored-file";
import { checkDeclared, checkStored, confirmStored, discardUnlessRegistered, grantUpload, verifyUploadId } from "../files/direct-uploads";
import type { UploadGrant, UploadRequest } from "../files/direct-uploads";
import { CATALOGUE, catalogueEntry } from "../../documents/catalogue";
import { DOCUMENT_KINDS, type DocumentCreateInput, type DocumentPatchInput } from "../../contract/schemas/document";
import type { NormativeDocument, StoredPdf } from "../../ports";
import type { DocumentView } from "../../contract/views";
import { assertAdmin, recordChange } from "../audit";
import { patched } from "../patched";
import { LIMITS } from "../../contract/schemas/limits";

export interface UploadedPdf {
  name: string;
  bytes: Uint8Array;
}

const SEEDED_AT = "2026-01-01T00:00:00.000Z";

function fromCatalogue(id: string): NormativeDocument | undefined {
  const entry = catalogueEntry(id);
  if (!entry) return undefined;
  return {
    id: entry.id,
    title: entry.title,
    number: entry.number,
    date: entry.date,
    kind: entry.kind,
    issuer: entry.issuer,
    source_url: entry.source_url,
    source_label: entry.source_label,
    is_deleted: false,
    // Version 0: not stored yet; the first write creates the item.
    version: 0,
    created_at: SEEDED_AT,
    updated_at: SEEDED_AT,
    updated_by: "system",
  };
}

export function documentView(doc: NormativeDocument): DocumentView {
  return {
    id: doc.id,
    title: doc.title,
    number: doc.number,
    date: doc.date,
    kind: doc.kind,
    kind_label: DOCUMENT_KINDS[doc.kind] ?? doc.kind,
    issuer: doc.issuer ?? "",
    source_url: doc.source_url,
    source_label: doc.source_label,
    catalogue: catalogueEntry(doc.id) !== undefined,
    file: doc.file ? { name: doc.file.name, size: doc.file.size, uploaded_at: doc.file.uploaded_at } : null,
    download_url: doc.file ? `/api/v1/documents/${encodeURIComponent(doc.id)}/download/` : null,
    is_deleted: doc.is_deleted,
    version: doc.version,
    updated_at: doc.updated_at,
  };
}

async function allDocuments(deps: Deps): Promise<NormativeDocument[]> {
  const stored = new Map((await deps.repos.documents.list()).map((d) => [d.id, d]));
  const shipped = CATALOGUE.map((entry) => stored.get(entry.id) ?? fromCatalogue(entry.id)!);
  const added = [...stored.values()].filter((d) => !catalogueEntry(d.id)).sort((a, b) => a.created_at.localeCompare(b.created_at));
  return [...shipped, ...added];
}

/** /documents: what every signed-in user sees (removed documents are hidden). */
export async function listDocuments(deps: Deps): Promise<DocumentView[]> {
  return (await allDocuments(deps)).filter((d) => !d.is_deleted).map(documentView);
}

/** /admin: every document, removed ones too (they can be restored). */
export async function listDocumentsAsAdmin(deps: Deps, actor: Actor): Promise<DocumentView[]> {
  assertAdmin(actor);
  return (await allDocuments(deps)).map(documentView);
}

async function currentDocument(deps: Deps, id: string): Promise<NormativeDocument> {
  const doc = (await deps.repos.documents.get(id)) ?? fromCatalogue(id);
  if (!doc) throw new NotFound("Документ не найден");
  return doc;
}

/** Life of a presigned document download (AWS): the page navigates to it at once. */
export const DOCUMENT_URL_SECONDS = 5 * 60;

export async function getDocumentFile(deps: Deps, id: string): Promise<StoredFile> {
  const doc = await currentDocument(deps, id);
  if (doc.is_deleted) throw new NotFound("Документ не найден");
  if (!doc.file) throw new NotFound("Файл документа не загружен");
  const base = [doc.number, doc.title].filter(Boolean).join(" ").slice(0, LIMITS.name.documentDownload);
  const file = await storedFile(deps.blobs, doc.file.key, `${base || "Документ"}.pdf`, DOCUMENT_URL_SECONDS);
  if (!file) throw new NotFound("Файл документа не найден в хранилище");
  return file;
}

async function storePdf(deps: Deps, actor: Actor, file: UploadedPdf): Promise<StoredPdf> {
  checkPdf(file.bytes, deps.config.documentMaxBytes);
  const key = `documents/${newId()}`;
  await deps.blobs.put(key, file.bytes, PDF_TYPE);
  return {
    key,
    // Kept for display only; the key never contains it.
    name: file.name.slice(0, LIMITS.name.file) || "document.pdf",
    size: file.bytes.byteLength,
    uploaded_at: deps.clock.now().toISOString(),
    uploaded_by: actor.email,
  };
}

/** Removes a new blob whose item could not be written. A direct upload passes its own: the same key
 *  may have been registered by a concurrent completion of the same upload_id. */
type Discard = (file: StoredPdf) => Promise<void>;

/** Writes the item; on a failed write the new blob is removed, after a good one the replaced blob. */
async function save(
  deps: Deps,
  next: NormativeDocument,
  expectedVersion: number,
  newFile?: StoredPdf,
  oldFile?: StoredPdf,
  discard: Discard = (file) => deps.blobs.delete(file.key),
) {
  try {
    await deps.repos.documents.put(next, expectedVersion);
  } catch (error) {
    if (newFile) await discard(newFile);
    throw error;
  }
  if (newFile && oldFile && oldFile.key !== newFile.key) await deps.blobs.delete(oldFile.key);
}

const audited = (doc: NormativeDocument) => {
  const { file, ...rest } = doc;
  return { ...rest, file: file ? { key: file.key, name: file.name, size: file.size, uploaded_at: file.uploaded_at } : null };
};

export async function createDocument(deps: Deps, actor: Actor, meta: DocumentCreateInput, file: UploadedPdf): Promise<DocumentView> {
  assertAdmin(actor);
  const stored = await storePdf(deps, actor, file);
  return registerNewDocument(deps, actor, newId(), meta, stored);
}

/** Writes a new document whose PDF is already in the store (on failure the PDF is removed). */
async function registerNewDocument(
  deps: Deps,
  actor: Actor,
  id: string,
  meta: DocumentCreateInput,
  stored: StoredPdf,
  discard?: Discard,
): Promise<DocumentView> {
  const now = deps.clock.now().toISOString();
  const doc: NormativeDocument = {
    id,
    title: meta.title,
    number: meta.number ?? "",
    date: meta.date ?? "",
    kind: meta.kind,
    issuer: meta.issuer ?? "",
    source_url: meta.source_url ?? "",
    source_label: meta.source_label ?? "",
    file: stored,
    is_deleted: false,
    version: 1,
    created_at: now,
    updated_at: now,
    updated_by: actor.email,
  };
  await save(deps, doc, 0, stored, undefined, discard);
  await recordDocumentChange(deps, actor, "document.create", null, doc);
  return documentView(doc);
}

export async function replaceDocumentFile(
  deps: Deps,
  actor: Actor,
  id: string,
  file: UploadedPdf,
  expectedVersion?: number,
): Promise<DocumentView> {
  assertAdmin(actor);
  const current = await currentDocument(deps, id);
  if (expectedVersion !== undefined && expectedVersion !== current.version) throw staleDocument();
  const stored = await storePdf(deps, actor, file);
  return registerReplacedFile(deps, actor, current, stored);
}

/** Points an existing document at a PDF already in the store; the replaced PDF is deleted after. */
async function registerReplacedFile(
  deps: Deps,
  actor: Actor,
  current: NormativeDocument,
  stored: StoredPdf,
  discard?: Discard,
): Promise<DocumentView> {
  const next: NormativeDocument = {
    ...current,
    file: stored,
    version: current.version + 1,
    updated_at: deps.clock.now().toISOString(),
    updated_by: actor.email,
  };
  await save(deps, next, current.version, stored, current.file, discard);
  await recordDocumentChange(deps, actor, current.file ? "document.replace" : "document.upload", current, next);
  return documentView(next);
}

/** Edits metadata, or removes (is_deleted: true — the file is kept) and restores. */
export async function updateDocument(deps: Deps, actor: Actor, id: string, patch: DocumentPatchInput): Promise<DocumentView> {
  assertAdmin(actor);
  const current = await currentDocument(deps, id);
  if (patch.version !== undefined && patch.version !== current.version) throw staleDocument();
  const next: NormativeDocument = {
    ...current,
    ...patched(current, patch, ["title", "number", "date", "kind", "issuer", "source_url", "source_label", "is_deleted"]),
    version: current.version + 1,
    updated_at: deps.clock.now().toISOString(),
    updated_by: actor.email,
  };
  await save(deps, next, current.version);
  const action = next.is_deleted !== current.is_deleted ? (next.is_deleted ? "document.remove" : "document.restore") : "document.update";
  await recordDocumentChange(deps, actor, action, current, next);
  return documentView(next);
}

/** The /admin change log entry of a document change: the document before (null when new) and after. */
function recordDocumentChange(deps: Deps, actor: Actor, action: string, before: NormativeDocument | null, after: NormativeDocument) {
  return recordChange(deps, actor, {
    action,
    target_type: "document",
    target_id: after.id,
    target_label: [after.number, after.title].filter(Boolean).join(" "),
    before: before && audited(before),
    after: audited(after),
  });
}

// ---- direct uploads (one flow for AWS and the local host; functions/src/http/UPLOADS.md) ----

export interface DocumentUploadRequest extends UploadRequest {
  /** An existing document whose PDF is replaced; absent: a new document (metadata at completion). */
  document?: string;
  /** The version the admin sees: a stale one is refused before the file travels. */
  version?: number;
}

/** POST v1/admin/documents/upload-url/: where to PUT a PDF (≤ documentMaxBytes, application/pdf). */
export async function documentUploadUrl(deps: Deps, actor: Actor, request: DocumentUploadRequest): Promise<UploadGrant> {
  assertAdmin(actor);
  const max = deps.config.documentMaxBytes;
  const contentType = checkDeclared(request, [PDF_TYPE], max, "Ожидается файл PDF (content_type application/pdf)");
  let document = newId();
  if (request.document !== undefined) {
    const current = await currentDocument(deps, request.document);
    if (request.version !== undefined && request.version !== current.version) throw staleDocument();
    document = current.id;
  }
  return grantUpload(
    deps,
    actor,
    { purpose: "document", document, create: request.document === undefined },
    { key: `documents/${newId()}`, contentType, max, size: request.size, name: request.name },
  );
}

export interface DocumentCompletion {
  upload_id: string;
  /** Replacing: the version the admin saw. */
  version?: number;
  /** A new document: its metadata, validated field by field by the route (title and kind required here). */
  meta?: Partial<DocumentCreateInput>;
}

function newDocumentMeta(meta: Partial<DocumentCreateInput> | undefined): DocumentCreateInput {
  if (!meta?.title) throw invalidAt("title", "заполните поле");
  if (!meta.kind) throw invalidAt("kind", "выберите вид документа");
  return { ...meta, title: meta.title, kind: meta.kind };
}

/** POST v1/admin/documents/complete/: the uploaded PDF checked by its size and first bytes, then a
 *  new document created or the existing one pointed at it (with the audit entry of the multipart
 *  routes). A refusal deletes the uploaded object. Completing twice answers the same document. */
export async function completeDocumentUpload(
  deps: Deps,
  actor: Actor,
  completion: DocumentCompletion,
): Promise<{ document: DocumentView; created: boolean }> {
  assertAdmin(actor);
  const claims = await verifyUploadId(deps, actor, completion.upload_id, "document");
  const registeredDocument = async () => {
    const doc = await deps.repos.documents.get(claims.document);
    return doc?.file?.key === claims.key ? doc : undefined;
  };
  const registered = async () => (await registeredDocument()) !== undefined;
  const already = await registeredDocument();
  if (already) return { document: documentView(already), created: false };
  const discard = () => discardUnlessRegistered(deps, claims.key, registered);
  try {
    const meta = claims.create ? newDocumentMeta(completion.meta) : undefined;
    const current = claims.create ? undefined : await currentDocument(deps, claims.document);
    if (current && completion.version !== undefined && completion.version !== current.version) throw staleDocument();
    const stored = await checkStored(deps, claims, deps.config.documentMaxBytes, (head) => {
      if (!isPdf(head)) throw new UnsupportedMedia("Ожидается файл PDF");
    });
    await confirmStored(deps, claims.key);
    const pdf: StoredPdf = {
      key: claims.key,
      name: claims.name || "document.pdf",
      size: stored.size,
      uploaded_at: deps.clock.now().toISOString(),
      uploaded_by: actor.email,
    };
    if (meta) return { document: await registerNewDocument(deps, actor, claims.document, meta, pdf, discard), created: true };
    return { document: await registerReplacedFile(deps, actor, current!, pdf, discard), created: false };
  } catch (error) {
    // The same upload_id completed twice at once: the other call registered the file.
    const winner = await registeredDocument();
    if (winner) return { document: documentView(winner), created: false };
    await discard();
    throw error;
  }
}

/** The refusal of a change made to a version of a document that someone else has changed since: the
 *  domain's when it reads another version first, the storage adapters' when their conditional write fails. */
export const STALE_DOCUMENT = "Документ уже изменен другим пользователем. Обновите страницу и повторите.";
const staleDocument = () => new Conflict(STALE_DOCUMENT);
