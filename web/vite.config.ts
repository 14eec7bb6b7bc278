// The web app's build: root is web/, output web/dist, which the local server (functions/src/local.ts)
// serves with an SPA fallback on the API's port. In dev, /api goes to that server.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { pathAliases } from "../path-aliases";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  base: "/",
  plugins: [react()],
  resolve: { alias: pathAliases() },
  build: {
    outDir: fileURLToPath(new URL("./dist", import.meta.url)),
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each route loads. The bundle test weighs the build by it;
    // the deployment leaves it out (infra/lib/stack.ts).
    manifest: true,
    // antd's table/form chunk is legitimately large; the login chunk is what we keep small.
    chunkSizeWarningLimit: 1200,
    // CSS as written: antd's pre-built stylesheet (antd/dist/antd.css, see web/src/main.tsx) is
    // served as antd generates it, not rewritten by a minifier (minified it is 2 KB smaller gzip).
    cssMinify: false,
    // Never inline a .wasm as a data: URL (emissions.wasm is just under the 4 KiB default): the
    // page fetches it, and the CSP's connect-src 'self' (infra/lib/security-headers.ts) blocks data:.
    assetsInlineLimit: (filePath) => (filePath.endsWith(".wasm") ? false : undefined),
    // The contract's modules declare schemas and constants and do nothing on import, so a page that
    // takes one constant from its index loads that constant, not every route's schemas. (Never mark
    // a name pure with manualPureFunctions: it applies to every module, plotly's minified bundle too.)
    rolldownOptions: {
      treeshake: { moduleSideEffects: [{ test: /functions[\\/]src[\\/]contract[\\/]/, sideEffects: false }] },
      // The contract's plain tables (the limits, the field-error protocol) are read by nearly every
      // page: a chunk of their own, so a page that reads a limit does not load zod and the schemas
      // the bundler would otherwise put beside them.
      output: {
        codeSplitting: {
          groups: [{ name: "contract-plain", test: /functions[\\/]src[\\/]contract[\\/](schemas[\\/]limits|field-errors)\.ts$/ }],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: "http://127.0.0.1:3000", changeOrigin: false },
    },
  },
});
