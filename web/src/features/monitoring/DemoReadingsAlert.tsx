// «демонстрационные данные»: what every screen showing the demo mine's simulated readings says above
// them (functions/src/demo-readings.ts; the API's `demo`), so they are never taken for a mine's.
import { Alert } from "antd";
import { DEMO_READINGS_LABEL } from "@core/monitoring";

export const DEMO_READINGS_NOTE = `Показаны ${DEMO_READINGS_LABEL}: показания датчиков сделаны симулятором АГК, а не получены от шахты`;

export function DemoReadingsAlert({ shown }: { shown: boolean | undefined }) {
  return shown ? <Alert type="warning" showIcon title={DEMO_READINGS_NOTE} /> : null;
}
