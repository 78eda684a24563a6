import { deferred } from "../../lib/deferred.tsx";

/** The staff editors load only when staff open them, so players never download them. */

export const ChallengeEditor = deferred("features/authoring/ChallengeEditor", () => import("./ChallengeEditor.tsx").then((m) => m.ChallengeEditor));
export const NewChallengeEditor = deferred("features/authoring/NewChallengeEditor", () => import("./NewChallengeEditor.tsx").then((m) => m.NewChallengeEditor));
export const CategoryStaffBar = deferred("features/authoring/CategoryEditMode", () => import("./CategoryEditMode.tsx").then((m) => m.CategoryStaffBar), null);
export const NewCategoryPage = deferred("features/authoring/CategoryEditMode", () => import("./CategoryEditMode.tsx").then((m) => m.NewCategoryPage));
export const PortPage = deferred("features/authoring/PortPage", () => import("./PortPage.tsx").then((m) => m.PortPage));
export const ThemeBuilder = deferred("features/theming/ThemeBuilder", () => import("../theming/ThemeBuilder.tsx").then((m) => m.ThemeBuilder));
