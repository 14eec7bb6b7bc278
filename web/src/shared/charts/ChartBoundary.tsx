// docs/user-guide.md: a chart that cannot render (its chunk failed to load, plotly threw) shows the text
// «Unable to display chart.» in its place; the other charts and the page stay.
import { Component, type ErrorInfo, type ReactNode } from "react";
import { Typography } from "antd";

export const CHART_ERROR_TEXT = "Unable to display chart.";

export function ChartError() {
  return (
    <Typography.Text type="danger" role="alert">
      {CHART_ERROR_TEXT}
    </Typography.Text>
  );
}

export class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("Chart failed to render:", error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <ChartError /> : this.props.children;
  }
}
