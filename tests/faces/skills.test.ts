import 'reflect-metadata';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { z } from 'zod';
import { Bind, Step, Workflow, constant, equals, field, oneOf, promptArg } from '@mcpflow/decorators';
import { v2, type TestClient, type TestServer } from '../helpers/lines';

/**
 * The skill face (SDK 2.x): skills listed and read through the SDK's own `SkillsClient`, which
 * checks every file against its entry (digest, size, front matter). The SKILL.md is generated from
 * the class; its bytes, and so its digest, are the same in every process serving the class.
 */

const SERVER = path.join(__dirname, 'faces-server.js');
/** The same script's server, built in this process. */
const { build: loadServer } = require('./faces-server.js') as { build: () => TestServer };

/** The SKILL.md generated from the script's get_hint workflow, byte for byte. */
const GET_HINT_SKILL = `---
name: get-hint
description: "Get a contextual hint for a player — “quotes”, émoji 🎲 and all"
---

# Get a hint

Get a contextual hint for a player — “quotes”, émoji 🎲 and all

## What it does

The server runs its 2 steps itself, in order: it calls its own tools and reads its own resources, asks you (or your model) where a step needs an answer, and returns the conversation of the run. Where it cannot go on, it hands the remaining steps to you, naming the tools to call and the arguments still needed.

Its instructions:

> Never reveal the ending.

## Arguments

- \`player\` (required) — The player's name

## Steps

1. **progress** — calls tool \`lookup_player\` with \`player\` from promptArg('player').
   Its value is bound as \`progress\`.
   Guidance: I'll look up {player}'s progress.
2. **hint** — calls tool \`hint_for\` with \`room\` from field('progress', 'room').
   Its value is bound as \`hint\`.

## Graph

\`\`\`mermaid
flowchart TD
  start(["get_hint"])
  s0["progress"]
  s1["hint"]
  start --> s0
  s0 --> s1
\`\`\`

## How to run it

- As a prompt: \`prompts/get\` with name \`get_hint\` and the arguments above; the result is the conversation of the run.
- As a tool: \`tools/call\` with name \`get_hint\` and the arguments above; the result's \`structuredContent\` is \`{ status, outputs }\`, \`outputs\` holding each completed step's value by its binding name.
`;

async function stdioClient(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'skills-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SERVER, '--sdk', '2'],
      env: { ...(process.env as Record<string, string>), ...env },
    }),
  );
  return client;
}

async function skillsOf(client: Client) {
  const skills = new SkillsClient(client);
  const { skills: entries } = await skills.list();
  const files = await Promise.all(entries.map((entry) => skills.read(entry)));
  return { supported: skills.supported, entries, files };
}

test('two processes that differ in TZ, LANG and the order of use() serve the same SKILL.md bytes and digests', async () => {
  const first = await stdioClient({ TZ: 'Pacific/Kiritimati', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' });
  const second = await stdioClient({ TZ: 'America/Adak', LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8', MCPFLOW_TEST_ORDER: 'reverse' });
  try {
    const [a, b] = [await skillsOf(first), await skillsOf(second)];
    expect(a.supported).toBe(true);
    expect(a.entries.map((entry) => entry.uri)).toEqual(['skill://get-hint/SKILL.md', 'skill://score-board/SKILL.md']);
    expect(b.entries).toEqual(a.entries);
    expect(b.files.map((file) => Buffer.from(file.bytes).toString('hex'))).toEqual(
      a.files.map((file) => Buffer.from(file.bytes).toString('hex')),
    );
    for (const file of a.files) expect(file.verified).toBe(true);
    expect(a.entries[0].frontmatter).toEqual({
      name: 'get-hint',
      description: 'Get a contextual hint for a player — “quotes”, émoji 🎲 and all',
    });
    expect(a.entries[1].frontmatter).toEqual({ name: 'score-board', description: "Compare two players' scores" });
    expect(a.files[0].text).toBe(GET_HINT_SKILL);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});

test.each(['memory', 'stateless'] as const)('skills are listed and read through SkillsClient on SDK 2.x (%s)', async (transport) => {
  const client: TestClient = await v2.connect(loadServer, { transport });
  try {
    const { entries, files } = await skillsOf(client as unknown as Client);
    expect(entries.map((entry) => entry.frontmatter.name)).toEqual(['get-hint', 'score-board']);
    expect(files[0].text).toBe(GET_HINT_SKILL);
    expect(files[1].text).toContain('- As a tool: `tools/call` with name `compare_scores`');
    expect(files[1].text).not.toContain('As a prompt');
  } finally {
    await client.close();
  }
});

/** docs/security.md's Deploy workflow, served as a skill, with a `when` on its sensitive argument. */
@Workflow({
  name: 'deploy',
  description: 'Deploy a build',
  arguments: { api_key: z.string(), target: z.string() },
  sensitiveArguments: ['api_key'],
  expose: { skill: true },
})
class Deploy {
  @Step({ tool: 'login', args: { key: promptArg('api_key') } })
  @Bind('session')
  session!: { token: string };

  @Step({ tool: 'deploy', args: { token: field('session', 'token'), pin: constant('4321-7788') }, sensitiveArgs: ['token', 'pin'] })
  deployed!: unknown;

  @Step({ tool: 'audit', args: { note: constant('pin 4321-7788 used') }, when: equals(promptArg('api_key'), 'sk-live-the-real-key') })
  audited!: unknown;

  @Step({ tool: 'audit', args: { note: constant('token ok') }, when: oneOf(field('session', 'token'), ['tok-admin-1', 'tok-admin-2']) })
  tokenAudit!: unknown;
}

test('a sensitive constant, and what a condition compares a sensitive source with, read [redacted] in the SKILL.md and its graph (2.x client)', async () => {
  const client: TestClient = await v2.connect(() => {
    const server = new v2.WorkflowServer({ name: 'deploys', version: '1.0.0' });
    const inputSchema = { key: z.string(), token: z.string(), pin: z.string(), note: z.string() };
    server.registerTool('login', { inputSchema: { key: inputSchema.key } }, async () => ({ content: [] }));
    server.registerTool('deploy', { inputSchema: { token: inputSchema.token, pin: inputSchema.pin } }, async () => ({ content: [] }));
    server.registerTool('audit', { inputSchema: { note: inputSchema.note } }, async () => ({ content: [] }));
    return server.use(Deploy);
  });
  try {
    const { files } = await skillsOf(client as unknown as Client);
    const text = files[0].text!;
    for (const secret of ['4321', 'sk-live-the-real-key', 'tok-admin-1', 'tok-admin-2']) expect(text).not.toContain(secret);
    const graph = text.slice(text.indexOf('```mermaid'));
    expect(graph).toContain('[redacted]');
    expect(graph).not.toContain('4321');
  } finally {
    await client.close();
  }
});
