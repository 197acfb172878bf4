import assert from 'node:assert/strict';
import { acceptsDrag, readDrop, type DropData } from '../../../../src/webview/session-panel/drop';

function data(entries: Record<string, string>, files = 0): DropData {
  return {
    types: Object.keys(entries),
    getData: (t) => entries[t] ?? '',
    files: { length: files },
  };
}

describe('Webview: files dropped on the panel', () => {
  it('reads every resource of an Explorer multi-select from resourceurls', () => {
    const d = data({
      'text/uri-list': 'file:///w/a.ts',
      resourceurls: JSON.stringify(['file:///w/a.ts', 'file:///w/b.ts', 'file:///w/src']),
    });
    assert.deepEqual(readDrop(d), {
      uris: ['file:///w/a.ts', 'file:///w/b.ts', 'file:///w/src'],
      otherFiles: 0,
    });
  });

  it('reads a uri-list, skipping comments and blank lines', () => {
    const d = data({ 'text/uri-list': '# from a tab\r\nfile:///w/a.ts\r\n\r\nfile:///w/b.ts\r\n' });
    assert.deepEqual(readDrop(d).uris, ['file:///w/a.ts', 'file:///w/b.ts']);
  });

  it('ignores a malformed resourceurls and falls back to the uri-list', () => {
    const d = data({ resourceurls: '{not json', 'text/uri-list': 'file:///w/a.ts' });
    assert.deepEqual(readDrop(d).uris, ['file:///w/a.ts']);
  });

  it('counts files without URIs (another application) instead', () => {
    assert.deepEqual(readDrop(data({ Files: '' }, 2)), { uris: [], otherFiles: 2 });
  });

  it('caps the URIs of one drop', () => {
    const many = Array.from({ length: 1500 }, (_, i) => `file:///w/f${i}`);
    assert.equal(readDrop(data({ resourceurls: JSON.stringify(many) })).uris.length, 1000);
  });

  it('accepts drags that carry URIs or files, whatever their case', () => {
    assert.equal(acceptsDrag(['text/uri-list']), true);
    assert.equal(acceptsDrag(['ResourceURLs']), true);
    assert.equal(acceptsDrag(['Files']), true);
    assert.equal(acceptsDrag(['text/plain']), false);
  });
});
