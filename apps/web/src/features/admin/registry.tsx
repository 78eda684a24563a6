import type { ComponentType } from "react";
import { deferred } from "../../lib/deferred.tsx";

const OutboxPage = deferred(() => import("../auth/OutboxPage.tsx").then((m) => m.OutboxPage));
import { PortPage } from "../authoring/lazy.tsx";
const JobsPage = deferred(() => import("../challenge-servers/JobsPage.tsx").then((m) => m.JobsPage));
const LeaderboardGroupsAdmin = deferred(() => import("../groups/LeaderboardGroupsAdmin.tsx").then((m) => m.LeaderboardGroupsAdmin));
const AnnouncementsPage = deferred(() => import("./AnnouncementsPage.tsx").then((m) => m.AnnouncementsPage));
const AuditLogPage = deferred(() => import("./AuditLogPage.tsx").then((m) => m.AuditLogPage));
const ChallengeOverviewPage = deferred(() => import("./ChallengeOverviewPage.tsx").then((m) => m.ChallengeOverviewPage));
const CheckPage = deferred(() => import("./CheckPage.tsx").then((m) => m.CheckPage));
const CmsPage = deferred(() => import("./CmsPage.tsx").then((m) => m.CmsPage));
const ConfigPage = deferred(() => import("./ConfigPage.tsx").then((m) => m.ConfigPage));
const InvitesPage = deferred(() => import("./InvitesPage.tsx").then((m) => m.InvitesPage));
const MembersPage = deferred(() => import("./MembersPage.tsx").then((m) => m.MembersPage));
const StatisticsPage = deferred(() => import("./StatisticsPage.tsx").then((m) => m.StatisticsPage));
const TeamsPage = deferred(() => import("./TeamsPage.tsx").then((m) => m.TeamsPage));
const SharingPage = deferred(() => import("../sharing/SharingPage.tsx").then((m) => m.SharingPage));

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
