import type { Config } from "../config";
import type { Logger } from "../log";
import { LocalProvider } from "./local-provider";
import { OpenAiProvider } from "./openai-provider";
import type { AiProvider } from "./provider";

/** The provider the configuration names (FEATUREBOARD_AI_PROVIDER; README settings; docs/ai.md). */
/** `log` receives one warning per failed call to a model server, with its reason (docs/ai.md). */
export function createProvider(config: Config, log: Logger | null = null): AiProvider {
  if (config.ai.provider === "local") return new LocalProvider();
  return new OpenAiProvider(
    {
      apiKey: config.ai.openaiApiKey,
      baseUrl: config.ai.openaiBaseUrl,
      chatModel: config.ai.chatModel,
      embedModel: config.ai.embedModel,
      timeoutMs: config.ai.timeoutMs,
      maxRetries: config.ai.maxRetries,
      embedBatchSize: config.ai.embedBatchSize,
      embedMaxChars: config.ai.embedMaxChars,
      embedBoundary: config.ai.embedBoundary,
    },
    log,
  );
}
