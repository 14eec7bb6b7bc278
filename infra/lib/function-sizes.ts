// Each Lambda function's memory and timeout, in one place: the stack sets them from here and
// tests/integration/docs-numbers.test.ts holds every figure README.md and docs/ give against them.
import { JOB_TIMEOUT_SECONDS } from "@server/adapters/spreadsheets/jobs";

export interface FunctionSize {
  memoryMb: number;
  timeoutSeconds: number;
  /** How the documents name the function, besides its construct id. */
  docNames: string[];
}

/** What a function gets unless its entry below says otherwise. */
export const DEFAULT_FUNCTION_SIZE = { memoryMb: 256, timeoutSeconds: 30 };

export const FUNCTION_SIZES = {
  // scrypt password hashing is CPU-bound; Lambda CPU grows with memory. API Gateway gives up at 30 s.
  ApiFunction: { memoryMb: 1024, timeoutSeconds: 29, docNames: ["API function"] },
  SpreadsheetFunction: { memoryMb: 1536, timeoutSeconds: 25, docNames: ["spreadsheet function", "spreadsheet worker function"] },
  // Lambda's share of a vCPU grows with memory, whole at 1 769 MB (a training job is one thread of
  // CPU for minutes).
  ExportJobFunction: { memoryMb: 1769, timeoutSeconds: JOB_TIMEOUT_SECONDS, docNames: ["job function"] },
  UploadCheckFunction: { ...DEFAULT_FUNCTION_SIZE, docNames: ["upload check function"] },
  StreamAuditFunction: { ...DEFAULT_FUNCTION_SIZE, docNames: ["stream function", "stream handler function"] },
  StatisticsReconcileFunction: { memoryMb: 512, timeoutSeconds: 15 * 60, docNames: ["reconciliation function"] },
  OrphanSweepFunction: { memoryMb: DEFAULT_FUNCTION_SIZE.memoryMb, timeoutSeconds: 15 * 60, docNames: ["sweep function"] },
  // A year's dispatch export (70-400 MB) is read in 4 MB ranges and applied part by part: minutes of
  // one thread, memory for a part and the file's pieces, not the file.
  TelemetryConsumerFunction: { memoryMb: 1024, timeoutSeconds: 15 * 60, docNames: ["readings' function", "readings function"] },
  // Each minute: the stale channels' sweep and the webhook deliveries due; under the schedule's minute,
  // so one run ends before the next starts.
  MonitoringMinuteFunction: { memoryMb: DEFAULT_FUNCTION_SIZE.memoryMb, timeoutSeconds: 50, docNames: ["minute function"] },
} satisfies Record<string, FunctionSize>;

export type FunctionId = keyof typeof FUNCTION_SIZES;
