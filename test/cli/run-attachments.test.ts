import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { storedFeed } from '../../src/cli/stored-inspector.js';
import { type ContentPart, partNote } from '../../src/core/content-parts.js';
import { readJournalFile } from '../../src/journal.js';
import {
  type FakeResponse,
  type FakeServer,
  fixture,
  type ReceivedRequest,
  startFakeServer,
} from '../adapters/support/fake-server.js';
import { captured, cliWorkspace } from './support/cli-harness.js';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** The start of a PDF (enough for its signature). */
const PDF = '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';

let server: FakeServer | undefined;
beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
  vi.stubEnv('OPENAI_BASE_URL', undefined);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

const answer = (): FakeResponse[] => [{ chunks: [fixture('openai/text.sse')] }];

async function run(args: string[], cwd = cliWorkspace(), answers = answer()) {
  server = await startFakeServer(answers);
  const out = captured();
  const err = captured();
  const code = await main(['run', ...args, '--base-url', `${server.url}/v1`, '--cwd', cwd], out, err);
  const requests = [...server.requests];
  await server.close();
  server = undefined;
  return { code, out: out.text(), err: err.text(), requests, cwd };
}

/** A workspace with an image, a PDF, a note, and files that are not what their flag takes. */
function attachmentsWorkspace(): string {
  const cwd = cliWorkspace();
  writeFileSync(join(cwd, 'shot.png'), Buffer.from(PNG, 'base64'));
  writeFileSync(join(cwd, 'paper.pdf'), PDF);
  writeFileSync(join(cwd, 'notes.txt'), 'line one\n');
  writeFileSync(join(cwd, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
  writeFileSync(join(cwd, 'fake.png'), 'not a png');
  return cwd;
}

interface ChatMessage {
  readonly role: string;
  readonly content: string | readonly { type: string; text?: string; image_url?: { url: string } }[];
}

/**
 * Whether the request's first user message carries the image: as an `image_url` data URL with
 * its exact bytes, or, while the OpenAI adapter sends parts as notes, the note naming its type
 * and exact size (a missing image leaves neither).
 */
function sentImage(request: ReceivedRequest | undefined, mediaType: string, data: string): boolean {
  const body = request?.body as { messages: ChatMessage[] } | undefined;
  const user = body?.messages.find((message) => message.role === 'user');
  if (user === undefined) return false;
  if (typeof user.content === 'string') return user.content.includes(partNote({ type: 'image', mediaType, data }));
  return user.content.some((part) => part.image_url?.url === `data:${mediaType};base64,${data}`);
}

describe('agent-harness run --image / --file', () => {
  it('attaches the image and the file to the task: the request carries the image, the journal keeps the parts', async () => {
    const cwd = attachmentsWorkspace();
    const journal = join(cwd, 'run.jsonl');
    const shot = join(cwd, 'shot.png');
    const { code, out, requests } = await run(
      ['What does this show?', '--image', shot, '--file', join(cwd, 'paper.pdf'), '--journal', journal],
      cwd,
    );
    expect(code).toBe(0);
    expect(requests).toHaveLength(1);
    expect(sentImage(requests[0], 'image/png', PNG)).toBe(true);
    const entries = await readJournalFile(journal);
    const task = entries.find((entry) => entry.type === 'user_message');
    expect(task).toEqual({
      type: 'user_message',
      content: [
        { type: 'text', text: 'What does this show?' },
        { type: 'image', mediaType: 'image/png', data: PNG },
        {
          type: 'file',
          mediaType: 'application/pdf',
          data: Buffer.from(PDF).toString('base64'),
          name: 'paper.pdf',
        },
      ] satisfies ContentPart[],
    });
    expect(out).not.toContain(PNG.slice(0, 24));
  });

  it('takes a text file by its extension, named, and several images in the order given', async () => {
    const cwd = attachmentsWorkspace();
    const journal = join(cwd, 'run.jsonl');
    writeFileSync(join(cwd, 'second.gif'), Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'));
    const { code } = await run(
      [
        'Compare',
        '--image',
        join(cwd, 'shot.png'),
        '--image',
        join(cwd, 'second.gif'),
        '--file',
        join(cwd, 'notes.txt'),
        '--journal',
        journal,
      ],
      cwd,
    );
    expect(code).toBe(0);
    const task = (await readJournalFile(journal)).find((entry) => entry.type === 'user_message');
    const parts = task?.type === 'user_message' && Array.isArray(task.content) ? (task.content as ContentPart[]) : [];
    expect(parts.map((part) => (part.type === 'text' ? 'text' : part.mediaType))).toEqual([
      'text',
      'image/png',
      'image/gif',
      'text/plain',
    ]);
    expect(parts[3]).toMatchObject({ name: 'notes.txt', data: Buffer.from('line one\n').toString('base64') });
  });

  it.each([
    [['--image', 'missing.png'], '--image missing.png: no such file'],
    [['--image', 'fake.png'], '--image fake.png: not a PNG, JPEG, GIF or WebP image (by its first bytes)'],
    [['--image', 'paper.pdf'], '--image paper.pdf: not a PNG, JPEG, GIF or WebP image'],
    [['--file', 'blob.bin'], '--file blob.bin: is of a type --file does not take (it takes PDF, or UTF-8 text: .txt'],
    [['--file', 'shot.png'], '--file shot.png: is an image: attach it with --image'],
    [['--file', 'fake.png'], '--file fake.png: is of a type --file does not take'],
    [['--image', 'shot.png', '--max-attachment-bytes', '40'], '--image shot.png: 70 bytes, over the cap of 40'],
    [['--max-attachment-bytes', '0'], '--max-attachment-bytes must be a positive whole number'],
  ])('refuses %j before any request, naming the file (exit 2)', async (flags, message) => {
    const cwd = attachmentsWorkspace();
    const previous = process.cwd();
    process.chdir(cwd); // relative names are the user's shell's, as on a command line
    try {
      const { code, err, requests } = await run(['Look', ...flags], cwd);
      expect(code).toBe(2);
      expect(err).toContain(`agent-harness run: ${message}`);
      expect(requests).toHaveLength(0);
    } finally {
      process.chdir(previous);
    }
  });

  it('refuses an image over the default cap of 5 MiB (exit 2)', async () => {
    const cwd = attachmentsWorkspace();
    const big = join(cwd, 'big.png');
    writeFileSync(big, Buffer.alloc(5 * 1024 * 1024 + 1));
    const { code, err, requests } = await run(['Look', '--image', big], cwd);
    expect(code).toBe(2);
    expect(err).toContain(
      `--image ${big}: 5242881 bytes, over the cap of 5242880 (raise it with --max-attachment-bytes N)`,
    );
    expect(requests).toHaveLength(0);
  });

  it('refuses attachments without a task (exit 2)', async () => {
    const cwd = attachmentsWorkspace();
    const { code, err } = await run(['--session', 'abc123', '--image', join(cwd, 'shot.png')], cwd);
    expect(code).toBe(2);
    expect(err).toContain('--image and --file go with a task');
  });

  it('with --restate, refuses a bad attachment before anything is submitted (exit 2)', async () => {
    const cwd = attachmentsWorkspace();
    const out = captured();
    const err = captured();
    // Nothing listens on the ingress: a submitted run would fail to connect (exit 1) instead.
    const args = ['run', 'Look', '--restate', 'http://127.0.0.1:9', '--store', 'memory:'];
    const code = await main([...args, '--image', join(cwd, 'notes.txt')], out, err);
    expect(code).toBe(2);
    expect(err.text()).toContain(`--image ${join(cwd, 'notes.txt')}: not a PNG, JPEG, GIF or WebP image`);
    expect(out.text()).toBe('');
  });
});

describe('a stored session whose task has an image', () => {
  it('goes on with a follow-up that sends the image again, and its inspector feed shows a note, not the bytes', async () => {
    const cwd = attachmentsWorkspace();
    const store = `sqlite:${join(cwd, 'sessions.db')}`;
    const first = await run(
      ['What is this?', '--image', join(cwd, 'shot.png'), '--store', store, '--session', 'img1'],
      cwd,
    );
    expect(first.code).toBe(0);
    const second = await run(['And its colour?', '--store', store, '--session', 'img1'], cwd);
    expect(second.code).toBe(0);
    expect(sentImage(second.requests[0], 'image/png', PNG)).toBe(true);
    const { feed } = await storedFeed(store, 'img1');
    const user = feed.snapshot().steps.find((step) => step.kind === 'user');
    expect(user?.text).toContain('What is this?');
    expect(JSON.stringify(user?.text)).not.toContain(PNG.slice(0, 24));
  });
});
