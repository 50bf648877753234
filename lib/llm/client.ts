// The configured chat model (any server speaking OpenAI chat completions). Used by skill
// distillation and the validation judge. Without configuration the engine uses its
// deterministic template distiller and judge instead, so the product works without a key.
import OpenAI from "openai";

export type LlmConfig = { baseURL: string | undefined; apiKey: string; model: string; timeoutMs: number };

export type ChatModel = {
  /** The model's answer text (trimmed; "" when it answered nothing). Throws on error or timeout. */
  complete(input: { instructions: string; prompt: string }): Promise<string>;
  readonly model: string;
};

/** PROCTOR_LLM_BASE_URL and/or PROCTOR_LLM_API_KEY turn the model on; null means "no LLM". */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LlmConfig | null {
  const baseURL = env.PROCTOR_LLM_BASE_URL?.trim() || undefined;
  const apiKey = env.PROCTOR_LLM_API_KEY?.trim() || "";
  if (!baseURL && !apiKey) return null;
  const timeoutMs = Number(env.PROCTOR_LLM_TIMEOUT_MS ?? 60_000);
  return {
    baseURL,
    // Local OpenAI-compatible servers usually accept any key; the SDK insists on one.
    apiKey: apiKey || "unused",
    model: env.PROCTOR_LLM_MODEL?.trim() || "gpt-5-mini",
    timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 60_000,
  };
}

function createChatModel(config: LlmConfig): ChatModel {
  // No retries: a failed call is reported (distillation error, judge unavailable) and the class
  // stays eligible for the next cycle, which is the retry.
  const client = new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey, timeout: config.timeoutMs, maxRetries: 0 });
  return {
    model: config.model,
    async complete({ instructions, prompt }) {
      const res = await client.chat.completions.create({
        model: config.model,
        messages: [
          { role: "system", content: instructions },
          { role: "user", content: prompt },
        ],
      });
      const content = res.choices?.[0]?.message?.content;
      return typeof content === "string" ? content.trim() : "";
    },
  };
}

/** The model from the environment, or null when none is configured. */
export function chatModelFromEnv(env: NodeJS.ProcessEnv = process.env): ChatModel | null {
  const config = llmConfigFromEnv(env);
  return config ? createChatModel(config) : null;
}
