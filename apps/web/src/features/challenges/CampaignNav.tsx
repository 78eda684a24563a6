import { Box, Collapse, NavLink, UnstyledButton } from "@mantine/core";
import { IconChevronRight } from "@tabler/icons-react";
import { Link } from "@tanstack/react-router";
import { type ReactNode, useId } from "react";
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
  const submenu = useId();
  const categories = data ?? [];
  if (!me || (!me.isStaff && categories.length <= 1)) {
    return <NavLink component={Link} to="/campaign" activeOptions={EXACT_MATCH} label={label} leftSection={icon} active={active} onClick={onNavigate} aria-current={ariaCurrent(pathname, "/campaign", active)} />;
  }
  // The label is a link to the categories' page; the chevron beside it (a button of its own)
  // opens and closes the submenu without leaving the page.
  return (
    <div>
      <div className="campaign-nav-entry">
        <NavLink
          component={Link}
          to="/campaign"
          activeOptions={EXACT_MATCH}
          label={label}
          leftSection={icon}
          active={active}
          onClick={onNavigate}
          aria-current={ariaCurrent(pathname, "/campaign", active)}
          rightSection={<span className="campaign-nav-toggle-room" />}
        />
        <UnstyledButton
          className="campaign-nav-toggle"
          aria-label={t(opened ? "nav.hide_categories" : "nav.show_categories", { label })}
          aria-expanded={opened}
          aria-controls={submenu}
          onClick={() => setOpened(!opened)}
        >
          <IconChevronRight size={16} stroke={1.75} aria-hidden focusable="false" data-opened={opened || undefined} />
        </UnstyledButton>
      </div>
      <Collapse expanded={opened}>
        <Box id={submenu} pl="md" className="campaign-nav-children" role="group" aria-label={t("nav.categories_menu", { label })}>
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
        </Box>
      </Collapse>
    </div>
  );
}
