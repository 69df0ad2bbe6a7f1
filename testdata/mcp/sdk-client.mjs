// Drives `mdcontract mcp` with the MCP SDK's own client
// (@modelcontextprotocol/sdk, pinned in hosts/oracle/package.json): it
// connects over stdio, lists the tools and calls each one, and prints
// what it got as one JSON document for cmd/mdcontract/mcp_sdk_test.go to
// judge. The SDK's client checks each structuredContent against the
// tool's outputSchema itself, and throws when it does not conform.
//
// Usage: node sdk-client.mjs SDK_DIR MDCONTRACT_BINARY REPO_ROOT
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [sdk, bin, root] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(sdk, 'dist', 'esm', p)).href);
const { Client } = await load('client/index.js');
const { StdioClientTransport } = await load('client/stdio.js');

const transport = new StdioClientTransport({ command: bin, args: ['mcp', '--root', root], cwd: root, stderr: 'pipe' });
let stderr = '';
transport.stderr?.on('data', (b) => { stderr += b; });
const client = new Client({ name: 'mdcontract-sdk-test', version: '1.0.0' });
await client.connect(transport);

const out = {
  server: client.getServerVersion(),
  protocolVersion: transport._protocolVersion ?? null,
  instructions: client.getInstructions() ?? null,
  capabilities: client.getServerCapabilities(),
  tools: (await client.listTools()).tools.map((t) => ({ name: t.name, title: t.title ?? null, hasOutputSchema: !!t.outputSchema, readOnly: t.annotations?.readOnlyHint ?? null })),
  calls: {},
};

const calls = {
  check: { paths: ['skills/demo/SKILL.md'] },
  checkAll: {},
  fixes: {},
  fixesWrite: { write: true },
  explain: { name: 'link-target' },
  explainUnknown: { name: 'link-targte' },
  neighbours: { path: 'skills/demo/ref.md' },
  hosts: { path: 'agents/helper.md' },
  outside: { path: '../../etc/passwd' },
};
const tool = { checkAll: 'check', fixesWrite: 'fixes', explainUnknown: 'explain', outside: 'neighbours' };
for (const [key, args] of Object.entries(calls)) {
  try {
    const r = await client.callTool({ name: tool[key] ?? key, arguments: args });
    out.calls[key] = { isError: r.isError ?? false, structured: r.structuredContent ?? null, text: r.content?.[0]?.text ?? null };
  } catch (e) {
    out.calls[key] = { thrown: String(e?.message ?? e) };
  }
}
try {
  await client.callTool({ name: 'no-such-tool', arguments: {} });
  out.unknownTool = 'no error';
} catch (e) {
  out.unknownTool = { code: e?.code ?? null, message: String(e?.message ?? e) };
}
out.ping = await client.ping();
await client.close();
out.stderr = stderr;
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
