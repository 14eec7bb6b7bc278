// docs/user-guide.md, «Loading and errors»: one global indicator, on while any request is pending (the client's counter).
import { useSyncExternalStore } from "react";
import { Spin } from "antd";
import { pendingRequests } from "../../api/client";

export function LoadingIndicator() {
  const pending = useSyncExternalStore(pendingRequests.subscribe, pendingRequests.get);
  if (pending === 0) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="global-loading"
      style={{
        position: "fixed",
        top: 12,
        right: 16,
        zIndex: 2000,
        display: "flex",
        alignItems: "center",
        gap: 8,
        padding: "4px 12px",
        borderRadius: 16,
        background: "rgba(255, 255, 255, 0.95)",
        boxShadow: "0 2px 8px rgba(0, 0, 0, 0.15)",
        fontSize: 13,
        pointerEvents: "none",
      }}
    >
      <Spin size="small" />
      <span>Loading ...</span>
    </div>
  );
}
