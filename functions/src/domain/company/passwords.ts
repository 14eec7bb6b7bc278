// Password hashing with scrypt (node:crypto). The cost parameters are stored with each hash so
// they can be raised later without invalidating existing passwords.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import type { Runtime } from "../context";
import { keptState } from "../../ports/runtime";

/** scrypt's cost N of a new hash unless the host says otherwise (config.passwordCost): about 50 ms of
 *  CPU per hash or check. The AWS host always hashes at it; the local host may be told a lower one
 *  for tests (local/password-cost.ts). */
export const PASSWORD_COST = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
// scrypt needs 128 * N * r bytes; maxmem must be explicit or Node refuses larger costs.
const maxmem = (n: number, r: number) => 256 * n * r;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: maxmem(n, r) }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** the security review's R14: passwords no one may choose. The demo login's (the README prints it for everyone,
 *  and a server open to the network refuses to start while a user has it, local/network.ts) and a
 *  short list of the most leaked ones of 8 characters or more (the shorter ones the length refuses
 *  already), compared without case and the spaces around them. */
export const KNOWN_PASSWORDS: readonly string[] = [
  "demo-password",
  "password",
  "password1",
  "password123",
  "passw0rd",
  "12345678",
  "123456789",
  "1234567890",
  "0123456789",
  "11111111",
  "00000000",
  "87654321",
  "123123123",
  "qwertyui",
  "qwerty123",
  "qwertyuiop",
  "1q2w3e4r",
  "1q2w3e4r5t",
  "1qaz2wsx",
  "zaq12wsx",
  "qazwsxedc",
  "abcd1234",
  "iloveyou",
  "admin123",
  "administrator",
  "йцукенгшщз",
  "пароль123",
];

const KNOWN = new Set(KNOWN_PASSWORDS);

/** The reason `password` may not be chosen, in Russian, or undefined. */
export function knownPasswordProblem(password: string): string | undefined {
  const plain = password.trim().toLowerCase();
  if (plain === KNOWN_PASSWORDS[0])
    return "это пароль демо-входа, который README показывает всем; сервер, открытый в сеть, с ним не запустится — выберите другой";
  if (KNOWN.has(plain)) return "этот пароль есть в списках утекших паролей и подбирается первым — выберите другой";
  return undefined;
}

export async function hashPassword(password: string, cost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, R, P);
  return `scrypt$${cost}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** The hash of nothing at each password cost, made once per host. */
const dummyPasswordHashes = keptState("dummy password hashes", () => new Map<number, Promise<string>>());

/** A hash of nothing in particular at the cost new hashes are made at, verified against when the
 *  e-mail is unknown so that a wrong e-mail takes as long as a wrong password. */
export function dummyPasswordHash(runtime: Pick<Runtime, "kept">, cost = PASSWORD_COST): Promise<string> {
  const dummyHashes = runtime.kept(dummyPasswordHashes);
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = hashPassword(randomBytes(12).toString("base64"), cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}
