// How a browser gets a core: the bytes Vite serves (`import url from "../build/<name>.wasm?url"`),
// loaded once per page. Node reads the same files from disk instead (wasm-file.ts).

/** The bytes of a core at `url`. arrayBuffer + compile rather than compileStreaming: static hosts
 *  often miss application/wasm. */
export async function fetchWasmBytes(url: string | URL): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${String(url)}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** `load` run at the first call and its answer shared by every later one; a load that failed (a
 *  network failure) is run again by the next call. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
