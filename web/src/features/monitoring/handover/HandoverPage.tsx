// «Передача смены» of a mine (D95): the head at once, the form and the handovers
// (HandoverContent) as a chunk of their own, so antd's select, cards and tags stay out of the route's
// initial JS (tests/web/bundle.test.ts).
import { lazy, Suspense } from "react";
import { Flex } from "antd";
import { useParams } from "react-router-dom";
import { LazyLoading } from "../../../shared/LazyLoading";
import { MonitoringHead } from "../MonitoringHead";

const HandoverContent = lazy(() => import("./HandoverContent"));

export default function HandoverPage() {
  const { facilityId = "" } = useParams();
  return (
    <Flex vertical gap={16}>
      <MonitoringHead page="Передача смены" facilityId={facilityId} current="handovers" />
      <Suspense fallback={<LazyLoading />}>
        <HandoverContent />
      </Suspense>
    </Flex>
  );
}
