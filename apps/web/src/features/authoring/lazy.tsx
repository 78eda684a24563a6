import { deferred } from "../../lib/deferred.tsx";

/** The staff editors load only when staff open them, so players never download them. */

export const ChallengeEditor = deferred(() => import("./ChallengeEditor.tsx").then((m) => m.ChallengeEditor));
export const NewChallengeEditor = deferred(() => import("./NewChallengeEditor.tsx").then((m) => m.NewChallengeEditor));
export const CategoryStaffBar = deferred(() => import("./CategoryEditMode.tsx").then((m) => m.CategoryStaffBar), null);
export const NewCategoryPage = deferred(() => import("./CategoryEditMode.tsx").then((m) => m.NewCategoryPage));
export const PortPage = deferred(() => import("./PortPage.tsx").then((m) => m.PortPage));
export const ThemeBuilder = deferred(() => import("../theming/ThemeBuilder.tsx").then((m) => m.ThemeBuilder));
