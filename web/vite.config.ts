// The web app's build: root is web/, output web/dist, which the local server (functions/src/local.ts)
// serves with an SPA fallback on the API's port. In dev, /api goes to that server.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  base: "/",
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL("./dist", import.meta.url)),
    emptyOutDir: true,
    // antd's table/form chunk is legitimately large; the login chunk is what we keep small.
    chunkSizeWarningLimit: 1200,
  },
  server: {
    proxy: {
      "/api": { target: "http://127.0.0.1:3000", changeOrigin: false },
    },
  },
});
