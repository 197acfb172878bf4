import assert from 'node:assert/strict';
import { excludeMatcher, globMatcher } from '../../../../src/core/paths/glob';

describe('files.exclude globs', () => {
  const cases: [glob: string, path: string, match: boolean][] = [
    ['**/.git', '.git', true],
    ['**/.git', 'a/b/.git', true],
    ['**/.git', 'a/.github', false],
    ['**/*.js', 'src/a.js', true],
    ['**/*.js', 'a.js', true],
    ['**/*.js', 'src/a.jsx', false],
    ['*.log', 'a.log', true],
    ['*.log', 'logs/a.log', false],
    ['out', 'out', true],
    ['out', 'src/out', false],
    ['out/**', 'out/', true],
    ['out/**', 'out/x/y.js', true],
    ['**/{dist,build}', 'pkg/dist', true],
    ['**/{dist,build}', 'pkg/build', true],
    ['**/{dist,build}', 'pkg/src', false],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file10.txt', false],
    ['[ab].md', 'a.md', true],
    ['[!ab].md', 'a.md', false],
    ['[!ab].md', 'c.md', true],
    ['**/.DS_Store', 'x/.DS_Store', true],
    ['a+b(c).txt', 'a+b(c).txt', true],
    ['a.b', 'aXb', false],
  ];
  for (const [glob, path, match] of cases) {
    it(`${glob} ${match ? 'matches' : 'does not match'} ${path}`, () => {
      assert.equal(globMatcher(glob)(path), match);
    });
  }

  it('ignores case only when asked', () => {
    assert.equal(globMatcher('**/*.LOG')('a.log'), false);
    assert.equal(globMatcher('**/*.LOG', true)('a.log'), true);
  });

  it('applies the patterns set to true, not those set to false or conditional ones', () => {
    const m = excludeMatcher({ '**/.git': true, '**/*.tmp': false, '**/*.js': { when: '$(basename).ts' } });
    assert.equal(m('.git'), true);
    assert.equal(m('a.tmp'), false);
    assert.equal(m('a.js'), false);
  });

  it('reads a missing or malformed setting as excluding nothing', () => {
    assert.equal(excludeMatcher(undefined)('a'), false);
    assert.equal(excludeMatcher('**')('a'), false);
    assert.equal(globMatcher('[')('['), true);
  });
});
