// The wiring of the domain's dependencies for tests, one place for both storages: the API harness
// on dynalite (harness.ts) and the domain on the in-memory repositories (memory-domain.ts). The
// real blob folder, spreadsheets in process and the platform-wide data seeded as the hosts seed it.
import { localRuntime } from "@server/local/subscribers";
import { randomBytes } from "node:crypto";
import { configFromEnv, type AppConfig } from "@server/config";
import type { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import type { Deps } from "@server/domain/context";
import { inProcessSpreadsheets } from "@server/export/in-process";
import { seedDictionaries } from "@server/domain/reference/dictionaries";
import { seedProductionCalendar } from "@server/domain/reference/production-calendar";
import { seedDefaultModels } from "@server/domain/forecast/models";
import { withUploadNotifications } from "@server/local/upload-notifications";
import { passwordCostFromEnv } from "@server/local/password-cost";
import type { Clock, Repositories, WebhookTransport } from "@server/ports";
import { ephemeralSigner } from "@server/adapters/signing/rsa-signer";
import { opensslGostCms } from "@server/adapters/signing/gost-cms";
import { webhookSender } from "@server/domain/monitoring/derive/webhooks";
import { httpWebhookTransport } from "@server/adapters/webhooks/http-webhook-transport";

/** The dependencies of the domain over `repos` and the blob folder `files`, with the upload
 *  notifications of the local host (their `settled()` waits for the upload checks) and a webhook
 *  sender as a host runs one (`webhooks.drain()` sends what is due and waits; the detector's
 *  deliveries are sent as it makes them), posting over HTTP unless `transport` says otherwise. */
export function testDeps(
  repos: Repositories,
  files: ReturnType<typeof fsBlobStore>,
  overrides: Partial<AppConfig> = {},
  clock?: Clock,
  transport: WebhookTransport = httpWebhookTransport,
) {
  const uploads = withUploadNotifications(files);
  const deps: Deps = {
    repos,
    blobs: uploads.blobs,
    clock: clock ?? { now: () => new Date() },
    config: { ...configFromEnv(randomBytes(32)), passwordCost: passwordCostFromEnv(), ...overrides },
    spreadsheets: inProcessSpreadsheets(() => deps),
    signer: ephemeralSigner(),
    gostCms: opensslGostCms(),
    webhooksDue: () => webhooks.due(),
    runtime: localRuntime(() => deps),
  };
  const webhooks = webhookSender(deps, transport);
  return { deps, uploads, webhooks };
}

/** What every installation holds: the dictionaries, the production calendar, the default models. */
export async function seedPlatform(deps: Deps): Promise<void> {
  await seedDictionaries(deps);
  await seedProductionCalendar(deps);
  await seedDefaultModels(deps);
}
