// The scripted fake model API the real Copilot CLI talks to: its BYOK provider
// (COPILOT_PROVIDER_BASE_URL, type openai, wire API completions) speaks OpenAI-compatible chat
// completions, the dialect OpenCode's suite already fakes (`POST /v1/chat/completions`, streamed
// SSE, one assistant message a step counted since the prompt, a step may be an API error).
export { startFakeApi, type Block, type Script, type Step } from '../opencode/fake-api.js';
