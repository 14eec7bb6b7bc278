// Counts what a document client sends to DynamoDB, with the capacity each call consumed: the
// round trips of an API operation, measured by tests/integration/round-trips.test.ts and by
// `npm run bench -- api`. Counted where the SDK sends, so reads sent together as one request
// (coalesced-gets.ts) count once. Not installed in the product.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

export interface SentCall {
  /** The operation: Get, Put, Query, Update, BatchGet, TransactWrite, … */
  command: string;
  /** Capacity units the table and its indexes consumed (0 where DynamoDB did not say). */
  capacity: number;
  /** Its sequential round: calls sent while another was in flight share one; a call sent when none
   *  was starts the next (the first is 1). */
  round: number;
}

export interface CallCounter {
  /** The calls sent since the last reset, in order. */
  readonly calls: SentCall[];
  reset(): void;
}

interface Consumed {
  CapacityUnits?: number;
}

const unitsOf = (consumed: Consumed | Consumed[] | undefined): number =>
  [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);

/** Records every call the client sends, asking DynamoDB for the capacity it consumed. The newest
 *  counter of a client takes over from any earlier one: test files of one worker share a client. */
export function countCalls(doc: DynamoDBDocumentClient): CallCounter {
  const calls: SentCall[] = [];
  let inFlight = 0;
  let round = 0;
  doc.middlewareStack.remove("countCalls");
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      // GetItemCommand → Get, BatchGetItemCommand → BatchGet, TransactWriteItemsCommand → TransactWrite.
      const command = String(context.commandName ?? "")
        .replace(/Command$/, "")
        .replace(/Items?$/, "");
      if (inFlight === 0) round += 1;
      const call: SentCall = { command, capacity: 0, round };
      calls.push(call);
      const input = args.input as Record<string, unknown>;
      // Table operations only: DescribeTable and ListTables take no such parameter.
      if (/^(Get|Put|Update|Delete|Query|Scan|BatchGet|BatchWrite|TransactGet|TransactWrite)$/.test(command)) {
        input.ReturnConsumedCapacity ??= "TOTAL";
      }
      inFlight += 1;
      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next(args);
      } finally {
        inFlight -= 1;
      }
      call.capacity = unitsOf((result.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity);
      return result;
    },
    { step: "initialize", name: "countCalls" },
  );
  return {
    calls,
    reset: () => {
      calls.length = 0;
      round = 0;
    },
  };
}
