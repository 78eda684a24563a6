import { NavLink } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { useCategories } from "./useCategories.ts";

/**
 * The sidebar's challenges entry: with a submenu of categories for staff, or when there is more
 * than one category. Before the event starts the listing is refused and the entry stays plain.
 */
export function CampaignNav({ label, icon, pathname, onNavigate }: { label: string; icon?: ReactNode; pathname: string; onNavigate?: (() => void) | undefined }) {
  const { t } = useTranslation();
  const { me } = useAppData();
  const { data } = useCategories(me !== null);
  const active = pathname === "/campaign" || pathname.startsWith("/campaign/");
  const categories = data ?? [];
  if (!me || (!me.isStaff && categories.length <= 1)) {
    return <NavLink component={Link} to="/campaign" label={label} leftSection={icon} active={active} onClick={onNavigate} aria-current={pathname === "/campaign" ? "page" : undefined} />;
  }
  return (
    <NavLink component="button" type="button" label={label} leftSection={icon} active={active && pathname !== "/campaign" && !categories.some((c) => pathname.startsWith(`/campaign/${c.slug}`))} defaultOpened={active} childrenOffset="md">
      <NavLink component={Link} to="/campaign" label={t("challenges.back_to_categories")} active={pathname === "/campaign"} aria-current={pathname === "/campaign" ? "page" : undefined} onClick={onNavigate} />
      {categories.map((category) => (
        <NavLink
          key={category.id}
          component={Link}
          to={`/campaign/${category.slug}`}
          label={category.name}
          active={pathname === `/campaign/${category.slug}` || pathname.startsWith(`/campaign/${category.slug}/`) || pathname === `/campaign/${category.id}`}
          onClick={onNavigate}
        />
      ))}
    </NavLink>
  );
}
