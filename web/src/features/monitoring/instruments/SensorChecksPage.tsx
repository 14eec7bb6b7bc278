// «Проверки датчиков» of a mine or of one sensor (D94): the head at once, the rest
// (SensorChecksContent: what is due, the intervals, the verifications, the journal of checks) as a chunk
// of its own, as «Книга учета загазирований» loads its records: antd's cards, tags and lists stay out of
// the route's initial JS (tests/web/bundle.test.ts).
import { lazy, Suspense } from "react";
import { Flex } from "antd";
import { Link, useParams } from "react-router-dom";
import { useSensors } from "../../../api/monitoring";
import { LazyLoading } from "../../../shared/LazyLoading";
import { MonitoringHead } from "../MonitoringHead";

const SensorChecksContent = lazy(() => import("./SensorChecksContent"));

export default function SensorChecksPage() {
  const { facilityId = "", sensorId } = useParams();
  const sensor = useSensors(facilityId).data?.find((s) => s.id === sensorId);
  return (
    <Flex vertical gap={16}>
      <MonitoringHead
        page="Проверки датчиков"
        title={sensorId ? `Проверки датчика ${sensor?.code ?? ""}`.trim() : undefined}
        facilityId={facilityId}
        current="sensor-checks"
        before={sensorId ? <Link to={`/facilities/${facilityId}/sensor-checks`}>Проверки всех датчиков</Link> : undefined}
      />
      <Suspense fallback={<LazyLoading />}>
        <SensorChecksContent />
      </Suspense>
    </Flex>
  );
}
