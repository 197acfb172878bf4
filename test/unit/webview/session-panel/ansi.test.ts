import assert from 'node:assert/strict';
import { AnsiParser, parseAnsi, type AnsiSegment } from '../../../../src/webview/session-panel/ansi';

const seg = (text: string, classes = ''): AnsiSegment => ({ text, classes });
const ESC = '\x1b';

/** Feeds chunks one by one and merges adjacent segments of the same style. */
function feed(chunks: string[]): AnsiSegment[] {
  const p = new AnsiParser();
  const out: AnsiSegment[] = [];
  for (const c of chunks) {
    for (const s of p.push(c)) {
      const last = out[out.length - 1];
      if (last && last.classes === s.classes) last.text += s.text;
      else out.push({ ...s });
    }
  }
  return out;
}

describe('webview ANSI parser', () => {
  const cases: [string, string, AnsiSegment[]][] = [
    ['plain text', 'hello\nworld', [seg('hello\nworld')]],
    [
      'a foreground colour and a reset',
      `${ESC}[31mred${ESC}[0m plain`,
      [seg('red', 'ansi-fg-red'), seg(' plain')],
    ],
    ['an empty SGR as a reset', `${ESC}[32mok${ESC}[m done`, [seg('ok', 'ansi-fg-green'), seg(' done')]],
    ['bold and colour combined', `${ESC}[1;33mwarn`, [seg('warn', 'ansi-bold ansi-fg-yellow')]],
    [
      'bright foreground and background',
      `${ESC}[94;101mx`,
      [seg('x', 'ansi-fg-bright-blue ansi-bg-bright-red')],
    ],
    [
      'default foreground keeps bold',
      `${ESC}[1;31ma${ESC}[39mb`,
      [seg('a', 'ansi-bold ansi-fg-red'), seg('b', 'ansi-bold')],
    ],
    ['normal intensity', `${ESC}[1;2ma${ESC}[22mb`, [seg('a', 'ansi-bold ansi-dim'), seg('b')]],
    [
      'italic, underline, strike on and off',
      `${ESC}[3;4;9ma${ESC}[23;24;29mb`,
      [seg('a', 'ansi-italic ansi-underline ansi-strike'), seg('b')],
    ],
    [
      '256-colour indexes under 16',
      `${ESC}[38;5;1ma${ESC}[48;5;10mb`,
      [seg('a', 'ansi-fg-red'), seg('b', 'ansi-fg-red ansi-bg-bright-green')],
    ],
    [
      '256-colour indexes past 16 and true colour ignored',
      `${ESC}[38;5;200ma${ESC}[38;2;1;2;3;1mb`,
      [seg('a'), seg('b', 'ansi-bold')],
    ],
    ['reset in the middle of a sequence', `${ESC}[1;0;32mx`, [seg('x', 'ansi-fg-green')]],
    ['cursor movement stripped', `a${ESC}[2Ab${ESC}[10;20Hc${ESC}[K`, [seg('abc')]],
    ['private modes stripped', `${ESC}[?25l${ESC}[?1049hx${ESC}[?25h`, [seg('x')]],
    ['OSC title with BEL stripped', `${ESC}]0;my title\x07text`, [seg('text')]],
    [
      'OSC 8 hyperlink with ST stripped',
      `${ESC}]8;;https://x.test${ESC}\\link${ESC}]8;;${ESC}\\`,
      [seg('link')],
    ],
    ['DCS string stripped', `${ESC}Pq#0;2;0;0;0${ESC}\\after`, [seg('after')]],
    ['charset and keypad escapes stripped', `${ESC}(B${ESC}=${ESC}7x${ESC}8`, [seg('x')]],
    ['C1 CSI stripped', '\x9b31mx', [seg('x', 'ansi-fg-red')]],
    ['other control characters stripped', 'a\x07b\x08c\x00d', [seg('abcd')]],
    ['CRLF and lone CR as newlines', 'a\r\nb\rc', [seg('a\nb\nc')]],
    ['a lone ESC dropped', `a${ESC}`, [seg('a')]],
  ];
  for (const [title, input, expected] of cases) {
    it(`parses ${title}`, () => assert.deepEqual(feed([input]), expected));
  }

  it('never lets an escape byte through, whatever the input', () => {
    const junk = [
      `${ESC}[`,
      `${ESC}]`,
      `${ESC}[999999999999m`,
      `${ESC}[31;`,
      '\x9b',
      `${ESC}P`,
      `${ESC}${ESC}[m`,
    ];
    for (const j of junk) {
      for (const s of parseAnsi(`x${j}y${j}`)) assert.doesNotMatch(s.text, /[\x1b\x9b\x00-\x08]/);
    }
  });

  it('carries an SGR split across chunks over to the next one', () => {
    assert.deepEqual(feed([`a${ESC}`, '[3', '1m', 'red']), [seg('a'), seg('red', 'ansi-fg-red')]);
  });

  it('carries an OSC split across chunks, terminator included', () => {
    assert.deepEqual(feed([`x${ESC}]0;ti`, 'tle', `${ESC}`, '\\y']), [seg('xy')]);
  });

  it('carries a CR that may start a CRLF', () => {
    assert.deepEqual(feed(['a\r', '\nb']), [seg('a\nb')]);
  });

  it('splitting the input anywhere gives the same result as parsing it whole', () => {
    const input = `${ESC}[1;32m✔${ESC}[0m ok\r\n${ESC}]0;t\x07${ESC}[33mwarn${ESC}[39m ${ESC}[2Kdone\n`;
    const whole = feed([input]);
    for (let i = 1; i < input.length; i++) {
      assert.deepEqual(feed([input.slice(0, i), input.slice(i)]), whole, `split at ${i}`);
    }
    assert.deepEqual(feed([...input]), whole, 'one character at a time');
  });

  it('keeps the style between chunks until a reset', () => {
    assert.deepEqual(feed([`${ESC}[35mone `, 'two', `${ESC}[0m three`]), [
      seg('one two', 'ansi-fg-magenta'),
      seg(' three'),
    ]);
  });

  it('reset() forgets the style and an unfinished escape', () => {
    const p = new AnsiParser();
    p.push(`${ESC}[31mx${ESC}[`);
    p.reset();
    assert.deepEqual(p.push('y'), [seg('y')]);
  });
});
