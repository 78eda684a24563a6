import { Table } from "@mantine/core";
import type { ReactNode } from "react";
import "./admin.css";

/**
 * A staff console table's frame: on a wide screen it scrolls sideways inside its own box once the
 * page is narrower than minWidth; on a phone every row stacks into "label: value" lines (each cell
 * names its column with data-label), so nothing is cut off at the screen's edge. With sortable,
 * the sort buttons of the header stay on screen above the stacked rows.
 */
export function StackedTable({ minWidth, sortable, children }: { minWidth: number; sortable?: boolean; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} className="fs-stack-table" data-sortable={sortable || undefined}>
      {children}
    </Table.ScrollContainer>
  );
}
