import { addTexts } from "../../lib/i18n.ts";

addTexts({
  logo: {
    label: "Logo",
    hint: "PNG, JPEG, WebP or SVG, up to 100 KiB. Shown in the header beside the event's name.",
    choose: "Choose an image",
    replace: "Replace",
    remove: "Remove",
    preview_alt: "The chosen logo",
    none: "Flagship's mark is shown until you choose one.",
    bad_type: "Use a PNG, JPEG, WebP or SVG image.",
    too_big: "The logo may be at most 100 KiB: this file is {{size}} KiB.",
    unreadable: "The file could not be read.",
    saved: "Logo saved",
    removed: "Logo removed",
    save_failed: "Failed to save the logo:",
  },
});
