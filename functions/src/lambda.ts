// The Lambda host of the API (the local host is local.ts). Top-level await runs in the init
// phase: the secrets are read and the reference dictionaries and production calendar seeded once per cold start (the
// seeding is idempotent and costs a few queries when nothing is missing).
import { seedDictionaries } from "./domain/reference/dictionaries";
import { seedProductionCalendar } from "./domain/reference/production-calendar";
import { apiHandler } from "./lambda/api";
import { lambdaDepsFromEnv } from "./lambda/deps";

const { deps, originVerify } = await lambdaDepsFromEnv();
await seedDictionaries(deps);
await seedProductionCalendar(deps);

export const handler = apiHandler(deps, { originVerify });
