// pdfjs's parser in a worker of its own, started by pdf-to-markdown.ts for each PDF in browsers. pdfjs's worker module
// answers on this worker's port by itself once loaded.
import "../src/gateway/uploads/promise-with-resolvers.ts";
import "pdfjs-dist/legacy/build/pdf.worker.mjs";
