// No sessions yet: tell the person how an agent connects, with the first calls it makes.
export function EmptyState() {
  const origin = window.location.origin;
  const example = [
    `# the agent token: --agent-token, or "agentToken" in ~/.local/state/turnback/servers/${window.location.port || '<port>'}.json`,
    `AUTH="Authorization: Bearer $TURNBACK_AGENT_TOKEN"`,
    `curl -s -H "$AUTH" -H 'Content-Type: application/json' ${origin}/api/agent/input \\`,
    `  -d '{"sessionId":"demo-1","platform":"webui","sessionType":"chat","content":"Add a README"}'`,
    `curl -s -H "$AUTH" -H 'Content-Type: application/json' ${origin}/api/agent/fs/write \\`,
    `  -d '{"sessionId":"demo-1","uri":"workspace:/README.md","content":"# Hello\\n"}'`,
    `curl -s -H "$AUTH" -H 'Content-Type: application/json' ${origin}/api/agent/turn-end \\`,
    `  -d '{"sessionId":"demo-1"}'`,
  ].join('\n');
  return (
    <section className="empty-state" aria-labelledby="empty-title">
      <h2 id="empty-title">No sessions yet</h2>
      <p>
        A session appears here as soon as an agent sends its first message. Agents connect through the agent API with
        the agent token: each user message begins a turn, file changes go through <code>fs/*</code>, and{' '}
        <code>turn-end</code> commits the turn.
      </p>
      <ol className="empty-steps">
        <li>
          <code>POST /api/agent/input</code> — the user's message; begins a turn.
        </li>
        <li>
          <code>POST /api/agent/fs/write</code> (or <code>delete</code>, <code>rename</code>, <code>move</code>,{' '}
          <code>mkdir</code>) — each change is recorded before it happens.
        </li>
        <li>
          <code>POST /api/agent/turn-end</code> — commits the turn; it shows up here live.
        </li>
      </ol>
      <pre className="state-code" aria-label="Example agent calls">
        {example}
      </pre>
      <p className="muted">
        Agents that edit files themselves call <code>POST /api/agent/before-mutate</code> before each change instead.
      </p>
    </section>
  );
}
