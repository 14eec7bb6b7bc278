// The gbdt grid in Chromium (the forecast preview's engine): the same models and rows as in Node,
// loaded through the browser entry (wasm-core/src/gbdt/browser.ts) on a local page. Rows/s by the
// CPU time of the page's renderer process (read from /proc around each call, as Node's figure is
// by its own CPU time), median of 5; each call predicts the rows as often as makes it last about
// 0.3 s, so the 10 ms clock ticks stay small against it. Node is timed again here, the same
// predictions as often, in turns with Chromium's calls (the first of each pair alternating), so both
// sides of the ratio see the same load: the ratio is the median of the five pairs'. Predictions are
// compared with Node's.
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadModel, predict } from "@core/gbdt/index";
import { launchBrowser } from "../support/browser";
import { serveTestPage } from "../support/test-page";
import type { GridRow } from "./gbdt-grid";

const RUNS = 5;
const TICKS_PER_SECOND = 100;

const PAGE_SCRIPT = `
import { loadModel, predict } from "./wasm-core/src/gbdt/browser.ts";
const models = new Map();
window.__load = async (modelUrl, rowsUrl) => {
  const text = await (await fetch(modelUrl)).text();
  const rows = new Float64Array(await (await fetch(rowsUrl)).arrayBuffer());
  const model = await loadModel(text);
  models.set(modelUrl, { model, rows });
  return { engine: model.wasm.choice.engine, out: Array.from(predict(model, rows)) };
};
window.__run = (modelUrl, times) => {
  const { model, rows } = models.get(modelUrl);
  for (let i = 0; i < times; i++) predict(model, rows);
  return times;
};
`;

/** Processes descended from this one whose command line is a Chromium renderer's. */
function rendererPids(): number[] {
  const parent = new Map<number, number>();
  const renderers: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes("--type=renderer")) renderers.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  const mine = (pid: number): boolean => {
    for (let at = parent.get(pid); at !== undefined && at > 1; at = parent.get(at)) if (at === process.pid) return true;
    return false;
  };
  return renderers.filter(mine);
}

function cpuTicks(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // a renderer that ended
    }
  }
  return ticks;
}

export interface BrowserFigure {
  rowsPerSecond: number;
  /** Node's rows/s timed in turns with Chromium's (median of its runs). */
  nodeRowsPerSecond: number;
  /** Node's rows/s over Chromium's: the median of the pairs' ratios. */
  nodeOverChromium: number;
  identical: boolean;
  engine: string;
}

/** Each grid row's model in Chromium; the rows' order, undefined where the page failed. */
export async function runGridInChromium(grid: readonly GridRow[], rowCount: number): Promise<(BrowserFigure | undefined)[]> {
  const files: Record<string, [string, string | Uint8Array]> = {};
  grid.forEach((row, i) => {
    files[`/model-${i}.json`] = ["application/json", readFileSync(row.modelPath, "utf8")];
    files[`/rows-${i}.f64`] = ["application/octet-stream", readFileSync(row.rowsPath)];
  });
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const page = await serveTestPage({ script: PAGE_SCRIPT, resolveDir: root, wasm: "gbdt", files });
  const browser = await launchBrowser();
  try {
    const tab = await browser.newPage();
    await tab.goto(`${page.origin}/`);
    await tab.waitForFunction(() => "__run" in globalThis);
    const pids = rendererPids();
    const figures: (BrowserFigure | undefined)[] = [];
    for (const [i, row] of grid.entries()) {
      const { engine, out } = await tab.evaluate(
        ([model, rows]) =>
          (globalThis as unknown as { __load: (m: string, r: string) => Promise<{ engine: string; out: number[] }> }).__load(model, rows),
        [`/model-${i}.json`, `/rows-${i}.f64`] as const,
      );
      const nodeOut = new Float32Array(readFileSync(`${row.modelPath}.pred.f32`).buffer.slice(0));
      const identical = out.length === nodeOut.length && out.every((v, k) => Object.is(v, nodeOut[k]));
      const times = Math.max(1, Math.round((0.3 * row.product) / rowCount));
      const seconds: number[] = [];
      const nodeSeconds: number[] = [];
      const run = () =>
        tab.evaluate(
          ([model, n]) => (globalThis as unknown as { __run: (m: string, n: number) => number }).__run(model as string, n as number),
          [`/model-${i}.json`, times] as const,
        );
      const bytes = readFileSync(row.rowsPath);
      const rows = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
      const nodeModel = await loadModel(readFileSync(row.modelPath, "utf8"));
      const runNode = () => {
        const start = process.cpuUsage();
        for (let n = 0; n < times; n++) predict(nodeModel, rows);
        const used = process.cpuUsage(start);
        nodeSeconds.push((used.user + used.system) / 1e6 / times);
      };
      const runChromium = async () => {
        const before = cpuTicks(pids);
        await run();
        seconds.push(Math.max(cpuTicks(pids) - before, 1) / TICKS_PER_SECOND / times);
      };
      await run(); // warm-up
      predict(nodeModel, rows);
      for (let k = 0; k < RUNS; k++) {
        if (k % 2) {
          await runChromium();
          runNode();
        } else {
          runNode();
          await runChromium();
        }
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
      figures.push({
        rowsPerSecond: rowCount / median(seconds),
        nodeRowsPerSecond: rowCount / median(nodeSeconds),
        nodeOverChromium: median(seconds.map((s, k) => s / nodeSeconds[k])),
        identical,
        engine,
      });
    }
    return figures;
  } finally {
    await browser.close();
    await page.close();
  }
}
