import { addTexts } from "../../lib/i18n.ts";

/** English texts of the announcement bar and the announcements inbox. */
export const inboxTexts = {
  inbox: {
    bell: "Announcements",
    bell_unread_one: "Announcements, {{count}} unread",
    bell_unread_other: "Announcements, {{count}} unread",
    title: "Announcements",
    close: "Close",
    empty: "No announcements yet.",
    failed: "The announcements could not be loaded.",
    new: "New",
    show_all: "All announcements",
    show_all_count: "All announcements ({{count}})",
  },
};

addTexts(inboxTexts);
