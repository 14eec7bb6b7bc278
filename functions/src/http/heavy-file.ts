// A rendered file (project export, report passport) as the answer, inside a heavy-work slot of the
// user and the company (domain/heavy-work.ts): the slot is held while the file is rendered and
// streamed, and given back when the body is read to its end, fails or the client goes away.
import type { Context } from "hono";
import { TooManyRequests } from "../domain/errors";
import { handOnSlot, reserveHeavyWork, type HeavySlot } from "../domain/heavy-work";
import type { ExportJobState, ExportResult } from "../export/formats";
import { attachmentDisposition } from "../files/file-names";
import { signedJobId } from "./export-jobs";
import type { AppEnv } from "./env";

/** A form's heavy-work slot, taken before its body is read: a burst beyond the in-flight bound is
 *  refused at once, without the server holding every body in memory. A refused request's body is
 *  read to its end and dropped a chunk at a time (never held): a client still sending its file
 *  would otherwise get a broken connection instead of the 429 with its Retry-After. */
export async function slotBeforeBody(c: Context<AppEnv>): Promise<HeavySlot> {
  const held = handOnSlot(c.get("actor"));
  if (held) return held;
  try {
    return await reserveHeavyWork(c.get("deps"), c.get("actor"));
  } catch (error) {
    if (error instanceof TooManyRequests) await drain(c.req.raw.body);
    throw error;
  }
}

async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  try {
    while (!(await reader.read()).done) {}
  } catch {
    // The client went away: nothing to answer.
  }
}

function releasedAtEnd(body: ReadableStream<Uint8Array>, release: () => Promise<void>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const done = () => {
    release().catch((error: unknown) => console.error("[api] heavy-work slot not given back:", error));
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done: end, value } = await reader.read();
          if (end) {
            done();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          done();
          controller.error(error);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** `heavy` false: a file that streams in seconds (a plain xlsx or txt export) takes no slot. */
export async function heavyFileAnswer(c: Context<AppEnv>, render: () => Promise<ExportResult>, heavy = true) {
  // A heavy route's slot (the contract's cost) is handed on to the streamed body, which gives it back.
  const release = handOnSlot(c.get("actor")) ?? (heavy ? await reserveHeavyWork(c.get("deps"), c.get("actor")) : async () => {});
  let result: ExportResult;
  try {
    result = await render();
  } catch (error) {
    await release();
    throw error;
  }
  // A file too large for a Lambda answer is handed out as a short-lived storage address. Not as a
  // 302: the browser fetches exports with the bearer token, and a followed cross-origin redirect
  // would be blocked by the CSP's connect-src; the client navigates to the address instead.
  if (result.kind === "redirect") {
    await release();
    return c.json({ download_url: result.url, file_name: result.fileName }, 200, { "Cache-Control": "no-store" });
  }
  // A job is started by jobAnswer's caller (domain/export-jobs.ts), never here.
  if (result.kind === "job") {
    await release();
    throw new Error("heavy file: a job answered where a file was asked");
  }
  let body = result.body;
  if (body instanceof Uint8Array) await release();
  else body = releasedAtEnd(body, release);
  return c.body(body as ReadableStream<Uint8Array<ArrayBuffer>>, 200, {
    "Content-Type": result.contentType,
    "Content-Disposition": attachmentDisposition(result.fileName),
    "Cache-Control": "no-store",
  });
}

/** Near its bound: rendered as a job (AWS: the job function; the local host: a thread); the client
 *  asks its state. 202 with the job's id signed for the company. */
export function jobAnswer(c: Context<AppEnv>, job: ExportJobState) {
  const id = signedJobId(c.get("deps").config, c.get("actor").company, job.job);
  return c.json({ ...job, job: id, status_url: `v1/export_jobs/${id}/` }, 202, { "Cache-Control": "no-store" });
}
