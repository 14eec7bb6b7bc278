// Lazy route chunks can fail to load (a new deployment replaced them, or the network dropped);
// each browser words that differently, so recognise all the known phrasings.
const CHUNK_FAILURE = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Loading (CSS )?chunk .* failed/i,
  /Unable to preload CSS/i,
];

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === "ChunkLoadError" || CHUNK_FAILURE.some((pattern) => pattern.test(error.message));
}
