import { Announcements } from "../features/realtime/Announcements.tsx";
import { AccountBanners } from "../features/auth/impersonation.tsx";
import { ConnectionBanner } from "../features/realtime/ConnectionBanner.tsx";
import { deferred } from "../lib/deferred.tsx";
import { useAppData } from "./useAppData.ts";

// Staff's own notices (the player preview, the warnings) load only for staff: players never fetch
// their code or texts.
const StaffNotices = deferred("shell/StaffNotices", () => import("./StaffNotices.tsx").then((m) => m.StaffNotices), null);

/**
 * Every notice above the page, in one compact stack: the lost connection, the account's own
 * (impersonation, two-factor), staff warnings, the player preview and the latest announcement.
 * The event's countdown is the header's alone.
 */
export function Notices() {
  const { me } = useAppData();
  return (
    <div className="notice-stack" data-testid="notices">
      <ConnectionBanner />
      <AccountBanners />
      {me?.staffPowers && <StaffNotices />}
      <Announcements />
    </div>
  );
}
