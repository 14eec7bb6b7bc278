// Platform-neutral half of the facade: one WebAssembly instance of gbdt.wasm per model, holding
// the flattened trees, fed rows in fixed-size chunks. index.ts (Node) and browser.ts (Vite) only
// differ in how they get the compiled module.
import { chooseEngine, ENGINE_LABEL, quickScorerBlockTrees, quickScorerRefusal, type EngineChoice, type GbdtEngine } from "./engine";
import { applyOutput, type FlatForest, type ParsedModel } from "./model";
import { parseModel } from "./parse";
import { rowSource, type Rows } from "./rows";

/** Rows per call into WASM: bounds the instance's memory whatever the batch size. */
const CHUNK_ROWS = 4096;

interface GbdtExports {
  memory: WebAssembly.Memory;
  newI32Array(length: number): number;
  newU8Array(length: number): number;
  newU32Array(length: number): number;
  newF64Array(length: number): number;
  setForest(...args: number[]): void;
  reserveRows(maxRows: number): number;
  marginBuffer(): number;
  predictMargins(rowCount: number): void;
  buildQuickScorer(blockTrees: number): number;
  quickTableBytes(): number;
}

export interface LoadOptions {
  /** Forces an engine (tests and the bench compare both); by default chooseEngine decides. */
  engine?: GbdtEngine;
  /** Trees per QuickScorer block (by default quickScorerBlockTrees: 300 for 64-bit tree words). */
  blockTrees?: number;
}

export class WasmForest {
  private rowView = new Float64Array(0);
  private marginView = new Float64Array(0);

  private constructor(
    private readonly core: GbdtExports,
    private readonly numFeatures: number,
    private readonly rowsPtr: number,
    private readonly marginsPtr: number,
    /** The engine that runs this model and why. */
    readonly choice: EngineChoice,
    /** Milliseconds the QuickScorer tables took to build (0 for the walk). */
    readonly buildMs: number,
  ) {}

  static async create(module: WebAssembly.Module, forest: FlatForest, options: LoadOptions = {}): Promise<WasmForest> {
    const instance = await WebAssembly.instantiate(module, {
      env: {
        abort(_message: number, _file: number, line: number, column: number) {
          throw new Error(`gbdt.wasm aborted at ${line}:${column} (out of memory?)`);
        },
      },
    });
    const core = instance.exports as unknown as GbdtExports;
    // In setForest's parameter order. Allocate every array first: allocation may grow memory,
    // which detaches earlier views.
    const arrays = [
      [forest.treeRoots, core.newI32Array],
      [forest.treeDepth, core.newI32Array],
      [forest.nodeFeature, core.newI32Array],
      [forest.nodeFlags, core.newU8Array],
      [forest.nodeThreshold, core.newF64Array],
      [forest.nodeLeft, core.newI32Array],
      [forest.nodeValue, core.newF64Array],
      [forest.catBegin, core.newI32Array],
      [forest.catEnd, core.newI32Array],
      [forest.catWords, core.newU32Array],
      [forest.leafLinearBegin, core.newI32Array],
      [forest.leafLinearEnd, core.newI32Array],
      [forest.leafConst, core.newF64Array],
      [forest.linearFeature, core.newI32Array],
      [forest.linearCoeff, core.newF64Array],
    ] as const;
    const pointers = arrays.map(([data, allocate]) => allocate(data.length));
    arrays.forEach(([data], i) => {
      const Kind = data.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => typeof data;
      new Kind(core.memory.buffer, pointers[i], data.length).set(data as never);
    });
    core.setForest(...pointers, forest.numFeatures, forest.float32 ? 1 : 0, forest.leftWhenEqual ? 1 : 0, forest.baseMargin);
    let choice = chooseEngine(forest);
    if (options.engine === "walk") choice = { engine: "walk", reason: "обход деревьев: выбран явно" };
    if (options.engine === "quickscorer" && choice.engine !== "quickscorer") {
      const refusal = quickScorerRefusal(forest);
      if (refusal) throw new Error(`QuickScorer cannot run this model (${refusal})`);
      choice = { engine: "quickscorer", reason: `${ENGINE_LABEL.quickscorer}: выбран явно` };
    }
    let buildMs = 0;
    if (choice.engine === "quickscorer") {
      const start = performance.now();
      if (!core.buildQuickScorer(options.blockTrees ?? quickScorerBlockTrees(forest))) {
        throw new Error("gbdt.wasm refused the QuickScorer tables for a model chooseEngine accepted");
      }
      buildMs = performance.now() - start;
    }
    const rowsPtr = core.reserveRows(CHUNK_ROWS);
    return new WasmForest(core, forest.numFeatures, rowsPtr, core.marginBuffer(), choice, buildMs);
  }

  /** Bytes of the QuickScorer tables (0 on the walk). */
  get tableBytes(): number {
    return this.core.quickTableBytes();
  }

  /** Bytes of WASM linear memory this model's instance holds. */
  get memoryBytes(): number {
    return this.core.memory.buffer.byteLength;
  }

  margins(fill: (target: Float64Array, start: number, count: number) => void, rowCount: number): Float64Array {
    const out = new Float64Array(rowCount);
    if (this.rowView.buffer !== this.core.memory.buffer) {
      this.rowView = new Float64Array(this.core.memory.buffer, this.rowsPtr, CHUNK_ROWS * this.numFeatures);
      this.marginView = new Float64Array(this.core.memory.buffer, this.marginsPtr, CHUNK_ROWS);
    }
    for (let start = 0; start < rowCount; start += CHUNK_ROWS) {
      const count = Math.min(CHUNK_ROWS, rowCount - start);
      fill(this.rowView, start, count);
      this.core.predictMargins(count);
      out.set(this.marginView.subarray(0, count), start);
    }
    return out;
  }
}

/** A model ready for predict(): the parsed model plus its WASM instance. */
export interface GbdtModel extends ParsedModel {
  readonly wasm: WasmForest;
}

export async function instantiateModel(
  module: WebAssembly.Module,
  source: string | ParsedModel,
  options?: LoadOptions,
): Promise<GbdtModel> {
  const parsed = typeof source === "string" ? parseModel(source) : source;
  return { ...parsed, wasm: await WasmForest.create(module, parsed.forest, options) };
}

/**
 * Predictions for rows (row-major Float64Array or one array per row; NaN, null or undefined is a
 * missing value). Without featureOrder the columns are the model's features in its order; with it,
 * featureOrder names the columns (any order, extra columns ignored).
 */
export function predict(model: GbdtModel, rows: Rows, featureOrder?: readonly string[]): Float64Array {
  const source = rowSource(model, rows, featureOrder);
  return applyOutput(model, model.wasm.margins(source.fill, source.rowCount));
}
