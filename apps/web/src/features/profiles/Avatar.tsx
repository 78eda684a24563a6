import { Avatar } from "@mantine/core";

/** An initials avatar with a colour derived from the name, so each player's stays the same. */
export function NameAvatar({ name, size = 96 }: { name: string; size?: number }) {
  return <Avatar name={name} color="initials" size={size} radius={size} alt="" />;
}
