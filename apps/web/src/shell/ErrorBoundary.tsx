import { Component, type ReactNode } from "react";
import { SomethingWentWrong } from "./ErrorScreen.tsx";

/** Last line of defence around the whole app. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (this.state.error) return <SomethingWentWrong message={this.state.error.message} />;
    return this.props.children;
  }
}
