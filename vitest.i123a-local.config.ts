// Temporary, not committed: resolves dynalite to this worktree's package (node_modules links to main's).
import base from "./vitest.config";
export default {
  ...base,
  resolve: { alias: { ...(base.resolve?.alias as object), "dynalite/db/sqlite-level.mjs": "/work/wt/i123a/packages/dynalite/db/sqlite-level.mjs", dynalite: "/work/wt/i123a/packages/dynalite" } },
};
