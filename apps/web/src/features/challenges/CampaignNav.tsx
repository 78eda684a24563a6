import { NavLink } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { ariaCurrent, EXACT_MATCH, useSectionOpen } from "../../shell/current-entry.ts";
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
  // Every challenges page marks this entry (the submenu's button too) as the sidebar's one current
  // entry; the submenu opens on arrival and marks the category the page is in.
  const active = pathname === "/campaign" || pathname.startsWith("/campaign/");
  const [opened, setOpened] = useSectionOpen(active);
  const categories = data ?? [];
  if (!me || (!me.isStaff && categories.length <= 1)) {
    return <NavLink component={Link} to="/campaign" activeOptions={EXACT_MATCH} label={label} leftSection={icon} active={active} onClick={onNavigate} aria-current={ariaCurrent(pathname, "/campaign", active)} />;
  }
  return (
    <NavLink component="button" type="button" label={label} leftSection={icon} active={active} opened={opened} onChange={setOpened} aria-expanded={opened} childrenOffset="md">
      <NavLink component={Link} to="/campaign" activeOptions={EXACT_MATCH} label={t("challenges.back_to_categories")} aria-current={ariaCurrent(pathname, "/campaign", false)} onClick={onNavigate} />
      {categories.map((category) => {
        const inCategory = [category.slug, String(category.id)].some((key) => pathname === `/campaign/${key}` || pathname.startsWith(`/campaign/${key}/`));
        return (
          <NavLink
            key={category.id}
            component={Link}
            activeOptions={EXACT_MATCH}
            to={`/campaign/${category.slug}`}
            label={category.name}
            aria-current={ariaCurrent(pathname, `/campaign/${category.slug}`, inCategory)}
            onClick={onNavigate}
          />
        );
      })}
    </NavLink>
  );
}
