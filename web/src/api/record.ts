// The records the server keeps for the company (climate projects, their periods, abatement
// assessments): their list and one record, each read fresh whenever a screen opens it (one record
// asked once its id is known: a new record's screen has none yet), and a record's save.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

export function useRecord<T>(key: readonly unknown[], id: string | undefined, read: (id: string) => Promise<T>) {
  return useQuery({ queryKey: [...key, id], queryFn: () => read(id as string), enabled: id !== undefined, staleTime: 0 });
}

/** The company's records under `key` ([...key, "list"]). */
export function useRecordList<T>(key: readonly unknown[], read: () => Promise<T>) {
  return useQuery({ queryKey: [...key, "list"], queryFn: read, staleTime: 0 });
}

/** A record's save under `key`: made without an id, changed at its version with one. The answer is
 *  kept as the record's own read ([...key, "one", id]) and the list is read again. */
export function useSaveRecord<B, Made extends { id: string }, Changed extends { id: string }>(
  key: readonly unknown[],
  create: (body: B) => Promise<Made>,
  change: (id: string, body: B & { version: number }) => Promise<Changed>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, version }: { id?: string; body: B; version?: number }): Promise<Made | Changed> =>
      id === undefined ? create(body) : change(id, { ...body, version: version as number }),
    onSuccess: (saved) => {
      client.setQueryData([...key, "one", saved.id], saved);
      return client.invalidateQueries({ queryKey: [...key, "list"] });
    },
  });
}
