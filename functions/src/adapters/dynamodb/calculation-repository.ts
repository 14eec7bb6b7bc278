// Calculations (keys.calculation), listed per project, type and state through the index.
//
// Read-your-writes for the inventory's kept sums (domain/inventory/sums.ts): every write first
// takes the company's inventory write counter (keys.inventoryWrites) and stores the number it got
// as `inventory_write`; the stream handler counts that write applied once its difference is in the
// sums. A reader that finds the counters equal knows every write made before it is in them.
// DynamoDB's transactions are not used (dynalite has none): a write that fails its condition
// gives its number back, and one lost between the two steps keeps readers on the live path until
// the reconciliation settles the counter (domain/inventory/statistics.ts).
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { Conflict } from "../../domain/errors";
import type { StoredCalculation, CalculationRepository, WriteGuard } from "../../ports";
import * as keys from "./keys";
import {
  type CalculationMarks,
  calculationItem,
  countedPage,
  type Narrowing,
  queryAll,
  queryPrefix,
  versionedPut,
  getItem,
  stripAll,
  putNew,
} from "./items";
import { CALCULATION_EXISTS, calculationBlobKeys, damagedCalculation, STALE_CALCULATION, wholeOnly } from "../../domain/calculation-shape";

export function dynamoCalculations(doc: DynamoDBDocumentClient, table: string): CalculationRepository {
  const takeWrite = async (companyId: string, by: 1 | -1) => {
    const out = await doc.send(
      new UpdateCommand({
        TableName: table,
        Key: keys.inventoryWrites(companyId),
        UpdateExpression: "ADD writes :n",
        ExpressionAttributeValues: { ":n": by },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    return Number(out.Attributes?.writes);
  };
  /** Makes `write` with the counter taken, giving it back when the write's condition failed. The
   *  counter is taken side by side with `guard` (one round trip for both); when the guard fails,
   *  the number is given back and nothing is written. */
  const counted = async (companyId: string, write: (marks: CalculationMarks) => Promise<unknown>, guard?: WriteGuard) => {
    const [taken, guarded] = await Promise.allSettled([takeWrite(companyId, 1), guard]);
    if (guarded.status === "rejected") {
      if (taken.status === "fulfilled") await takeWrite(companyId, -1);
      throw guarded.reason;
    }
    if (taken.status === "rejected") throw taken.reason;
    const number = taken.value;
    const year = guarded.value ? guarded.value.year : undefined;
    try {
      await write({ inventory_write: number, inventory_year: year });
    } catch (error) {
      if (error instanceof Conflict) await takeWrite(companyId, -1);
      throw error;
    }
  };
  /** Every calculation item of the company, deleted ones too, as consistent as a write before it. */
  const ofCompany = (companyId: string, narrowing?: Narrowing) =>
    queryPrefix(doc, table, keys.calculationsOfCompany(companyId), { consistentRead: true }, narrowing);
  /** The company's whole calculations of `types` that also meet `filter` (no type asked: none read). */
  const wholeOfTypes = async (
    companyId: string,
    types: readonly string[],
    { filter, names = {}, values = {} }: { filter: string; names?: Record<string, string>; values?: Record<string, unknown> },
  ) => {
    if (types.length === 0) return [];
    const typeValues = Object.fromEntries(types.map((type, i) => [`:t${i}`, type]));
    const items = await ofCompany(companyId, {
      FilterExpression: `${filter} AND #type IN (${Object.keys(typeValues).join(", ")})`,
      ExpressionAttributeNames: { "#type": "type", ...names },
      ExpressionAttributeValues: { ...values, ...typeValues },
    });
    return wholeOnly(stripAll<StoredCalculation>(items));
  };
  return {
    async create(calculation, guard) {
      await counted(calculation.company, (marks) => putNew(doc, table, calculationItem(calculation, marks), CALCULATION_EXISTS), guard);
    },
    async get(companyId, type, calculationId) {
      return getItem<StoredCalculation>(doc, table, keys.calculation(companyId, type, calculationId));
    },
    async firstOfProject(companyId, projectId, type, limit) {
      const out = await doc.send(
        new QueryCommand({
          TableName: table,
          IndexName: keys.GSI1,
          KeyConditionExpression: "GSI1PK = :pk",
          ExpressionAttributeValues: { ":pk": keys.calculationsIndex(companyId, projectId, type, "active").GSI1PK },
          ScanIndexForward: true,
          Limit: limit,
        }),
      );
      return wholeOnly(stripAll<StoredCalculation>(out.Items ?? []));
    },
    async list(companyId, projectId, type, state, page) {
      const query: QueryCommandInput = {
        TableName: table,
        IndexName: keys.GSI1,
        KeyConditionExpression: "GSI1PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.calculationsIndex(companyId, projectId, type, state).GSI1PK },
        ScanIndexForward: false,
      };
      const stored = doc
        .send(
          new GetCommand({
            TableName: table,
            Key: keys.calculationListCount(companyId, projectId, type),
            ProjectionExpression: "#n",
            ExpressionAttributeNames: { "#n": state },
          }),
        )
        .then((out) => Number(out.Item?.[state] ?? 0));
      const { items, count } = await countedPage(doc, query, page, stored);
      return { results: wholeOnly(stripAll<StoredCalculation>(items)), count };
    },
    async listAllByProject(companyId, projectId, type, state) {
      const items = await queryAll(doc, {
        TableName: table,
        IndexName: keys.GSI1,
        KeyConditionExpression: "GSI1PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.calculationsIndex(companyId, projectId, type, state).GSI1PK },
        ScanIndexForward: true,
      });
      return wholeOnly(stripAll<StoredCalculation>(items));
    },
    async listStatesOfCompany(companyId) {
      const items = await ofCompany(companyId, {
        ProjectionExpression: "#project, #type, is_deleted",
        ExpressionAttributeNames: { "#project": "project", "#type": "type" },
      });
      return items.map((item) => ({ project: String(item.project), type: String(item.type), is_deleted: item.is_deleted === true }));
    },
    async listActiveByCompany(companyId) {
      const items = await ofCompany(companyId, {
        FilterExpression: "is_deleted = :no",
        // What the statistics add up, not the inputs and coefficients of each calculation.
        // D18: the project and «Учет» say whether it counts.
        ProjectionExpression: "#type, results, created_at, #project, inventory_role",
        ExpressionAttributeNames: { "#type": "type", "#project": "project" },
        ExpressionAttributeValues: { ":no": false },
      });
      return stripAll<StoredCalculation>(items);
    },
    listOfCompanyByTypes: (companyId, types) => wholeOfTypes(companyId, types, { filter: "is_deleted = :no", values: { ":no": false } }),
    listWithoutPoint: (companyId, types) =>
      wholeOfTypes(companyId, types, { filter: "attribute_not_exists(#point)", names: { "#point": "point" } }),
    async listDamagedOfCompany(companyId) {
      return (await ofCompany(companyId)).flatMap((item) => damagedCalculation(item) ?? []);
    },
    async blobKeysOfCompany(companyId) {
      // Every calculation, deleted ones too: their files stay while their items do.
      const items = await ofCompany(companyId, {
        ProjectionExpression: "#file.#key, #results.#data, #coefficients",
        ExpressionAttributeNames: {
          "#file": "file",
          "#key": "key",
          "#results": "results",
          "#data": "data_key",
          "#coefficients": "coefficients",
        },
      });
      return calculationBlobKeys(items);
    },
    async replace(next, expectedVersion, guard) {
      await counted(
        next.company,
        (marks) => versionedPut(doc, table, calculationItem(next, marks), expectedVersion, STALE_CALCULATION),
        guard,
      );
    },
  };
}
