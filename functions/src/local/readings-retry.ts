// The first back-off of a batch of readings whose application failed, on the hosts the tests start.
// READINGS_RETRY_FIRST_MS shortens consumer.ts's RETRIES.firstMs (1 s, then 2, 4 and 8: a poison batch
// is set aside 15 s after its first attempt) for a test that waits for the set-aside
// (tests/integration/readings-poison.test.ts); the attempts and their doubling stay. The local host's
// consumer thread reads it; the AWS host never does (its queue's visibility timeout is the back-off),
// and it is refused with NODE_ENV=production, where it could only be a mistake.
import { RETRIES } from "../domain/monitoring/minutes/consumer";

export function readingsRetryFirstMsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.READINGS_RETRY_FIRST_MS;
  if (raw === undefined || raw === "") return undefined;
  if (env.NODE_ENV === "production")
    throw new Error("READINGS_RETRY_FIRST_MS is for tests on this machine: refused with NODE_ENV=production");
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 1 || ms > RETRIES.firstMs) {
    throw new Error(`READINGS_RETRY_FIRST_MS must be a whole number of ms from 1 to ${RETRIES.firstMs}, got "${raw}"`);
  }
  return ms;
}
