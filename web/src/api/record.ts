// One record the server keeps, read by its id: asked once the id is known (a new record's screen has
// none yet) and read fresh whenever a screen opens it. Climate projects, their periods and abatement
// assessments are read so.
import { useQuery } from "@tanstack/react-query";

export function useRecord<T>(key: readonly unknown[], id: string | undefined, read: (id: string) => Promise<T>) {
  return useQuery({ queryKey: [...key, id], queryFn: () => read(id as string), enabled: id !== undefined, staleTime: 0 });
}
