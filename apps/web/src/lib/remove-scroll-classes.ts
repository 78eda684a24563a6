/**
 * All that Mantine's AppShell takes from react-remove-scroll: the class names it puts on its fixed
 * bars, which the library's scroll lock pads while it locks. Nothing locks with it any more (dialogs
 * are native, lib/Dialog.tsx), so the names are kept and the library stays out of the shell.
 */
export const RemoveScroll = {
  classNames: { zeroRight: "right-scroll-bar-position", fullWidth: "width-before-scroll-bar" },
};
