import { Notifications } from "@mantine/notifications";

/** The toasts' container; main.tsx loads it after the first paint (toasts shown earlier wait in the store). */
export default Notifications;
