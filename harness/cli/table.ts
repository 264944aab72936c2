/** How a column lines up. */
export type Align = 'left' | 'right'

/**
 * Lays out rows (the first one is the header) as columns two spaces apart,
 * each as wide as its widest cell; trailing blanks are trimmed.
 */
export function alignedTable(rows: readonly (readonly string[])[], align: readonly Align[] = []): string {
  const widths: number[] = []
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, cell.length) })
  const lines = rows.map(row => row
    .map((cell, i) => (align[i] === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
    .join('  ')
    .trimEnd())
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`
}
