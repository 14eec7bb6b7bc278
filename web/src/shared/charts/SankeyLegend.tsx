// On a phone the methane-flow Sankey numbers its nodes (methane-sankey.ts, compact) and names them
// here, under the chart, with their figures: four columns of names do not fit 390 px.
import { Typography } from "antd";

export function SankeyLegend({ items }: { items: readonly string[] | undefined }) {
  if (!items?.length) return null;
  return (
    <ol data-testid="sankey-legend" style={{ listStyle: "none", margin: 0, padding: 0 }}>
      {items.map((item) => (
        <li key={item}>
          <Typography.Text>{item}</Typography.Text>
        </li>
      ))}
    </ol>
  );
}
