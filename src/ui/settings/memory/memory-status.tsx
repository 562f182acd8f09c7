// What the Memory tab tells the user, next to the part of the tab it is about, and how its parts change the memory.
import type { MemoryDocument } from "../../../protocol/index.ts";
import { StatusLine, type Status } from "../../shared/status-line.tsx";

/** A message for the user, shown next to the part of the tab it is about. */
export interface MemoryStatus extends Status {
  area: "settings" | "memory";
}

/** Runs one change of the memory and shows the document it returns, with `done` as its status; false when refused. */
export type MemoryChange = (action: () => Promise<MemoryDocument>, done: string) => Promise<boolean>;

/** The status line of one area of the tab. */
export function AreaStatus(props: { status: MemoryStatus | undefined; area: MemoryStatus["area"] }) {
  return <StatusLine status={props.status?.area === props.area ? props.status : undefined} />;
}
