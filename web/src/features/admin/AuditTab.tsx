// «Журнал»: every change made in /admin, newest first — who, when, what, and the object before and after.
import { Typography } from "antd";
import { Table } from "../../shared/LazyTable";
import { displayDateTime } from "../../shared/dates";
import { useUrlPage } from "../../shared/urlState";
import { ACTION_LABELS, AUDIT_PAGE_SIZE, useAudit, type AuditEntry } from "../../api/admin";
import { actorText } from "../../shared/text";

const json = (value: unknown) => (value === null || value === undefined ? "—" : JSON.stringify(value, null, 2));

function Change({ entry }: { entry: AuditEntry }) {
  return (
    <div style={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr)", gap: 16 }}>
      {(["before", "after"] as const).map((side) => (
        <div key={side}>
          <Typography.Text strong>{side === "before" ? "До" : "После"}</Typography.Text>
          <pre
            style={{
              margin: "4px 0 0",
              padding: 8,
              background: "#fafafa",
              border: "1px solid #f0f0f0",
              borderRadius: 4,
              maxHeight: 320,
              overflow: "auto",
              fontSize: 12,
              whiteSpace: "pre-wrap",
              wordBreak: "break-word",
            }}
          >
            {json(entry[side])}
          </pre>
        </div>
      ))}
    </div>
  );
}

export function AuditTab() {
  const { page, setPage } = useUrlPage();
  const { data, isLoading } = useAudit(page);
  return (
    <Table<AuditEntry>
      rowKey="id"
      loading={isLoading}
      dataSource={data?.results ?? []}
      locale={{ emptyText: "Изменений пока не было" }}
      expandable={{ expandedRowRender: (entry) => <Change entry={entry} /> }}
      pagination={{
        current: page,
        pageSize: AUDIT_PAGE_SIZE,
        total: data?.count ?? 0,
        onChange: (next) => setPage(next),
        showSizeChanger: false,
      }}
      columns={[
        { title: "Когда", dataIndex: "at", width: 170, render: (at: string) => displayDateTime(at) },
        { title: "Кто", dataIndex: "actor_email", width: 220, render: (who: string) => actorText(who) },
        { title: "Действие", dataIndex: "action", width: 300, render: (action: string) => ACTION_LABELS[action] ?? action },
        { title: "Объект", dataIndex: "target_label" },
      ]}
    />
  );
}
