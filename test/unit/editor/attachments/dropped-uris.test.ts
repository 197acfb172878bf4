import assert from 'node:assert/strict';
import {
  distinctUris,
  droppedUriProblem,
  type UriParts,
} from '../../../../src/editor/attachments/dropped-uris';

function parts(over: Partial<UriParts>): UriParts {
  return { scheme: 'file', authority: '', path: '/w/proj/a.ts', query: '', fragment: '', ...over };
}

describe('URIs dropped on the panel', () => {
  it('lets file and vscode-remote URIs of plain absolute paths through', () => {
    assert.equal(droppedUriProblem(parts({})), undefined);
    assert.equal(
      droppedUriProblem(parts({ scheme: 'vscode-remote', authority: 'ssh-remote+box' })),
      undefined,
    );
  });

  const refused: [string, Partial<UriParts>, RegExp][] = [
    ['other schemes', { scheme: 'https', authority: 'evil.example' }, /not a file \(https scheme\)/],
    ['untitled documents', { scheme: 'untitled', path: 'Untitled-1' }, /not a file/],
    ['command URIs', { scheme: 'command', path: 'den.signOut' }, /not a file/],
    ['a query', { query: 'x=1' }, /query/],
    ['a fragment', { fragment: 'L1' }, /fragment/],
    ['file URIs of another host', { authority: 'server' }, /another machine/],
    ['relative paths', { path: 'a.ts' }, /not absolute/],
    ['paths that climb', { path: '/w/proj/../../etc/passwd' }, /climbs/],
    ['paths with a dot segment', { path: '/w/./proj/a.ts' }, /climbs/],
    ['control characters', { path: '/w/a\u0000.ts' }, /control/],
  ];
  for (const [what, over, why] of refused) {
    it(`refuses ${what}`, () => {
      assert.match(droppedUriProblem(parts(over)) ?? '', why);
    });
  }

  it('drops repeats and blanks, keeping the order', () => {
    assert.deepEqual(distinctUris(['file:///b', ' file:///a ', '', 'file:///b']), ['file:///b', 'file:///a']);
  });
});
