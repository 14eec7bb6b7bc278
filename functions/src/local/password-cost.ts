// The password-hash cost of the hosts the tests start. PASSWORD_HASH_COST lowers scrypt's N for new
// hashes (vitest.config.ts sets it: at N=16384 each hash or check is about 50 ms of CPU, and the
// tests make and check hundreds). The local host and the admin command on DATA_DIR read it; the
// AWS host and the admin command on the AWS table never do, and it is refused with
// NODE_ENV=production or on Lambda, where it could only be a mistake.
import { PASSWORD_COST } from "../domain/company/passwords";

export function passwordCostFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.PASSWORD_HASH_COST;
  if (raw === undefined || raw === "") return undefined;
  if (env.NODE_ENV === "production" || env.AWS_LAMBDA_FUNCTION_NAME) {
    throw new Error("PASSWORD_HASH_COST is for tests on this machine: refused with NODE_ENV=production and on Lambda");
  }
  const cost = Number(raw);
  if (!Number.isInteger(cost) || cost < 2 || cost > PASSWORD_COST || (cost & (cost - 1)) !== 0) {
    throw new Error(`PASSWORD_HASH_COST must be a power of two from 2 to ${PASSWORD_COST}, got "${raw}"`);
  }
  return cost;
}
