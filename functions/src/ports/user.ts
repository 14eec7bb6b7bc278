// Users of a company and their sessions' generation.
import type * as z from "zod";
import type { adminUserSchema } from "../contract/schemas/answers";

/** A user as an administrator reads one (the contract's; its session generation bumped by a new
 *  password, (de)activation and a role change, tokens of an older generation refused, absent on
 *  users created before it: generation 0), with what only storage holds. */
export type User = z.output<typeof adminUserSchema> & {
  password_hash: string;
  /** Sessions revoked (a retired refresh token used again): session id → epoch seconds until which
   *  its access tokens could still be presented. Read with the user on every request, so a revoked
   *  session's access token is refused without another call. */
  revoked_sessions?: Record<string, number>;
};

export interface UserRepository {
  /** Fails with Conflict when the e-mail is taken (e-mails are unique across companies). */
  create(user: User): Promise<void>;
  get(companyId: string, userId: string): Promise<User | undefined>;
  /** The one lookup that starts without a tenant: sign-in knows only the e-mail. */
  findByEmail(email: string): Promise<User | undefined>;
  listByCompany(companyId: string): Promise<User[]>;
  /** Also ends the user's sessions (bumps `session_generation`), as `setActive` does. */
  /** Sets the password (the session generation moves); with `expectedGeneration`, only if the
   *  generation is still that one, else Conflict: of two changes made from one read, one wins. */
  setPasswordHash(companyId: string, userId: string, passwordHash: string, expectedGeneration?: number): Promise<void>;
  setActive(companyId: string, userId: string, isActive: boolean): Promise<void>;
  /** Names, position (Профиль, /admin), role (/admin, `npm run admin -- set-role`) and duty (/admin,
   *  `set-duty`); a role in `fields` ends the user's sessions. */
  update(
    companyId: string,
    userId: string,
    fields: Partial<Pick<User, "first_name" | "last_name" | "position" | "role" | "duty">>,
  ): Promise<void>;
  /** Records `sessionId` as revoked until `untilSeconds`, dropping the `expired` entries. */
  revokeSession(companyId: string, userId: string, sessionId: string, untilSeconds: number, expired: readonly string[]): Promise<void>;
  /** Re-homes the user in another company's partition and repoints the e-mail lookup. */
  move(user: User, toCompanyId: string): Promise<User>;
  /** Projects (by `user`) and calculations (by `created_by`, the e-mail) the user created in the company. */
  countAuthored(companyId: string, userId: string, email: string): Promise<{ projects: number; calculations: number }>;
}
