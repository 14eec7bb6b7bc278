// The АГК operator's day: the operator's journal of a company day, the gassings with the
// dispatcher's registrations, and their files (functions/src/contract/routes/monitoring.ts); the gassing
// book's own calls are gassing-book.ts.
import { displayDate } from "../shared/dates";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { GassingRegister, GassingRegistrationBody, MethaneLimitRow, OperatorJournal } from "@server/contract";
import { api, encoded, routePath, typedClient } from "./client";
import { saveBlob } from "../shared/saveBlob";

export type Journal = OperatorJournal;
export type JournalSensor = Journal["sensors"][number];
export type Gassing = Journal["gassings"][number];
export type GassingRegistration = GassingRegistrationBody;

const monitoring = typedClient("monitoring");
export const journalKey = (facility: string) => ["monitoring", "journal", facility] as const;

/** The journal of `date` (ГГГГ-ММ-ДД, the company's day); refreshed every minute while shown. */
/** How often a journal or the book is asked again while the facility's batches are being read. */
const PROCESSING_POLL_MS = 5_000;

export function useJournal(facility: string, date: string | undefined) {
  return useQuery({
    queryKey: [...journalKey(facility), "day", date],
    queryFn: () => monitoring((c) => c.journal.$get({ query: { facility, date: date as string } }) as never) as Promise<Journal>,
    enabled: date !== undefined,
    // While the facility's batches are read into the events and the book, again soon.
    refetchInterval: (query) => (query.state.data?.processing ? PROCESSING_POLL_MS : 60_000),
  });
}

/** The gassings starting in the company days from–to. */
export function useGassings(facility: string, from: string | undefined, to: string | undefined) {
  return useQuery({
    queryKey: [...journalKey(facility), "gassings", from, to],
    queryFn: () =>
      monitoring(
        (c) => c.gassings.$get({ query: { facility, from: from as string, to: to as string } }) as never,
      ) as Promise<GassingRegister>,
    enabled: from !== undefined && to !== undefined,
    refetchInterval: (query) => (query.state.data?.processing ? PROCESSING_POLL_MS : 60_000),
  });
}

export function useRegisterGassing(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ gassing, body }: { gassing: string; body: GassingRegistration }) =>
      monitoring((c) => c.gassings[":gassing"].register.$post({ param: encoded({ gassing }), json: body })),
    onSuccess: () => client.invalidateQueries({ queryKey: journalKey(facility) }),
  });
}

/** The journal's file (xlsx or PDF) saved under the server's name. */
export async function downloadJournal(facility: string, date: string, format: "xlsx" | "pdf"): Promise<void> {
  const file = await api.download(await routePath("monitoring", (c) => c.journal.$path({ query: { facility, date, format } })));
  saveBlob(file.blob, file.fileName ?? `Журнал оператора АГК ${displayDate(date)}.${format}`);
}

const reference = typedClient("reference");

/** the permissible methane concentrations by the act in force (`in_force` on the server's clock). */
export function useMethaneLimits() {
  return useQuery({
    queryKey: ["reference", "methane-limits"],
    queryFn: () => reference((c) => c["methane-limits"].$get()) as Promise<MethaneLimitRow[]>,
    staleTime: 10 * 60_000,
  });
}
