// Counts what a document client sends to DynamoDB, with the capacity each call consumed: the
// round trips of an API operation, measured by tests/integration/round-trips.test.ts and by
// `npm run bench -- api`. Not installed in the product.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

export interface SentCall {
  /** The command's name without "Command": Get, Put, Query, Update, TransactWrite, … */
  command: string;
  /** Capacity units the table and its indexes consumed (0 where DynamoDB did not say). */
  capacity: number;
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

/** Wraps `doc.send` so that every call is recorded, asking DynamoDB for the capacity it consumed. */
export function countCalls(doc: DynamoDBDocumentClient): CallCounter {
  const calls: SentCall[] = [];
  const send = doc.send.bind(doc) as (command: unknown) => Promise<unknown>;
  const counting = async (command: { input: Record<string, unknown>; constructor: { name: string } }) => {
    const call: SentCall = { command: command.constructor.name.replace(/Command$/, ""), capacity: 0 };
    calls.push(call);
    // Table operations only: DescribeTable and ListTables take no such parameter.
    if (/^(Get|Put|Update|Delete|Query|Scan|BatchGet|BatchWrite|TransactGet|TransactWrite)$/.test(call.command)) {
      command.input.ReturnConsumedCapacity ??= "TOTAL";
    }
    const output = (await send(command)) as { ConsumedCapacity?: Consumed | Consumed[] };
    call.capacity = unitsOf(output.ConsumedCapacity);
    return output;
  };
  doc.send = counting as typeof doc.send;
  return {
    calls,
    reset: () => {
      calls.length = 0;
    },
  };
}
