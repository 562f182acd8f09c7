// An imported memory document merged into the stored one: new facts added once (by content), ids kept unique, an
// empty summary filled, a written one left as it is.
import { capFacts, factContentKey, MAX_DOCUMENT_FACTS, newFactId } from "../agent/index.ts";
import type { MemoryDocument, MemorySection } from "../protocol/index.ts";

const SECTIONS = {
  user: ["workContext", "personalContext", "topOfMind"],
  history: ["recentMonths", "earlierContext", "longTermBackground"],
} as const;

/**
 * `imported` merged into `stored`: facts whose content the memory already holds (case and spacing aside) are not
 * added again, an id already taken gets a new one; an empty summary takes the imported one, a written one stays.
 * Undefined when nothing would change.
 */
export function mergeMemoryDocuments(
  stored: MemoryDocument,
  imported: MemoryDocument,
  now: Date,
): { value: MemoryDocument; added: number } | undefined {
  const contents = new Set(stored.facts.map((fact) => factContentKey(fact.content)));
  const ids = new Set(stored.facts.map((fact) => fact.id));
  const added = [];
  for (const fact of imported.facts) {
    const key = factContentKey(fact.content);
    if (contents.has(key)) continue;
    contents.add(key);
    let id = fact.id;
    while (ids.has(id)) id = newFactId();
    ids.add(id);
    added.push({ ...fact, id });
  }
  let sectionsChanged = false;
  const section = (mine: MemorySection, theirs: MemorySection): MemorySection => {
    if (mine.summary.trim() !== "" || theirs.summary.trim() === "") return mine;
    sectionsChanged = true;
    return theirs;
  };
  const user = { ...stored.user };
  for (const name of SECTIONS.user) user[name] = section(stored.user[name], imported.user[name]);
  const history = { ...stored.history };
  for (const name of SECTIONS.history) history[name] = section(stored.history[name], imported.history[name]);
  if (added.length === 0 && !sectionsChanged) return undefined;
  const facts = capFacts([...stored.facts, ...added], MAX_DOCUMENT_FACTS);
  const kept = facts.length - stored.facts.filter((fact) => facts.includes(fact)).length;
  return {
    value: { version: "1.0", lastUpdated: now.toISOString(), user, history, facts },
    added: kept,
  };
}
