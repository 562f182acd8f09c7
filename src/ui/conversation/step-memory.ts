// What the reader did to a reply's tool steps (opened one, asked for its images), by tool call id. A live reply
// gives way to the saved one when its run ends, and a long thread's list unmounts entries out of view: both build
// the steps anew, and without this a step the reader had just opened would close under them. The conversation
// provides one memory per open thread.
import { createContext, createSignal, useContext } from "solid-js";

export interface StepMemory {
  /** Whether the reader opened the step of this call. */
  opened(callId: string): boolean;
  setOpened(callId: string, opened: boolean): void;
  /** Whether the reader asked to load this image_search step's thumbnails. */
  imagesShown(callId: string): boolean;
  showImages(callId: string): void;
}

export function createStepMemory(): StepMemory {
  const [opened, setOpened] = createSignal<ReadonlySet<string>>(new Set());
  const [shown, setShown] = createSignal<ReadonlySet<string>>(new Set());
  const change = (set: ReadonlySet<string>, key: string, present: boolean): ReadonlySet<string> => {
    if (set.has(key) === present) return set;
    const next = new Set(set);
    if (present) next.add(key);
    else next.delete(key);
    return next;
  };
  return {
    opened: (callId) => opened().has(callId),
    setOpened: (callId, value) => setOpened((set) => change(set, callId, value)),
    imagesShown: (callId) => shown().has(callId),
    showImages: (callId) => setShown((set) => change(set, callId, true)),
  };
}

export const StepMemoryContext = createContext<StepMemory | undefined>();

/** The conversation's memory, or one of the component's own where none is provided (a preview, a test). */
export function useStepMemory(): StepMemory {
  return useContext(StepMemoryContext) ?? createStepMemory();
}
