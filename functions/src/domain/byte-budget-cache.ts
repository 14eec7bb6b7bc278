// What a process keeps of things that are costly to make and large in memory (parsed forecast
// models): a cache by key that holds at most `budget` bytes of them together, the least recently
// used given up first. The value is a promise, so the callers asking for one thing at once share
// its making; its size is known once it is made, and a failed making is forgotten.

export interface ByteBudgetCache<T> {
  /** The value of `key`, made by `make` (which tells its size) when the cache does not hold it. */
  get(key: string, make: () => Promise<{ value: T; bytes: number }>): Promise<T>;
  /** Gives up every value whose key `stale` names (one being made is not kept once made). */
  forget(stale: (key: string) => boolean): void;
  /** The bytes the values it holds take together. */
  bytes(): number;
  /** How many values it holds. */
  size(): number;
}

export function byteBudgetCache<T>(budget: number): ByteBudgetCache<T> {
  const entries = new Map<string, { value: Promise<T>; bytes: number }>();
  let held = 0;
  /** Gives up the least recently used until the rest fits, never `keep` (the one just made). */
  const evict = (keep: string) => {
    for (const [key, entry] of entries) {
      if (held <= budget) return;
      if (key === keep) continue;
      entries.delete(key);
      held -= entry.bytes;
    }
  };
  return {
    get(key, make) {
      const found = entries.get(key);
      if (found) {
        // The most recently used last.
        entries.delete(key);
        entries.set(key, found);
        return found.value;
      }
      const entry = { value: undefined as unknown as Promise<T>, bytes: 0 };
      entry.value = make().then(({ value, bytes }) => {
        if (entries.get(key) === entry) {
          entry.bytes = bytes;
          held += bytes;
          evict(key);
        }
        return value;
      });
      entry.value.catch(() => {
        if (entries.get(key) !== entry) return;
        entries.delete(key);
        held -= entry.bytes;
      });
      entries.set(key, entry);
      return entry.value;
    },
    forget(stale) {
      for (const [key, entry] of entries) {
        if (!stale(key)) continue;
        entries.delete(key);
        held -= entry.bytes;
      }
    },
    bytes: () => held,
    size: () => entries.size,
  };
}
