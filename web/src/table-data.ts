/**
 * A result's `table` (population shapes: rankings, subsets, correlations, topical lists) read into
 * one form: columns with labels and units, rows of cells that keep their evidence IRI. The field is
 * read defensively — columns may be names or objects ({id, role, label, unit, period}, as
 * src/population/table.ts writes them), rows arrays of cells naming their column, arrays by position
 * or objects keyed by column — so a table the page cannot read is reported as such, not drawn wrong.
 */
export interface Column { key: string; label: string; unit: string | null; role: string | null; period: string | null }
export interface Cell { value: unknown; evidence: string | null; grade: string | null }
export interface Table { columns: Column[]; rows: Cell[][]; caption: string | null }

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function column(c: unknown, i: number): Column | null {
  if (typeof c === 'string') return { key: c, label: c, unit: null, role: null, period: null };
  if (c && typeof c === 'object') {
    const o = c as Record<string, unknown>;
    const key = str(o.key) ?? str(o.id) ?? str(o.name) ?? str(o.label) ?? `c${i}`;
    const role = str(o.role);
    return { key, label: str(o.label) ?? str(o.title) ?? (role === 'rank' ? '#' : key), unit: str(o.unit), role, period: str(o.period) };
  }
  return null;
}

function cell(v: unknown): Cell {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if ('value' in o || 'evidence' in o) {
      const ev = o.evidence;
      const evidence = str(ev) ?? (Array.isArray(ev) ? str(ev[0]) : null) ?? str(o.evidence_iri) ?? str(o.iri);
      return { value: o.value ?? null, evidence, grade: str(o.grade) };
    }
  }
  return { value: v, evidence: null, grade: null };
}

export function readTable(t: unknown): Table | null {
  if (!t || typeof t !== 'object') return null;
  const o = t as Record<string, unknown>;
  if (!Array.isArray(o.columns) || !Array.isArray(o.rows)) return null;
  const columns = o.columns.map(column);
  if (columns.some((c) => c === null)) return null;
  const cols = columns as Column[];
  const rows: Cell[][] = [];
  for (const r of o.rows) {
    const row = r && typeof r === 'object' && !Array.isArray(r) && Array.isArray((r as { cells?: unknown }).cells) ? (r as { cells: unknown[] }).cells : r;
    // Cells that name their column ({column, value, …}) are placed by it; otherwise by position.
    if (Array.isArray(row) && row.every((c) => c && typeof c === 'object' && typeof (c as { column?: unknown }).column === 'string')) {
      const byColumn = new Map(row.map((c) => [(c as { column: string }).column, c]));
      rows.push(cols.map((c) => cell(byColumn.get(c.key) ?? null)));
    } else if (Array.isArray(row)) rows.push(cols.map((_, i) => cell(row[i])));
    else if (row && typeof row === 'object') rows.push(cols.map((c) => cell((row as Record<string, unknown>)[c.key])));
    else return null;
  }
  return { columns: cols, rows, caption: str(o.caption) ?? str(o.title) };
}
