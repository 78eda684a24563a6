import type { ComponentType } from "react";
import { deferred } from "../../lib/deferred.tsx";
import { addTexts } from "../../lib/i18n.ts";

const OutboxPage = deferred("features/auth/OutboxPage", () => import("../auth/OutboxPage.tsx").then((m) => m.OutboxPage));
import { PortPage } from "../authoring/lazy.tsx";
const JobsPage = deferred("features/challenge-servers/JobsPage", () => import("../challenge-servers/JobsPage.tsx").then((m) => m.JobsPage));
const LeaderboardGroupsAdmin = deferred("features/groups/LeaderboardGroupsAdmin", () => import("../groups/LeaderboardGroupsAdmin.tsx").then((m) => m.LeaderboardGroupsAdmin));
const AnnouncementsPage = deferred("features/admin/AnnouncementsPage", () => import("./AnnouncementsPage.tsx").then((m) => m.AnnouncementsPage));
const AuditLogPage = deferred("features/admin/AuditLogPage", () => import("./AuditLogPage.tsx").then((m) => m.AuditLogPage));
const ChallengeOverviewPage = deferred("features/admin/ChallengeOverviewPage", () => import("./ChallengeOverviewPage.tsx").then((m) => m.ChallengeOverviewPage));
const CheckPage = deferred("features/admin/CheckPage", () => import("./CheckPage.tsx").then((m) => m.CheckPage));
const CmsPage = deferred("features/admin/CmsPage", () => import("./CmsPage.tsx").then((m) => m.CmsPage));
const ConfigPage = deferred("features/admin/ConfigPage", () => import("./ConfigPage.tsx").then((m) => m.ConfigPage));
const InvitesPage = deferred("features/admin/InvitesPage", () => import("./InvitesPage.tsx").then((m) => m.InvitesPage));
const MembersPage = deferred("features/admin/MembersPage", () => import("./MembersPage.tsx").then((m) => m.MembersPage));
const StatisticsPage = deferred("features/admin/StatisticsPage", () => import("./StatisticsPage.tsx").then((m) => m.StatisticsPage));
const ThemePage = deferred("features/admin/ThemePage", () => import("./ThemePage.tsx").then((m) => m.ThemePage));
const ProjectorPage = deferred("features/admin/ProjectorPage", () => import("./ProjectorPage.tsx").then((m) => m.ProjectorPage));
const TeamsPage = deferred("features/admin/TeamsPage", () => import("./TeamsPage.tsx").then((m) => m.TeamsPage));
const ScoreboardAdminPage = deferred("features/moments/ScoreboardAdminPage", () => import("../moments/ScoreboardAdminPage.tsx").then((m) => m.ScoreboardAdminPage));
const SubmissionsPage = deferred("features/moderation/SubmissionsPage", () => import("../moderation/SubmissionsPage.tsx").then((m) => m.SubmissionsPage));
const SharingPage = deferred("features/sharing/SharingPage", () => import("../sharing/SharingPage.tsx").then((m) => m.SharingPage));

export interface AdminEntry {
  /** The address segment: the page lives at /admin/{page}. */
  page: string;
  /** The sidebar label's text key. */
  label: string;
  /** The part of the console it belongs to (ADMIN_GROUPS). */
  group: AdminGroup;
  component: ComponentType;
}

// The group headings are read by the sidebar, which every page loads: here, not with the console's texts.
addTexts({
  admin_groups: {
    console: "Staff console",
    event: "Event",
    people: "People",
    content: "Content",
    challenge_servers: "Challenge servers",
    integrity: "Integrity",
  },
});

/** The console's parts, in sidebar order; each names its heading's text key (admin_groups.*). */
export const ADMIN_GROUPS = ["event", "people", "content", "challenge_servers", "integrity"] as const;
export type AdminGroup = (typeof ADMIN_GROUPS)[number];

/**
 * The staff console: every admin page, in sidebar order within its group. Adding a page is one entry here; the
 * route (/admin/{page}, staff only) and the sidebar submenu both read this list.
 */
export const ADMIN_PAGES: AdminEntry[] = [
  { page: "config", label: "admin.config", group: "event", component: ConfigPage },
  { page: "check", label: "admin.check", group: "event", component: CheckPage },
  { page: "announcements", label: "admin.announcements", group: "event", component: AnnouncementsPage },
  { page: "scoreboard", label: "admin.scoreboard", group: "event", component: ScoreboardAdminPage },
  { page: "statistics", label: "admin.statistics", group: "event", component: StatisticsPage },
  { page: "leaderboard-groups", label: "admin.leaderboard_groups", group: "event", component: LeaderboardGroupsAdmin },
  { page: "theme", label: "admin.theme", group: "event", component: ThemePage },
  { page: "projector", label: "admin.projector", group: "event", component: ProjectorPage },
  { page: "members", label: "admin.members", group: "people", component: MembersPage },
  { page: "teams", label: "admin.teams", group: "people", component: TeamsPage },
  { page: "invites", label: "admin.invites", group: "people", component: InvitesPage },
  { page: "outbox", label: "admin.outbox", group: "people", component: OutboxPage },
  { page: "cms", label: "admin.cms", group: "content", component: CmsPage },
  { page: "allChallenges", label: "admin.allChallenges", group: "content", component: ChallengeOverviewPage },
  { page: "port", label: "admin.port", group: "content", component: PortPage },
  { page: "jobs", label: "admin.jobs", group: "challenge_servers", component: JobsPage },
  { page: "submissions", label: "admin.submissions", group: "integrity", component: SubmissionsPage },
  { page: "audit_log", label: "admin.audit_log", group: "integrity", component: AuditLogPage },
  { page: "sharing", label: "sharing.page", group: "integrity", component: SharingPage },
];
