/** Characters a spreadsheet may run as the start of a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * Characters some spreadsheet splits a cell on: the comma, the semicolon (the list separator of many
 * locales), the tab (pasting, "text to columns"), and line breaks (importers that ignore quotes).
 */
const SPLIT_THEN_FORMULA = /([,;\t\r\n])(?=[=+\-@\t\r])/g;

/**
 * One CSV cell as a spreadsheet reads it, never run as a formula (CSV injection, server design
 * section 9): a cell that starts with =, +, -, @, tab or carriage return gets a leading ', also a
 * negative amount (it then reads as text: `-1+WEBSERVICE(…)` starts like a number too, and no rule
 * can tell the two apart safely). So does every part of it after a comma, semicolon, tab or line
 * break that starts the same way (`1;=1+1` is two cells to a spreadsheet that splits on ';'), and
 * a cell holding any of those characters or a quote is quoted: however a spreadsheet splits it, no
 * part starts with a formula character.
 */
export function csvCell(value: string): string {
  const v = (FORMULA_START.test(value) ? `'${value}` : value).replace(SPLIT_THEN_FORMULA, "$1'");
  return /[",;\t\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/** Rows of cells as CSV text (CRLF line ends, as RFC 4180 has them). */
export function csvText(rows: string[][]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
