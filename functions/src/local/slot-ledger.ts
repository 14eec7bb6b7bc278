// the heavy-work slots a stop leaves taken, given back at the next start. A slot is a
// reservation in the user's and the company's budgets (domain/heavy-work.ts), given back when its
// request ends; a process stopped under load (killed, or past its stop's deadline) never gave back those
// of the requests it was serving, and they counted until their window lapsed: a user's slots stayed
// taken across two restarts for 13 minutes (429 «Повторите через 30 с» throughout). The local server,
// the one process on its data folder, writes down the slots its requests hold (HELD_FILE, rewritten as
// they change, one write at a time), and its next start gives back every slot written there, before it
// serves a request. A job's slots are not here: handed on to the job, they are the job's to give back
// (interrupted-jobs.ts, as a start does for the jobs the last process left).
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AttemptReservation, Repositories, SlotLedger } from "../ports";

/** The data folder's list of the slots the running server's requests hold. */
export const HELD_FILE = "heavy-slots.json";

/** The ledger of a server on `dataDir`; `settled` waits for its last write. */
export function fileSlotLedger(dataDir: string): SlotLedger & { settled(): Promise<void> } {
  const path = join(dataDir, HELD_FILE);
  const held = new Map<string, readonly AttemptReservation[]>();
  let writing: Promise<void> = Promise.resolve();
  let dirty = false;
  const write = () => {
    if (dirty) return;
    dirty = true;
    writing = writing.then(async () => {
      dirty = false;
      const text = JSON.stringify([...held.values()].flat());
      // Written beside and moved over it: a kill mid-write leaves the last whole list.
      await writeFile(`${path}.new`, text);
      await rename(`${path}.new`, path);
    });
    writing.catch(() => {});
  };
  return {
    taken(token, reservations) {
      held.set(token, reservations);
      write();
    },
    given(token) {
      if (held.delete(token)) write();
    },
    settled: () => writing.catch(() => {}),
  };
}

/** Gives back the slots the last server on `dataDir` left written down, and forgets them: how many. */
export async function giveBackLeftSlots(repos: Pick<Repositories, "attempts">, dataDir: string): Promise<number> {
  const path = join(dataDir, HELD_FILE);
  let left: AttemptReservation[];
  try {
    left = JSON.parse(await readFile(path, "utf8")) as AttemptReservation[];
  } catch {
    return 0;
  }
  await Promise.all(left.map((reservation) => repos.attempts.release(reservation)));
  await rm(path, { force: true });
  return left.length;
}
