// docs/user-guide.md, /profile: read-only company and user fields, then the user's statistics.
// The page paints its heading first; the requisites (ProfileDetails), the facilities and the
// statistics load right after, each in its own chunk.
import { lazy, Suspense, useEffect } from "react";
import { Alert, Flex, Typography } from "antd";
import { isReviewer } from "@core/inventory";
import { LazyLoading } from "../../shared/LazyLoading";
import { PageLoading } from "../../shared/PageLoading";
import { useMe } from "../../api/profile";

const loadDetails = () => import("./ProfileDetails");
const ProfileDetails = lazy(() => loadDetails().then((m) => ({ default: m.ProfileDetails })));
// The facilities' table and dialog load after the requisites.
const FacilitiesCard = lazy(() => import("./FacilitiesCard").then((m) => ({ default: m.FacilitiesCard })));
// Reviewers' and admins' history of the requisites and facilities; staff do not see it.
const RequisitesHistoryCard = lazy(() => import("./RequisitesHistoryCard").then((m) => ({ default: m.RequisitesHistoryCard })));
const loadStatistics = () => import("./StatisticsCard");
const StatisticsCard = lazy(() => loadStatistics().then((m) => ({ default: m.StatisticsCard })));

export default function ProfilePage() {
  const me = useMe();

  // The requisites' and statistics' code is fetched together with the profile, not after it.
  useEffect(() => {
    void loadDetails();
    void loadStatistics();
  }, []);

  return (
    <Flex vertical gap={24}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Профиль
      </Typography.Title>
      {me.isPending && <PageLoading />}
      {me.isError && <Alert type="error" showIcon title={me.error.message} />}
      {me.data && (
        <>
          <Suspense fallback={<LazyLoading />}>
            <ProfileDetails me={me.data} />
          </Suspense>
          <Suspense fallback={<LazyLoading />}>
            <FacilitiesCard />
          </Suspense>
          {isReviewer(me.data.role) && (
            <Suspense fallback={<LazyLoading />}>
              <RequisitesHistoryCard />
            </Suspense>
          )}
          <Suspense fallback={null}>
            <StatisticsCard />
          </Suspense>
        </>
      )}
    </Flex>
  );
}
