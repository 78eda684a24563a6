import { expect, type Page } from "@playwright/test";
import { seedUser, type SeededUser, setConfig, signIn } from "./db.ts";

/** The staff console's journeys: a new staff account signed in, a console page opened from the sidebar, the schedule put back. */

/** Signs the page in as a new staff account. */
export async function asStaff(page: Page): Promise<SeededUser> {
  const staff = await seedUser({ isStaff: true });
  await signIn(page, staff);
  return staff;
}

/** Opens a console page from the sidebar's Admin submenu (unfolding it when closed), as staff do. */
export async function openAdmin(page: Page, label: string, path: string): Promise<void> {
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  // The last match: "Teams" is also a main entry, above the admin submenu.
  const link = nav.getByRole("link", { name: label, exact: true }).last();
  if (!(await link.isVisible())) await nav.getByText("Admin", { exact: true }).click();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
}

/** Puts the event's schedule back as the journeys expect it: no start, no end. */
export async function clearSchedule(): Promise<void> {
  await setConfig("start_time", null);
  await setConfig("end_time", null);
}
