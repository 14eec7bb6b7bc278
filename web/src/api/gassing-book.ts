// The gassing book's own calls: a closed entry confirmed by the user with that duty, and the
// book of a period as xlsx or PDF. A module of their own: «Мониторинг», «События» and the other pages
// that read the journal's module load neither (tests/web/bundle.test.ts).
import { displayDate } from "../shared/dates";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Duty } from "@server/contract";
import { api, encoded, routePath, typedClient } from "./client";
import { saveBlob } from "../shared/saveBlob";
import { journalKey } from "./journal";

const monitoring = typedClient("monitoring");

/** A closed entry of the gassing book confirmed by the user with `duty`. */
export function useConfirmGassing(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ gassing, duty }: { gassing: string; duty: Duty }) =>
      monitoring((c) => c.gassings[":gassing"].confirm.$post({ param: encoded({ gassing }), json: { duty } })),
    onSuccess: () => client.invalidateQueries({ queryKey: journalKey(facility) }),
  });
}

/** The gassing book of the company days from–to as xlsx or PDF. */
export async function downloadGassingBook(facility: string, from: string, to: string, format: "xlsx" | "pdf"): Promise<void> {
  const file = await api.download(await routePath("monitoring", (c) => c.gassings.$path({ query: { facility, from, to, format } })));
  saveBlob(file.blob, file.fileName ?? `Книга учета загазирований ${displayDate(from)} ${displayDate(to)}.${format}`);
}
