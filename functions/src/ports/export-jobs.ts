// Which job renders an export or passport.

/** Which job renders an export or passport (domain/export-jobs.ts): one holder per company and
 *  request digest (what is asked and of which data), so an identical request reuses the job. */
export interface ExportJobRequests {
  /** The job holding `digest`, if any (it may since have failed or expired). */
  holder(companyId: string, digest: string): Promise<string | undefined>;
  /** Makes `job` the holder of `digest` unless another job holds it (`replacing`: a holder that
   *  failed or expired, taken over); answers the holder. Until `expiresAt` (epoch seconds). */
  claim(companyId: string, digest: string, job: string, replacing: string | undefined, expiresAt: number): Promise<string>;
  /** Lets go of `digest` if `job` still holds it (the job could not be started). */
  release(companyId: string, digest: string, job: string): Promise<void>;
}
