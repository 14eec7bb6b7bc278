// THE API client. Every server call of the web app goes through here: JSON calls through
// `typedClient` (typed from the server's route declarations), files through `api`. Both add the
// bearer token (refreshing an expired one first), turn error bodies {"detail": "..."} into ApiError,
// count pending requests for the global «Loading ...» indicator, and report any 401 so the session
// can be cleared (docs/user-guide.md).
import type { ClientRequestOptions, hc } from "hono/client";
import type { DownloadLinkView, ExportJobView, Mount, RoutesOf } from "@server/contract";
import { isTokenValid, readAccessToken, readRefreshToken, storeTokens } from "./tokens";
import type { FieldProblem } from "@server/contract/field-errors";

const BASE = "/api/";
// Refresh a little before expiry so the token cannot lapse between our check and the server's.
const EXPIRY_MARGIN_SECONDS = 10;

export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  /** Machine code next to detail, e.g. "guardant_required" on login. */
  readonly code?: string;
  /** A 400's problems at their fields, as the server lists them (contract/field-errors.ts). */
  readonly errors?: readonly FieldProblem[];

  constructor(status: number, detail: string, code?: string, errors?: readonly FieldProblem[]) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.errors = errors;
  }
}

/** The answer's `errors` when each is a problem as the contract gives it, else undefined. */
function problemsIn(value: unknown): FieldProblem[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const isProblem = (p: unknown): p is FieldProblem => {
    const { field, code, message, params } = (p ?? {}) as Partial<FieldProblem>;
    return (
      typeof field === "string" && typeof code === "string" && typeof message === "string" && typeof params === "object" && params !== null
    );
  };
  return value.every(isProblem) ? value : undefined;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

// ---- hooks the app installs (the client knows nothing about React or the router) ----

interface ClientHooks {
  /** Called on any 401 and on a failed refresh: the session is over. */
  onUnauthorized(): void;
  /** Called after a silent refresh produced a new access token. */
  onAccessToken(access: string): void;
}

let hooks: ClientHooks = { onUnauthorized: () => {}, onAccessToken: () => {} };

export function configureClient(next: ClientHooks): void {
  hooks = next;
}

// ---- pending-request counter (an external store for useSyncExternalStore) ----

let pending = 0;
const pendingListeners = new Set<() => void>();

function changePending(delta: number): void {
  pending += delta;
  for (const listener of pendingListeners) listener();
}

export const pendingRequests = {
  get: (): number => pending,
  subscribe(listener: () => void): () => void {
    pendingListeners.add(listener);
    return () => pendingListeners.delete(listener);
  },
};

// ---- token refresh: one request at a time, shared by everyone waiting ----

let refreshing: Promise<string> | null = null;

/** Exchanges the stored refresh token for a new access token; on failure the session ends. */
export function refreshAccessToken(): Promise<string> {
  refreshing ??= doRefresh().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function doRefresh(): Promise<string> {
  const refresh = readRefreshToken();
  try {
    if (!refresh) throw new ApiError(401, "Сеанс завершен, войдите снова");
    // The answer may carry the next refresh token (the one sent is then retired), or none when
    // another tab has just rotated it and stored its own.
    const next = await post<{ access: string; refresh?: string }>("token/refresh/", { token: refresh });
    const { access } = next;
    if (typeof access !== "string" || !isTokenValid(access)) throw new ApiError(401, "Сеанс завершен, войдите снова");
    storeTokens(access, typeof next.refresh === "string" ? next.refresh : undefined);
    hooks.onAccessToken(access);
    return access;
  } catch (error) {
    hooks.onUnauthorized();
    throw error instanceof ApiError ? error : new ApiError(401, "Сеанс завершен, войдите снова");
  }
}

async function accessToken(): Promise<string> {
  const access = readAccessToken();
  if (access && isTokenValid(access, undefined, EXPIRY_MARGIN_SECONDS)) return access;
  return refreshAccessToken();
}

/** fetch, a failure to reach the server an ApiError (status 0) like any other answer. */
async function reach(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch {
    throw new ApiError(0, "Нет связи с сервером. Проверьте подключение и повторите попытку.");
  }
}

/** A bearer call's refused answer as ApiError; a 401 is reported (the session is over). */
function refusal(status: number, text: string): ApiError {
  const error = errorFromBody(status, text);
  if (error.status === 401) hooks.onUnauthorized();
  return error;
}

// ---- the two calls made without a bearer token: sign in and refresh ----

/** POST of JSON without a token; an error answer (a 401 too) is only thrown, never reported. */
async function post<T>(path: string, body: unknown): Promise<T> {
  changePending(+1);
  try {
    const response = await reach(BASE + path, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw errorFromBody(response.status, text);
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(response.status, "Сервер вернул неожиданный ответ");
    }
  } finally {
    changePending(-1);
  }
}

/** Parses {"detail": "...", "code"?: "..."}; anything else (a proxy's HTML page) gets a plain message. */
export function errorFromBody(status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { detail?: unknown; code?: unknown; errors?: unknown };
    if (body && typeof body.detail === "string" && body.detail) {
      return new ApiError(status, body.detail, typeof body.code === "string" ? body.code : undefined, problemsIn(body.errors));
    }
  } catch {
    // not JSON: fall through
  }
  return new ApiError(status, `Ошибка сервера (${status})`);
}

// ---- typed clients: paths, inputs and answers from the server's route declarations ----

/** The fetch of the typed clients, doing what every call here does: the bearer token (refreshed
 *  first), the pending counter, an error body as ApiError, a 401 reported. */
async function authorizedFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const token = await accessToken();
  const headers = new Headers(init.headers);
  headers.set("Accept", "application/json");
  headers.set("Authorization", `Bearer ${token}`);
  changePending(+1);
  try {
    const response = await reach(input, { ...init, headers });
    if (!response.ok) throw refusal(response.status, await response.text());
    return response;
  } finally {
    changePending(-1);
  }
}

/** A bearer GET whose answer the caller reads itself (an earlier round's live tiles): a server-sent stream,
 *  left out of the pending counter as it stays open, or a poll with If-None-Match, whose 304 is no
 *  error. Other refusals throw ApiError, a 401 reported. */
export async function bearerGet(path: string, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
  const token = await accessToken();
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${token}`);
  const response = await reach(BASE + path, { headers, signal: init.signal });
  if (!response.ok && response.status !== 304) throw refusal(response.status, await response.text());
  return response;
}

/** hono/client's client of a group of the contract's mount table (functions/src/contract/mounts.ts). */
export type Client<M extends Mount> = ReturnType<typeof hc<RoutesOf<M>>>;

/** Calls through a client typed from a group of the mount table, at its prefix under /api/:
 *  `const projects = typedClient("projects")`, then
 *  `projects((c) => c[":id"].$get({ param: { id } }))` answers the route's declared JSON. The
 *  prefix is the mount table's, so it is written once. hono/client and the table are loaded with
 *  the first call, so they stay out of every page's initial JavaScript (tests/web/bundle.test.ts). */
export function typedClient<M extends Mount>(mount: M) {
  let client: Promise<Client<M>> | undefined;
  return async <T>(call: (client: Client<M>) => Promise<{ json(): Promise<T>; text(): Promise<string>; status: number }>): Promise<T> => {
    client ??= Promise.all([import("hono/client"), import("@server/contract/mounts")]).then(([{ hc }, { MOUNTS }]) =>
      hc<RoutesOf<M>>(BASE + MOUNTS[mount].prefix.slice(1), { fetch: authorizedFetch }),
    );
    const response = await call(await client);
    const text = await response.text();
    // docs/user-guide.md: an empty body is a failure («Data not found»): every route declares a JSON answer.
    if (!text) throw new ApiError(response.status, "Данные не найдены");
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(response.status, "Сервер вернул неожиданный ответ");
    }
  };
}

/** The address under /api/ of a declared route, for the calls that carry a file rather than JSON
 *  (api.upload, api.download), its path and parameters typed like typedClient's calls:
 *  `api.download(await routePath("calculations", (c) => c[":type"][":id"].file.$path({ param: { type, id } })))`.
 *  The prefix is the mount table's, so no `…` is written by hand. */
export async function routePath<M extends Mount>(mount: M, path: (client: Client<M>) => string): Promise<string> {
  const [{ hc }, { MOUNTS }] = await Promise.all([import("hono/client"), import("@server/contract")]);
  const prefix = MOUNTS[mount].prefix.slice(1);
  // With the trailing slash docs/api.md writes, as every call of the app has always sent it.
  const [route, query] = path(hc<RoutesOf<M>>(BASE + prefix)).split("?");
  return `${prefix}${route.replace(/\/?$/, "/")}${query ? `?${query}` : ""}`;
}

/** Path parameters as a URL carries them: hono/client puts them in as given, and an id may hold
 *  any character. */
export const encoded = <P extends Record<string, string>>(param: P): P =>
  Object.fromEntries(Object.entries(param).map(([name, value]) => [name, encodeURIComponent(value)])) as P;

/** A JSON body a route declares as a JSON schema rather than with zod (a calculation's body per
 *  type, an optional body the handler reads itself), which hc cannot type: sent as it is, through
 *  the request options, e.g. `c[":type"].$post({ param: { type } }, jsonBody(body))`. */
export const jsonBody = (body: unknown): ClientRequestOptions => ({
  headers: { "Content-Type": "application/json" },
  init: { body: JSON.stringify(body) },
});

/** Page `page` (from 1) of a list, `size` rows a page, as the query of a list call. */
export const pageQuery = (page: number, size: number) => ({ limit: String(size), offset: String((page - 1) * size) });

/** The active or the archived rows of a list, page `page`: docs/api.md, both lists ask for
 *  is_active=true, and is_deleted tells the active from the archived. */
export const archiveListQuery = (archived: boolean, page: number, size: number) => ({
  is_active: "true" as const,
  is_deleted: archived ? ("true" as const) : ("false" as const),
  ...pageQuery(page, size),
});

// ---- binary downloads (exports) ----

export interface Download {
  /** Empty when the server handed out a storage address instead of the bytes (`redirectUrl`). */
  blob: Blob;
  /** A large export is stored and offered as a short-lived address the page navigates to. */
  redirectUrl?: string;
  /** From Content-Disposition (the UTF-8 filename* form first); undefined when the server sent none. */
  fileName: string | undefined;
  /** The response headers (e.g. X-Model-Id of a forecast model file). */
  headers: Headers;
}

/** The saved name a Content-Disposition header asks for. */
export function fileNameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // malformed escape: fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(header);
  const name = plain?.[1] ?? plain?.[2]?.trim();
  return name || undefined;
}

/** The files the API may answer with `{download_url, file_name}` instead of the bytes. */
const HANDED_OUT = [
  /\/export_to_/,
  /\/documents\/[^/?]+\/download\/?$/,
  /\/inventory\/\d+\/report\//,
  /\/verifications\/[^/?]+\/certificate\/?$/,
];

/** A file made as a job (near its bound: docs/security.md): where it is, as the server reports it. */
export type FileJob = Pick<ExportJobView, "state" | "progress" | "file_name">;

/** How often a job's state is asked. */
const JOB_POLL_MS = 1_000;

async function awaitJob(
  statusUrl: string,
  token: string,
  onJob?: (job: FileJob) => void,
  failed = "Не удалось подготовить файл",
): Promise<ExportJobView> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
    const response = await reach(BASE + statusUrl, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) throw errorFromBody(response.status, await response.text());
    const job = (await response.json()) as ExportJobView;
    onJob?.({ state: job.state, progress: job.progress, file_name: job.file_name });
    if (job.state === "done") return job;
    if (job.state === "failed") throw new ApiError(409, job.detail ?? failed);
  }
}

/** GET of a file with the bearer token; `onProgress` gets the bytes received so far, `onJob` the
 *  state of a file the server makes as a job (202) until it is done. Error bodies {"detail"}
 *  become ApiError like every other call. */
async function download(path: string, onProgress?: (received: number) => void, onJob?: (job: FileJob) => void): Promise<Download> {
  const token = await accessToken();
  changePending(+1);
  try {
    const response = await reach(BASE + path, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) throw refusal(response.status, await response.text());
    const type = response.headers.get("Content-Type") ?? "application/octet-stream";
    // A large export or report passport, or a document's PDF in AWS: a short-lived storage address instead of the bytes.
    if (type.startsWith("application/json") && HANDED_OUT.some((pattern) => pattern.test(path))) {
      let body = (await response.json()) as ExportJobView | DownloadLinkView;
      // Near its bound: rendered as a job; its state is asked until there is an address or a file.
      if (response.status === 202 && "status_url" in body && body.status_url) {
        onJob?.({ state: body.state, progress: body.progress });
        const done = await awaitJob(body.status_url, token, onJob);
        if (done.file_url) return await download(done.file_url, onProgress);
        body = done;
      }
      if (body.download_url)
        return { blob: new Blob(), redirectUrl: body.download_url, fileName: body.file_name, headers: response.headers };
    }
    const fileName = fileNameFromDisposition(response.headers.get("Content-Disposition"));
    if (!response.body) return { blob: await response.blob(), fileName, headers: response.headers };
    const reader = response.body.getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value as Uint8Array<ArrayBuffer>);
      received += value.byteLength;
      onProgress?.(received);
    }
    return { blob: new Blob(chunks, { type }), fileName, headers: response.headers };
  } finally {
    changePending(-1);
  }
}

// ---- file uploads through the API (calculation files, forecast models: small multipart forms; admin
// PDFs and videos go straight to storage instead, putFile below) ----

/** POST/PUT of a form or a file with the bearer token; the answer is JSON like any other call. The
 *  browser sets the multipart boundary (FormData) and Content-Length itself; `headers` may name the
 *  file's type (a raw video body). */
/** A job the server started for a form (202: a model's training), followed until it is done: its
 *  last state, which names what it made (model_id); a failed job is an ApiError with its reason. */
async function followJob(started: ExportJobView, onJob?: (job: FileJob) => void, failed?: string): Promise<ExportJobView> {
  if (!started.status_url) return started;
  onJob?.({ state: started.state, progress: started.progress });
  const token = await accessToken();
  changePending(+1);
  try {
    return await awaitJob(started.status_url, token, onJob, failed);
  } finally {
    changePending(-1);
  }
}

async function upload<T>(
  method: "POST" | "PUT" | "PATCH",
  path: string,
  body: FormData | Blob,
  headers: Record<string, string> = {},
): Promise<T> {
  const token = await accessToken();
  changePending(+1);
  try {
    const response = await reach(BASE + path, {
      method,
      headers: { Accept: "application/json", Authorization: `Bearer ${token}`, ...headers },
      body,
    });
    const text = await response.text();
    if (!response.ok) throw refusal(response.status, text);
    try {
      return (text ? JSON.parse(text) : undefined) as T;
    } catch {
      throw new ApiError(response.status, "Сервер вернул неожиданный ответ");
    }
  } finally {
    changePending(-1);
  }
}

// ---- direct uploads: the file goes to a URL the server granted (an S3 presigned PUT in AWS, the
// API's own upload route locally), so a 500 MB video never passes through the API (UPLOADS.md) ----

/** What the server answers to a status other than 2xx: {detail} from the API, XML from S3. */
export function storageError(status: number, text: string): ApiError {
  const parsed = errorFromBody(status, text);
  if (!parsed.detail.startsWith("Ошибка сервера")) return parsed;
  if (status === 403)
    return new ApiError(status, "Хранилище отклонило файл: адрес загрузки устарел или файл не того типа. Повторите загрузку.");
  if (status === 412) return new ApiError(status, "Файл по этому адресу уже загружен. Повторите загрузку.");
  return new ApiError(status, `Хранилище отклонило файл (${status})`);
}

/** PUT of a file to an upload URL with XMLHttpRequest, whose upload events give real progress
 *  (fetch reports none for a request body). No bearer header: the URL carries its own credential,
 *  and `headers` are the ones the URL was signed with. */
function putFile(
  url: string,
  file: Blob,
  headers: Record<string, string>,
  onProgress?: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  changePending(+1);
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(file.size, file.size);
        resolve();
      } else reject(storageError(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(new ApiError(0, "Нет связи с хранилищем файлов. Проверьте подключение и повторите попытку."));
    xhr.onabort = () => reject(new ApiError(0, "Загрузка отменена"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  }).finally(() => changePending(-1));
}

/** Query string from defined values only, in the order given. */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

export interface ListPage<T> {
  results: T[];
  count: number;
}

export interface TokenPair {
  access: string;
  refresh: string;
}

export interface LoginRequest {
  email: string;
  password: string;
  guardant_code: string;
}

/** What is not JSON in and out, or not under a bearer token: JSON calls go through typedClient. */
export const api = {
  /** A multipart form or a raw file through the API (calculation files, forecast models). */
  upload,
  /** A file (exports): its bytes and the name the server gave it. */
  download,
  /** A job a form started (202 with status_url), asked until done (a model's training). */
  followJob,
  /** A file PUT to a granted upload URL, with upload progress (admin PDFs and videos). */
  putFile,
  /** POST token/: the one call made without a token; its 401 is a wrong password, not an expired session. */
  login: (request: LoginRequest) => post<TokenPair>("token/", request),
};
