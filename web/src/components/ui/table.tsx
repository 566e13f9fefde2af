import type { ReactNode } from 'react';

export interface Column<Row> {
  /** The column heading; also the cell's name for assistive tech. */
  header: string;
  /** Keeps the heading for screen readers only (an actions column). */
  hideHeader?: boolean;
  /** Figures line up on the right. */
  align?: 'left' | 'right';
  /** The row's name: its cell is a `th scope="row"` (not counted among the row's `td`s). */
  rowHeader?: boolean;
  /** Extra classes of this column's cells. */
  className?: string;
  cell: (row: Row) => ReactNode;
}

interface TableProps<Row> {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** `data-*` attributes of a row, for styling hooks and tests. */
  rowData?: (row: Row) => Record<`data-${string}`, string>;
  /** Below this width the table scrolls sideways rather than squeezing, e.g. `min-w-[48rem]`. */
  minWidthClass: string;
}

const cellClass = (padding: string, last: boolean, align: Column<unknown>['align'], extra = '') =>
  [padding, last ? '' : 'pr-4', align === 'right' ? 'text-right' : 'text-left', extra]
    .filter(Boolean)
    .join(' ');

/** The seller screens' tables: uppercase headings, divided rows, sideways scroll when narrow. */
export function Table<Row>({ columns, rows, rowKey, rowData, minWidthClass }: TableProps<Row>) {
  const last = columns.length - 1;
  return (
    <div className="overflow-x-auto">
      <table className={`w-full ${minWidthClass} text-left text-sm`}>
        <thead className="text-xs text-slate-500 uppercase">
          <tr>
            {columns.map((column, index) => (
              <th
                key={column.header}
                scope="col"
                className={cellClass('py-2', index === last, column.align)}
              >
                {column.hideHeader ? (
                  <span className="sr-only">{column.header}</span>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowData?.(row)}>
              {columns.map((column, index) => {
                const className = cellClass('py-3', index === last, column.align, column.className);
                return column.rowHeader ? (
                  <th key={column.header} scope="row" className={`${className} font-normal`}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.header} className={className}>
                    {column.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
