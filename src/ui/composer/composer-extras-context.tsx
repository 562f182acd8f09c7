// Gives the composer's extras (composer-extras.ts) to the composer and the welcome screen: made once under the
// stores, told by the runs store of each message sent and each run's end, and by the open thread of each thread opened.
import { createContext, useContext, type JSX } from "solid-js";
import { useGateway, useModelChoice, useNotices, useOpenThread, useRuns } from "../state/stores.tsx";
import { createComposerExtras, type ComposerExtras } from "./composer-extras.ts";

const ComposerExtrasContext = createContext<ComposerExtras>();

export function ComposerExtrasProvider(props: { children: JSX.Element }) {
  const openThread = useOpenThread();
  const modelChoice = useModelChoice();
  const extras = createComposerExtras({
    client: useGateway(),
    threadId: () => openThread.current()?.thread_id,
    model: () => modelChoice.runModel(),
    setNotice: useNotices().setNotice,
  });
  useRuns().listen(extras);
  openThread.onOpened((threadId) => void extras.refreshUsage(threadId));
  return <ComposerExtrasContext.Provider value={extras}>{props.children}</ComposerExtrasContext.Provider>;
}

export function useComposerExtras(): ComposerExtras {
  const extras = useContext(ComposerExtrasContext);
  if (!extras) throw new Error("The composer's extras are used outside ComposerExtrasProvider.");
  return extras;
}
