// The endpoints Settings → Models offers as one-click presets (OpenAI-compatible base URLs).

/** A preset's button label and the base URL it fills in. */
export const PRESETS: { name: string; baseUrl: string }[] = [
  { name: "OpenAI", baseUrl: "https://api.openai.com/v1" },
  { name: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1" },
  { name: "DeepSeek", baseUrl: "https://api.deepseek.com/v1" },
  { name: "Ollama", baseUrl: "http://localhost:11434/v1" },
  { name: "LM Studio", baseUrl: "http://localhost:1234/v1" },
  { name: "Mock (npm run mock-llm)", baseUrl: "http://127.0.0.1:11435/v1" },
];
