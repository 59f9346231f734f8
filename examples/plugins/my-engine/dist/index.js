// Built entry of the example context engine (kept in git so `vora doctor` on examples/ sees a
// loadable plugin; a real plugin builds this from its sources).
export default function register(api) {
  api.registerContextEngine("my-engine", (config = {}) => {
    const keepTurns = config.keepTurns ?? 8;
    return {
      info: { id: "my-engine", name: "My Engine", ownsCompaction: false },
      async ingest() {
        return { ingested: true };
      },
      async assemble({ messages }) {
        const kept = messages.slice(-keepTurns * 2);
        return { messages: kept, estimatedTokens: kept.length * 50 };
      },
    };
  });
}
