// The services most users never pick (Firecrawl, and the image searches), gathered for one chunk of their own that
// lazy-providers.ts loads on a tool's first call: the agent worker's first load stays as it was.
export { BraveImages } from "./brave-images.ts";
export { FirecrawlFetch, FirecrawlImages, FirecrawlSearch } from "./firecrawl.ts";
export { SerperImages } from "./serper-images.ts";
