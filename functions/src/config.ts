// Runtime configuration shared by every host. Values come from the environment (docs/operations.md lists
// them); the local host fills in what it generates itself (the JWT secret, the dynalite endpoint).
import type { SigningKeys } from "./domain/signed-tokens";

export interface AppConfig extends SigningKeys {
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** When set, a login must carry this Guardant hardware-key code; when unset any code passes. */
  guardantCode?: string;
  /** Failed logins allowed per e-mail and per client address in one window. */
  loginFailuresPerEmail: number;
  loginFailuresPerAddress: number;
  loginWindowSeconds: number;
  jsonBodyLimitBytes: number;
  /** Normative-document PDFs (/admin): 50 MB. */
  documentMaxBytes: number;
  /** Settings videos (/admin): 500 MB. */
  videoMaxBytes: number;
  /** Life of a signed media URL (<video> cannot send the bearer header): 10 minutes. */
  mediaUrlTtlSeconds: number;
  /** Life of a direct upload URL (admin PDFs and videos, http/UPLOADS.md): 1 hour; the upload_id
   *  that completes it lives twice as long, so a transfer begun late can still be completed. */
  uploadUrlTtlSeconds: number;
  /** The local host's pace of one user's signed-in requests (http/request-pace.ts): this many
   *  start at once, then so many a second; the rest wait their turn. */
  userRequestBurst: number;
  userRequestsPerSecond: number;
  /** The local host's pace of one gateway key's pushes (R7), as a user's requests are paced. */
  gatewayRequestBurst: number;
  gatewayRequestsPerSecond: number;
  /** scrypt's cost N for new password hashes; unset, the production cost
   *  (domain/company/passwords.ts). Only the local host sets it, for tests (local/password-cost.ts). */
  passwordCost?: number;
  /** Receivers inside the mine's own network a webhook may post to beside public addresses, and over
   *  plain http: networks in CIDR, addresses or host names (WEBHOOK_ALLOWED_RECEIVERS, R10;
   *  domain/monitoring/derive/webhook-addresses.ts). The local host's operator names them; never in AWS. */
  webhookAllowedReceivers?: readonly string[];
  /** The largest part of a climate period's verifier's pack (export/climate-pack.ts); unset,
   *  LIMITS.climate.packPartBytes (the registry's 100 MB). Tests lower it to see a pack split. */
  climatePackPartBytes?: number;
  /** The meter-hours over which a climate period is computed as a job where the host runs jobs
   *  (domain/climate/periods.ts); unset, LIMITS.climate.periodJobMeterHours. Tests lower it. */
  climatePeriodJobMeterHours?: number;
  /** The meter-hours from which a climate period's pack is made as a job where the host runs jobs
   *  (domain/climate/pack-size.ts); unset, JOB_CLIMATE_PACK_METER_HOURS. Tests lower it. */
  climatePackJobMeterHours?: number;
}

/** The local host's pace of one user's requests unless the environment sets another
 *  (http/request-pace.ts): the web app's screens start at most 9 in a second. */
export const USER_REQUEST_BURST = 10;
export const USER_REQUESTS_PER_SECOND = 30;
/** The local host's pace of one gateway key's pushes unless the environment sets another: a gateway
 *  pushes a minute's readings every few seconds at most; after an outage it catches up 10 batches at
 *  once, then 5 a second (up to 2 000 lines each). */
export const GATEWAY_REQUEST_BURST = 10;
export const GATEWAY_REQUESTS_PER_SECOND = 5;

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** `{[field]: n}` when the environment sets `name`, else nothing (the code's default holds). */
function optionalInt<K extends keyof AppConfig>(name: string, field: K): Partial<Pick<AppConfig, K>> {
  const raw = process.env[name];
  return raw === undefined || raw === "" ? {} : ({ [field]: intFromEnv(name, 0) } as Partial<Pick<AppConfig, K>>);
}

export function configFromEnv(jwtSecret: Uint8Array, previousJwtSecret?: SigningKeys["previousJwtSecret"]): AppConfig {
  return {
    jwtSecret,
    previousJwtSecret,
    accessTtlSeconds: intFromEnv("ACCESS_TOKEN_TTL_SECONDS", 15 * 60),
    refreshTtlSeconds: intFromEnv("REFRESH_TOKEN_TTL_SECONDS", 24 * 60 * 60),
    guardantCode: process.env.GUARDANT_CODE || undefined,
    loginFailuresPerEmail: intFromEnv("LOGIN_FAILURES_PER_EMAIL", 10),
    loginFailuresPerAddress: intFromEnv("LOGIN_FAILURES_PER_ADDRESS", 200),
    loginWindowSeconds: intFromEnv("LOGIN_WINDOW_SECONDS", 15 * 60),
    jsonBodyLimitBytes: intFromEnv("JSON_BODY_LIMIT_BYTES", 1024 * 1024),
    documentMaxBytes: intFromEnv("DOCUMENT_MAX_BYTES", 50 * 1024 * 1024),
    videoMaxBytes: intFromEnv("VIDEO_MAX_BYTES", 500 * 1024 * 1024),
    mediaUrlTtlSeconds: intFromEnv("MEDIA_URL_TTL_SECONDS", 10 * 60),
    uploadUrlTtlSeconds: intFromEnv("UPLOAD_URL_TTL_SECONDS", 60 * 60),
    userRequestBurst: intFromEnv("USER_REQUEST_BURST", USER_REQUEST_BURST),
    userRequestsPerSecond: intFromEnv("USER_REQUESTS_PER_SECOND", USER_REQUESTS_PER_SECOND),
    gatewayRequestBurst: intFromEnv("GATEWAY_REQUEST_BURST", GATEWAY_REQUEST_BURST),
    gatewayRequestsPerSecond: intFromEnv("GATEWAY_REQUESTS_PER_SECOND", GATEWAY_REQUESTS_PER_SECOND),
    // A test's server process lowers them to see a short period's jobs.
    ...optionalInt("CLIMATE_PERIOD_JOB_METER_HOURS", "climatePeriodJobMeterHours"),
    ...optionalInt("CLIMATE_PACK_JOB_METER_HOURS", "climatePackJobMeterHours"),
  };
}
