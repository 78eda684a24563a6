import { Anchor, Badge, Group, Text } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";

export interface Socials {
  twitter: string;
  reddit: string;
  discord: string;
  discordid: string;
}

/** Twitter, Reddit and Discord links; handles are URL-encoded so a profile cannot inject a link. */
export function SocialLinks({ socials }: { socials: Socials }) {
  const { t } = useTranslation();
  const items: { key: string; label: string; value: string; href?: string }[] = [];
  const handle = (s: string) => encodeURIComponent(s.replace(/^@/, "").replace(/^u\//, ""));
  if (socials.twitter) items.push({ key: "twitter", label: t("profiles.twitter"), value: `@${socials.twitter.replace(/^@/, "")}`, href: `https://twitter.com/${handle(socials.twitter)}` });
  if (socials.reddit) items.push({ key: "reddit", label: t("profiles.reddit"), value: `u/${socials.reddit.replace(/^u\//, "")}`, href: `https://www.reddit.com/user/${handle(socials.reddit)}` });
  if (socials.discord || socials.discordid) {
    items.push({
      key: "discord",
      label: t("profiles.discord"),
      value: socials.discord || socials.discordid,
      ...(/^\d+$/.test(socials.discordid) && { href: `https://discord.com/users/${socials.discordid}` }),
    });
  }
  if (items.length === 0) return null;
  return (
    <Group gap="xs" aria-label={t("profiles.links")}>
      {items.map((item) => (
        <Badge key={item.key} variant="default" size="lg" radius="sm" tt="none" fw={500}>
          <Text span size="xs" c="dimmed" mr={6}>
            {item.label}
          </Text>
          {item.href ? (
            <Anchor href={item.href} target="_blank" rel="noopener noreferrer nofollow" size="sm">
              {item.value}
            </Anchor>
          ) : (
            <Text span size="sm">
              {item.value}
            </Text>
          )}
        </Badge>
      ))}
    </Group>
  );
}
