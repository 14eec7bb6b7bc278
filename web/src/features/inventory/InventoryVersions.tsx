// D20: the year's approved versions on the inventory screen — each approval (or finished rework)
// stored the inventory as it stood; the report of an approved year prints the last one with its
// SHA-256, which a verifier can check against the stored snapshot. Each version offers its own
// passport, printed with the requisites it froze (D32).
import { Flex, List, Typography } from "antd";
import { displayDateTime } from "../../shared/dates";
import { formatResult } from "../../shared/decimals";
import type { InventoryReview } from "@server/contract";
import { useInventoryVersions } from "../../api/inventory";
import { PassportDownload } from "./PassportDownload";
import { actorText } from "../../shared/text";

/** The people of the year's history by the e-mail a version stores: the register names a person,
 *  never an address (an approval before the register kept no name: its e-mail stays). */
export function InventoryVersions({ review }: { review: Pick<InventoryReview, "year" | "version" | "history"> }) {
  const { year, history } = review;
  const versions = useInventoryVersions(year, review.version);
  const nameOf = (email: string) => history.find((h) => h.by === email && h.by_name)?.by_name ?? actorText(email);
  const list = versions.data ?? [];
  if (list.length === 0) return null;
  return (
    <List
      size="small"
      header="Утвержденные версии"
      data-testid="inventory-versions"
      dataSource={[...list].reverse()}
      renderItem={(v) => (
        <List.Item>
          <Flex vertical gap={6}>
            <Typography.Text>
              Версия {v.version}: {formatResult(v.total_t_co2e, 2)} т CO2-экв.{" "}
              <Typography.Text type="secondary">
                — утверждена {displayDateTime(v.approved_at)}, {nameOf(v.approved_by)}
              </Typography.Text>
              <br />
              <Typography.Text type="secondary">SHA-256: </Typography.Text>
              <Typography.Text
                code
                copyable={{ text: v.sha256, tooltips: ["Скопировать", "Скопировано"] }}
                style={{ wordBreak: "break-all" }}
              >
                {v.sha256}
              </Typography.Text>
            </Typography.Text>
            <PassportDownload year={year} facility={undefined} version={v.version} />
          </Flex>
        </List.Item>
      )}
    />
  );
}
