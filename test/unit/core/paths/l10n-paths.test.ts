import assert from 'node:assert/strict';
import { setL10nBundle } from '../../../../src/core/shared/l10n';
import { safeRelativePath } from '../../../../src/core/paths/path-safety';
import { checkInside } from '../../../../src/core/paths/real-path';

describe('core/paths: refusals go through l10n.t', () => {
  afterEach(() => setL10nBundle(undefined));

  it('a refused path reads the translated sentence and reason, with the path in place', () => {
    setL10nBundle(
      {
        'Refused the path {0}: {1}.': '⟦Pfad {0} abgelehnt: {1}⟧',
        'it goes up out of the folder ("..")': '⟦nach oben⟧',
        'it is longer than {0} characters': '⟦länger als {0}⟧',
      },
      'de',
    );
    const up = safeRelativePath('../x');
    assert.equal(up.ok, false);
    assert.equal(!up.ok && up.message, '⟦Pfad "../x" abgelehnt: ⟦nach oben⟧⟧');
    const long = safeRelativePath('abcdef', { maxLength: 3 });
    assert.equal(!long.ok && long.message, '⟦Pfad "abcdef" abgelehnt: ⟦länger als 3⟧⟧');
  });

  it('a path that leads outside the folder says so in the translated words', async () => {
    setL10nBundle({ 'the folder {0} does not exist': '⟦Ordner {0} fehlt⟧' }, 'de');
    const r = await checkInside('/w', 'a.txt', async () => undefined);
    assert.equal(!r.ok && r.message, 'Refused the path "a.txt": ⟦Ordner "/w" fehlt⟧.');
  });

  it('without a bundle the English text is unchanged', () => {
    const r = safeRelativePath('../x');
    assert.equal(!r.ok && r.message, 'Refused the path "../x": it goes up out of the folder ("..").');
  });
});
