/**
 * One CSV cell as a spreadsheet reads it: quoted when it holds a comma, quote or line break, and
 * never run as a formula (CSV injection, server design section 9): a cell that starts with =, +,
 * -, @, tab or carriage return gets a leading ', also a negative amount (it then reads as text:
 * `-1+WEBSERVICE(…)` starts like a number too, and no rule can tell the two apart safely).
 */
export function csvCell(value: string): string {
  const v = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/** Rows of cells as CSV text (CRLF line ends, as RFC 4180 has them). */
export function csvText(rows: string[][]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
