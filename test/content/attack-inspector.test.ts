import { describe, expect, it } from 'vitest';
import { InspectorFeed } from '../../src/inspector.js';

describe('attack: the inspector given a part whose URL carries credentials', () => {
  it('names the URL without its user name and password', () => {
    const feed = InspectorFeed.fromJournal(
      [
        {
          type: 'user_message',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', mediaType: 'image/png', url: 'https://me:hunter2@img.test/a.png' },
          ],
        },
      ],
      { title: 'secret.jsonl' },
    );
    const snapshot = JSON.stringify(feed.snapshot());
    expect(snapshot).not.toContain('hunter2');
    const user = feed.snapshot().steps.find((step) => step.kind === 'user');
    expect(user?.attachments).toEqual([{ type: 'image', mediaType: 'image/png', url: 'https://***@img.test/a.png' }]);
  });
});
