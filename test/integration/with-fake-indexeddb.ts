// Loads fake-indexeddb into Node's globals: harness.ts imports it unless the Gateway runs over the in-memory store.
import "fake-indexeddb/auto";
