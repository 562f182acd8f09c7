// The English dictionary, part: the Settings dialog, Settings → Models (endpoints, providers, the models
// offered, field errors), Tools (MCP servers) and Web. Not in the first screen's English (en.ts): the Settings
// dialog's chunk imports it, and it adds itself to the English dictionary as it loads (index.ts `addEnglish`).
import { template } from "@solid-primitives/i18n";
import { addEnglish } from "./index.ts";

export const enModelsTools = {
  // Settings dialog and Settings → Models (settings-dialog.tsx, models-tab.tsx).
  "settings.title": "Settings",
  "settings.close": "Close settings",
  "settings.sections": "Settings sections",
  "settings.tab.models": "Models",
  "settings.tab.web": "Web",
  "settings.tab.tools": "Tools",
  "settings.tab.skills": "Skills",
  "settings.tab.memory": "Memory",
  "settings.tab.agents": "Agents",
  "settings.tab.schedules": "Schedules",
  "settings.tab.subagents": "Subagents",
  "settings.tab.sandbox": "Sandbox",
  "settings.tab.appearance": "Appearance",
  "settings.tab.data": "Data",
  "settings.tab.servers": "Servers",
  "models.hint":
    "Any OpenAI-compatible endpoint works, and Anthropic and Gemini natively; you can add several. Each key stays in this browser and is sent only to its endpoint.",
  "models.endpoint": "Endpoint",
  "models.mainOption": template<{ name: string }>("{{ name }} (default model)"),
  "models.addEndpoint": "Add endpoint",
  "models.removeEndpoint": "Remove endpoint",
  "models.removedUnsaved": template<{ name: string }>("{{ name }} removed. Save to keep the change."),
  "models.firstEndpoint": "Main endpoint",
  "models.endpointN": template<{ count: string }>("Endpoint {{ count }}"),
  "models.endpointName": "Endpoint name",
  "models.presets": "Endpoint presets",
  "models.developerPresets": "For developers",
  "models.baseUrl": "Base URL",
  "models.apiKey": "API key",
  "models.apiKeyPlaceholder": "Leave empty for local servers",
  "models.useProxy": "Use the proxy",
  "models.useProxyHint":
    "For providers that refuse requests from web pages: requests go through Fawn's proxy, a helper that runs on your computer (Settings → Web, Proxy URL, says more).",
  "models.model": "Model",
  "models.listModels": "List models",
  "models.asking": "Asking the endpoint for its models…",
  "models.offers": template<{ count: string }>("The endpoint offers {{ count }} models."),
  "models.offersNone": "The endpoint listed no models.",
  "models.choose": "Models to choose from",
  "models.chooseHint":
    "Mark the models that reason (they think in the Thinking, Pro and Ultra modes) and those that read images.",
  "models.thinking": "Thinking",
  "models.vision": "Vision",
  "models.remove": template<{ model: string }>("Remove {{ model }}"),
  "models.addAModel": "Add a model",
  "models.addPlaceholder": "another model of this endpoint",
  "models.addModel": "Add model",
  "models.titles": "Name threads with the model (one short extra request per thread)",

  // Settings → Models: the default model, of any endpoint (models-tab.tsx).
  "models.defaultChoice": "Default",
  "models.defaultHint":
    "New messages go to the model marked Default unless the composer picks another; memory updates use it too.",

  // Settings → Models: providers, each model's reasoning switch, context window and tools (endpoint-fields.tsx,
  // endpoint-model-list.tsx).
  "models.provider": "Provider",
  "models.provider.openai-compatible": "OpenAI-compatible",
  "models.provider.anthropic": "Anthropic (Messages API)",
  "models.provider.gemini": "Google Gemini",
  "models.proxyBecause": template<{ name: string }>(
    '{{ name }} refuses requests from web pages, so "Use the proxy" is on: Fawn\'s proxy must be running on this computer (Settings → Web, Proxy URL). Switch it off if {{ name }} answers this page directly.',
  ),
  "models.localHint": template<{ name: string }>(
    "{{ name }} runs on your computer: allow this page in its own settings (Ollama: OLLAMA_ORIGINS; LM Studio: Enable CORS; vLLM: --allowed-origins).",
  ),
  "models.reasoning": "Reasoning",
  "models.reasoning.auto": template<{ style: string }>("Auto: {{ style }}"),
  "models.reasoning.reasoning-effort": "reasoning_effort (OpenAI)",
  "models.reasoning.enable-thinking": "enable_thinking (Qwen)",
  "models.reasoning.deepseek": "reasoning_content (DeepSeek reasoner)",
  "models.reasoning.anthropic-thinking": "Thinking budget (Anthropic)",
  "models.reasoning.gemini-thinking": "Thinking budget (Gemini)",
  "models.reasoning.none": "None",
  "models.contextWindow": "Context window",
  "models.contextPlaceholder": "tokens",
  "models.tools": "Tools",
  // A model's options, behind its "Options" disclosure (settings/models/model-options-fields.tsx).
  "models.options": "Options",
  "models.optionsHint":
    "Empty fields keep the provider's defaults. The extra body is merged into each request while the model reasons (Thinking, Pro and Ultra).",
  "models.temperature": "Temperature",
  "models.maxTokens": "Max tokens",
  "models.defaultPlaceholder": "default",
  "models.responsesApi": "Use OpenAI's Responses API",
  "models.thinkingExtraBody": "Extra body when thinking (JSON)",
  // What "List models" found, each added with a click (settings/models/offered-models.tsx).
  "models.offered": "Models the endpoint offers",
  "models.addOffered": template<{ model: string }>("Add {{ model }}"),
  "models.added": "Added",
  "models.add": "Add",
  "models.addAll": "Add all",
  "models.addAllTooMany": template<{ count: string }>(
    "An endpoint holds at most {{ count }} models: add the ones you use.",
  ),
  "models.filterOffered": "Filter the models offered",
  "models.offeredNoMatch": "No model offered matches.",
  // A field of Settings → Models that Save refuses, shown under it (settings/models/model-settings-form.ts).
  "models.error.name": "Each endpoint needs a name.",
  "models.error.nameLong": "An endpoint name is at most 40 characters.",
  "models.error.nameTwice": template<{ name: string }>("Another endpoint is named {{ name }}."),
  "models.error.baseUrl": "Base URL is required, for example https://api.openai.com/v1",
  "models.error.baseUrlForm": "Base URL must be an http:// or https:// address, for example https://api.openai.com/v1",
  "models.error.model": "A model name is required, for example gpt-4o-mini",
  "models.error.modelLong": "A model name is at most 200 characters.",
  "models.error.modelTwice": template<{ model: string }>("The model {{ model }} is listed twice."),
  "models.error.noModels": template<{ name: string }>("List at least one model for {{ name }}."),
  "models.error.contextWindow": "A context window is a whole number from 1,000 to 100,000,000 tokens.",
  "models.error.temperature": template<{ max: string }>("A temperature is a number from 0 to {{ max }}."),
  "models.error.maxTokens": "Max tokens is a whole number from 1 to 1,000,000.",
  "models.error.responsesApi": "Only an OpenAI-compatible endpoint speaks the Responses API: turn it off.",
  "models.error.extraBody": 'Write a JSON object, for example {"thinking": {"type": "enabled"}}.',
  "models.error.extraBodyProvider": "A Gemini endpoint sends no extra body: clear it.",
  "models.error.extraBodyReserved": template<{ key: string }>("Fawn writes {{ key }} itself: leave it out."),
  "models.error.extraBodySize": "Keep the extra body within 8,000 characters.",

  // Settings → Web.
  "web.search.off": "The agent has no web_search. It can still read pages you give it with web_fetch.",
  "web.search.tavily": "Needs an API key from tavily.com. Answers this browser directly.",
  "web.search.brave":
    "Needs an API key from brave.com/search/api. Brave refuses browser requests: set the Proxy URL below.",
  "web.search.searxng":
    "Your own SearXNG instance, with the json format enabled in its settings.yml. Without CORS headers on the instance, set the Proxy URL below.",
  "web.search.jina": "Needs an API key from jina.ai. Answers this browser directly.",
  "web.search.firecrawl": "Needs an API key from firecrawl.dev. Answers this browser directly.",
  "web.fetch.firecrawl":
    "Pages are read on Firecrawl's side, pages that need JavaScript too, with a key from firecrawl.dev.",
  "web.imageProvider": "Image search provider",
  "web.imageKey": "Image search API key",
  "web.imageBaseUrl": "Image search base URL",
  "web.images.off": "The agent has no image_search.",
  "web.images.firecrawl": "Firecrawl's image search, with a key from firecrawl.dev. Answers this browser directly.",
  "web.images.brave":
    "Brave's image search, with a key from brave.com/search/api. Brave refuses browser requests: set the Proxy URL below.",
  "web.images.serper":
    "Google's image results through serper.dev, with its key; size, type and layout filters work. Set the Proxy URL below.",
  "web.fetch.jina":
    "Jina's reader works without a key at a low rate limit; a key raises it. The pages are read on Jina's side.",
  "web.fetch.direct":
    "Pages are read from this browser. Most sites refuse browser requests, so set the Proxy URL below.",
  "web.intro":
    "The agent's web_search, web_fetch and image_search tools call these services with your own keys. Keys stay in this browser and are sent only to their service (or through your proxy).",
  "web.searchProvider": "Search provider",
  "web.off": "Off",
  "web.searchKey": "Search API key",
  "web.searchBaseUrl": "Search base URL",
  "web.publicService": "Leave empty for the public service.",
  "web.fetchProvider": "Fetch provider",
  "web.fetchKey": "Fetch API key",
  "web.optional": "Optional",
  "web.fetchBaseUrl": "Fetch base URL",
  "web.proxyUrl": "Proxy URL",
  "web.askBeforeSending": "Ask before sending data out",
  "web.askBeforeSendingHint":
    "In every thread, web_search, web_fetch and MCP tools wait for your Allow. Threads holding another person's messages always ask.",
  "web.proxyHint": template<{ command: string }>(
    "Fawn's proxy is an optional helper that runs on your computer and passes on requests to services and pages that refuse requests from web pages; services that answer web pages are always called directly. Whoever installed Fawn starts it (for developers: {{ command }}).",
  ),
  "web.proxyToken": "Proxy token",
  "web.proxyTokenHint": template<{ file: string }>(
    "The proxy answers only requests that carry its token, a secret it keeps in a file on your computer ({{ file }}) and names when it starts: paste that file's text here. It is sent to the proxy alone, and stays in this browser with your keys, out of every backup.",
  ),

  // Settings → Tools: MCP servers (settings/tools/tools-tab.tsx).
  "tools.intro":
    "MCP servers bring your own tools: the agent can call every tool switched on here, in every mode. A server that refuses requests from web pages works through Fawn's proxy (Settings → Web, Proxy URL). A server that is a program on your computer runs through the proxy too: it is listed in the proxy's own settings, then added here by its proxy address.",
  "tools.none": "No MCP servers yet.",
  "tools.newServer": "New server",
  "tools.enabled": "Enabled",
  "tools.name": "Name",
  "tools.url": "URL",
  "tools.useProxy": "Use the proxy",
  "tools.bearerToken": "Bearer token",
  "tools.clientId": "Client ID",
  "tools.clientSecret": "Client secret",
  "tools.clientHint":
    "For a server that does not register Fawn itself: the OAuth client registered for Fawn with its sign-in. The secret is kept with your keys, never exported.",
  "tools.headers": "Headers",
  "tools.headersHint": "One per line, Name: value. Kept with your keys, never exported.",
  "tools.description": "Description",
  "tools.timeout": "Timeout (seconds)",
  "tools.test": "Test connection",
  "tools.testing": "Connecting…",
  "tools.noTools": "The server offers no tools.",
  "tools.signIn": "Sign in",
  "tools.signingIn": "Signing in in the other window…",
  "tools.signedIn": "Signed in",
  "tools.signOut": "Sign out",
  "tools.popupBlocked": "The browser blocked the sign-in window: allow pop-ups for Fawn, then press Sign in again.",
  "tools.error.name": "A server needs a name: 1 to 32 letters, digits, '-' or '_' (it starts its tools' names).",
  "tools.error.nameForm": "A server's name is 1 to 32 letters, digits, '-' or '_' (it starts its tools' names).",
  "tools.error.nameTwice": template<{ name: string }>(
    "Another server is named {{ name }}: each needs a name of its own.",
  ),
  "tools.error.url": "The URL is an http:// or https:// address, like https://example.com/mcp (no user name in it).",
  "tools.error.headerLine": "Write each header as Name: value, one per line.",
  "tools.error.headerName": template<{ name: string }>("{{ name }} is not a header name: use letters, digits and '-'."),
  "tools.error.headerReserved":
    "Put a bearer token in Bearer token, not in the headers; Content-Type and the session are set by Fawn.",
  "tools.error.token": "A bearer token has no spaces.",
  "tools.error.clientId": "A client ID has no spaces.",
  "tools.error.clientSecret": "A client secret has no spaces.",
  "tools.error.secretWithoutId": "A client secret goes with its client ID: fill in Client ID too.",
  "tools.error.timeout": "The timeout is a whole number of seconds from 1 to 3600.",
  "web.error.keyNeeded": template<{ provider: string }>("{{ provider }} needs an API key."),
  "web.error.jinaKey": "Jina Search needs an API key (the Jina Reader works without one, search does not).",
  "web.error.searxng": "SearXNG needs the address of your instance, e.g. https://searx.example.org",
  "web.error.baseUrl": template<{ example: string }>(
    "The base URL must be an http:// or https:// address, e.g. {{ example }}",
  ),
  "web.error.needsProxy": template<{ provider: string }>(
    "{{ provider }} refuses requests from web pages: it works through Fawn's proxy, a helper that runs on your computer. Set its Proxy URL below.",
  ),
  "web.error.proxyToken":
    "The proxy token is the text of the proxy's token file (letters, digits, - and _, at least 22): the proxy names that file when it starts.",
  "web.error.proxyUrl": "The proxy URL must be an http:// or https:// address, e.g. http://127.0.0.1:8787/forward/.",
  "tools.toolsOf": template<{ name: string }>("Tools of {{ name }}"),
  "tools.removeServer": template<{ name: string }>("Remove server {{ name }}"),
  "tools.addServer": "Add server",
  "tools.import": "Import DeerFlow config",
  "tools.importFile": "MCP configuration file",
  "tools.export": "Export DeerFlow config",
  "tools.imported": template<{ count: string }>("Servers read from the file: {{ count }}. Save to keep them."),
  "tools.renamedBuiltIn": template<{ name: string }>("Renamed to {{ name }}: its name is a built-in tool's."),
  "tools.renamedTaken": template<{ name: string; server: string; tool: string }>(
    "Renamed to {{ name }}: {{ server }}'s tool {{ tool }} has its name.",
  ),
  "tools.refusedCharacters": template<{ name: string }>(
    'Left out: its name {{ name }} holds characters other than letters, digits, "_" and "-".',
  ),
  "tools.refusedLong": template<{ name: string }>("Left out: its name {{ name }} is longer than 64 characters."),
  "tools.refusedTwice": "Left out: the server lists this tool twice.",
  "tools.refusedNoRoom": template<{ name: string }>(
    "Left out: {{ name }} is taken, and no other name for it fits in 64 characters.",
  ),
  // Settings → Models → Summaries and titles (summaries-titles-section.tsx).
  "summaries.title": "Summaries and titles",
  "summaries.hint":
    "Long conversations are condensed for the model: older messages are sent as a summary (the thread keeps them all). New threads are named after their first exchange.",
  "summaries.summaries": "Summaries",
  "summaries.summarize": "Summarize older messages for the model",
  "summaries.triggerHint": "Summarize once any of these is reached; leave a field empty to not use it.",
  "summaries.trigger.tokens": "Tokens",
  "summaries.trigger.messages": "Messages",
  "summaries.trigger.fraction": "Fraction of the context window",
  "summaries.keepType": "Keep as they are, counted in",
  "summaries.keepValue": "Keep",
  "summaries.kind.tokens": "Tokens",
  "summaries.kind.messages": "Messages",
  "summaries.kind.fraction": "Fraction of the context window",
  "summaries.titles": "Titles",
  "summaries.titlesOn": "Give new threads a title",
  "summaries.maxWords": "Most words",
  "summaries.maxChars": "Most characters",
  "summaries.prompt": "Title prompt",
  "summaries.promptHint":
    "Optional, for the title model. {user_msg} (needed), {assistant_msg} and {max_words} are filled in; empty uses Fawn's own.",
  "summaries.save": "Save summaries and titles",
};

// Only the Settings dialog's modules import this part: its texts join the English dictionary as their chunk loads.
addEnglish(enModelsTools);
