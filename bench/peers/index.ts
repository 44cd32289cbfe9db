import type { Contender } from '../contender.js';

/** Each peer's contender, loaded one by one so that a peer that fails to load is reported, not fatal. */
export async function peerContenders(): Promise<Contender[]> {
  const loaders: [string, () => Promise<Contender>][] = [
    // The cheapest entry points first (no streaming), then the streaming ones.
    ['ai generateText', async () => (await import('./ai-sdk.js')).aiSdkGenerateContender()],
    ['@openai/agents run', async () => (await import('./openai-agents.js')).openAiAgentsRunContender()],
    ['ai streamText', async () => (await import('./ai-sdk.js')).aiSdkContender()],
    ['@openai/agents stream', async () => (await import('./openai-agents.js')).openAiAgentsContender()],
    ['@langchain/langgraph', async () => (await import('./langgraph.js')).langGraphContender()],
  ];
  const contenders: Contender[] = [];
  for (const [name, load] of loaders) {
    try {
      const contender = await load();
      await contender.run(3); // a smoke run: the peer must finish the workload correctly
      contenders.push(contender);
    } catch (error) {
      console.error(`peers: ${name} skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return contenders;
}
