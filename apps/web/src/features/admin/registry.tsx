import type { ComponentType } from "react";
import { OutboxPage } from "../auth/OutboxPage.tsx";
import { PortPage } from "../authoring/lazy.tsx";
import { JobsPage } from "../challenge-servers/JobsPage.tsx";
import { LeaderboardGroupsAdmin } from "../groups/LeaderboardGroupsAdmin.tsx";
import { SharingPage } from "../sharing/SharingPage.tsx";
import { AnnouncementsPage } from "./AnnouncementsPage.tsx";
import { AuditLogPage } from "./AuditLogPage.tsx";
import { ChallengeOverviewPage } from "./ChallengeOverviewPage.tsx";
import { CheckPage } from "./CheckPage.tsx";
import { CmsPage } from "./CmsPage.tsx";
import { ConfigPage } from "./ConfigPage.tsx";
import { InvitesPage } from "./InvitesPage.tsx";
import { MembersPage } from "./MembersPage.tsx";
import { StatisticsPage } from "./StatisticsPage.tsx";
import { TeamsPage } from "./TeamsPage.tsx";
import "./texts.ts";

export interface AdminEntry {
  /** The address segment: the page lives at /admin/{page}. */
  page: string;
  /** The sidebar label's text key. */
  label: string;
  component: ComponentType;
}

/**
 * The staff console: every admin page, in sidebar order. Adding a page is one entry here; the
 * route (/admin/{page}, staff only) and the sidebar submenu both read this list.
 */
export const ADMIN_PAGES: AdminEntry[] = [
  { page: "config", label: "admin.config", component: ConfigPage },
  { page: "announcements", label: "admin.announcements", component: AnnouncementsPage },
  { page: "cms", label: "admin.cms", component: CmsPage },
  { page: "invites", label: "admin.invites", component: InvitesPage },
  { page: "statistics", label: "admin.statistics", component: StatisticsPage },
  { page: "members", label: "admin.members", component: MembersPage },
  { page: "teams", label: "admin.teams", component: TeamsPage },
  { page: "audit_log", label: "admin.audit_log", component: AuditLogPage },
  { page: "sharing", label: "sharing.page", component: SharingPage },
  { page: "allChallenges", label: "admin.allChallenges", component: ChallengeOverviewPage },
  { page: "check", label: "admin.check", component: CheckPage },
  { page: "port", label: "admin.port", component: PortPage },
  { page: "jobs", label: "admin.jobs", component: JobsPage },
  { page: "leaderboard-groups", label: "admin.leaderboard_groups", component: LeaderboardGroupsAdmin },
  { page: "outbox", label: "admin.outbox", component: OutboxPage },
];
