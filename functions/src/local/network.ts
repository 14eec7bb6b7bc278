// How the local server meets the network (docs/operations.md, «TLS и сеть»): HTTPS from a
// certificate and key (TLS_CERT, TLS_KEY) with HSTS, or plain HTTP on the loopback behind a reverse
// proxy that terminates TLS (TRUST_PROXY then reads the client's address from it); and a server open
// to the network (any HOST but the loopback) never starts while a user's password is the demo
// login's, which the README prints for everyone.
import { readFileSync } from "node:fs";
import type { Deps } from "../domain/context";
import { verifyPassword } from "../domain/company/passwords";
import { receiverAllowList } from "../domain/monitoring/derive/webhook-addresses";

/** The demo login's password (seed.ts), public in the README. */
export const DEMO_PASSWORD = "demo-password";

/** HSTS of a server on HTTPS: a year, this host only (a company's intranet names stay its own). */
export const HSTS = "max-age=31536000";

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

export class NetworkSettingError extends Error {}

/** TLS_CERT and TLS_KEY (PEM files), both or neither; undefined without them. */
export function tlsFromEnv(env: NodeJS.ProcessEnv = process.env): TlsFiles | undefined {
  if (!env.TLS_CERT && !env.TLS_KEY) return undefined;
  if (!env.TLS_CERT || !env.TLS_KEY) {
    throw new NetworkSettingError("Для HTTPS задайте оба файла: TLS_CERT (сертификат, PEM) и TLS_KEY (его закрытый ключ, PEM)");
  }
  const read = (name: "TLS_CERT" | "TLS_KEY") => {
    try {
      return readFileSync(env[name]!);
    } catch (error) {
      throw new NetworkSettingError(
        `${name}=${env[name]}: файл не читается (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  };
  return { cert: read("TLS_CERT"), key: read("TLS_KEY") };
}

/** Whether `host` is this machine's loopback alone (no other computer reaches it). */
export function loopbackOnly(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}

/** The message that refuses a start open to the network, or undefined: any user whose password is
 *  the demo login's (checked against each stored hash). */
export async function demoPasswordProblem(deps: Deps, host: string): Promise<string | undefined> {
  if (loopbackOnly(host)) return undefined;
  for (const company of await deps.repos.companies.list()) {
    for (const user of await deps.repos.users.listByCompany(company.id)) {
      if (await verifyPassword(DEMO_PASSWORD, user.password_hash)) {
        return (
          `Сервер открыт в сеть (HOST=${host}), а у пользователя ${user.email} пароль демо-входа «${DEMO_PASSWORD}», известный всем. ` +
          `Смените его (npm run admin -- set-password --email ${user.email} --password '…') или запустите сервер с HOST=127.0.0.1`
        );
      }
    }
  }
  return undefined;
}

/** With TRUST_PROXY=1, a request that came through a reverse proxy on this machine (the loopback)
 *  is counted from the address the proxy names (X-Real-IP, else the last X-Forwarded-For), so the
 *  sign-in limits per address keep their meaning behind nginx; any other request from its own. */
export function clientAddress(remote: string | undefined, header: (name: string) => string | undefined, trustProxy: boolean): string {
  const peer = remote ?? "unknown";
  if (!trustProxy || !(loopbackOnly(peer) || peer === "::ffff:127.0.0.1")) return peer;
  const forwarded = header("x-real-ip")?.trim() || header("x-forwarded-for")?.split(",").at(-1)?.trim();
  return forwarded && /^[0-9A-Fa-f.:]{2,45}$/.test(forwarded) ? forwarded : peer;
}

/** WEBHOOK_ALLOWED_RECEIVERS: the receivers inside the mine's network webhooks may post to, separated by
 *  commas or spaces (docs/operations.md); checked at the start, so a mistyped entry stops it. */
export function webhookReceiversFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.WEBHOOK_PRIVATE_ADDRESSES !== undefined && env.WEBHOOK_PRIVATE_ADDRESSES !== "0")
    throw new NetworkSettingError(
      "WEBHOOK_PRIVATE_ADDRESSES больше не действует: назовите сети или узлы приемников вебхуков в WEBHOOK_ALLOWED_RECEIVERS (docs/operations.md)",
    );
  const entries = (env.WEBHOOK_ALLOWED_RECEIVERS ?? "").split(/[\s,]+/).filter((e) => e !== "");
  try {
    receiverAllowList(entries);
  } catch (error) {
    throw new NetworkSettingError((error as Error).message);
  }
  return entries;
}
