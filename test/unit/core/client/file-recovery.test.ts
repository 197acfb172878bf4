import assert from 'node:assert/strict';
import { recoverFromEvents } from '../../../../src/core/client/file-recovery';
import { expandMediaUrl, sameOrigin } from '../../../../src/core/client/media-url';
import type { AgentEvent, FileInfo } from '../../../../src/core/client/types';

let nextId = 1;
function event(kind: string, payload: Record<string, unknown>): AgentEvent {
  return { event_id: nextId++, kind, payload, timestamp: 0 };
}
function write(path: string, content: string, field = 'content'): AgentEvent {
  return event('tool.parameters', { parameters: { path, [field]: content } });
}
function file(key: string, name = key.split('/').pop() ?? key): FileInfo {
  return { key, name, size: 0 };
}

describe('file recovery from events', () => {
  const events = [
    event('tool.start', { tool_name: 'write_file' }),
    write('src/app.ts', 'v1'),
    event('tool.log', { stream: 'stdout', data: 'ok' }),
    write('/workspace/docs/readme.md', '# Read me'),
    write('src/app.ts', 'v2'),
    write('lib/index.ts', 'lib'),
    write('test/index.ts', 'test'),
    event('tool.parameters', { parameters: { command: 'ls' } }),
    event('tool.parameters', {
      parameters: JSON.stringify({ file_path: 'notes.txt', file_text: 'from json' }),
    }),
  ];

  const table: [string, FileInfo, string | undefined][] = [
    ['takes the latest write to the same path', file('src/app.ts'), 'v2'],
    ['matches a key prefixed with the session id', file('sess-1/src/app.ts'), 'v2'],
    ['matches an absolute sandbox path by key suffix', file('docs/readme.md'), '# Read me'],
    ['reads parameters sent as a JSON string and other field names', file('sess-1/notes.txt'), 'from json'],
    ['refuses a name shared by two different paths', file('k/elsewhere/index.ts', 'index.ts'), undefined],
    ['falls back to a unique file name', file('opaque-key-123', 'readme.md'), '# Read me'],
    ['finds nothing for an unknown file', file('src/missing.ts'), undefined],
  ];
  for (const [title, f, expected] of table) {
    it(title, () => {
      assert.equal(recoverFromEvents(f, events)?.content, expected);
    });
  }

  it('expands the media URL template, encoding each key segment', () => {
    const f = { key: 'sess 1/a b#.txt', name: 'a b#.txt', size: 1 };
    assert.equal(
      expandMediaUrl('{base_url}/media/{key}', 'http://h:1/api/', f),
      'http://h:1/api/media/sess%201/a%20b%23.txt',
    );
    assert.equal(
      expandMediaUrl('https://cdn/x?k={key_encoded}&n={name}', 'http://h', f),
      'https://cdn/x?k=sess%201%2Fa%20b%23.txt&n=a%20b%23.txt',
    );
  });

  it('decides whether a URL shares the service origin', () => {
    assert.equal(sameOrigin('http://h:1/media/x', 'http://h:1/api'), true);
    assert.equal(sameOrigin('http://h:2/media/x', 'http://h:1'), false);
    assert.equal(sameOrigin('https://h:1/x', 'http://h:1'), false);
    assert.equal(sameOrigin('not a url', 'http://h:1'), false);
  });
});
