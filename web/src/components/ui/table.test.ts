import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Table, type Column } from './table';

interface Code {
  id: string;
  code: string;
  uses: number;
}

const columns: Column<Code>[] = [
  { header: 'Code', rowHeader: true, cell: (row) => row.code },
  { header: 'Uses', align: 'right', cell: (row) => String(row.uses) },
  { header: 'Actions', hideHeader: true, cell: () => 'Edit' },
];

const html = renderToStaticMarkup(
  h(Table<Code>, {
    columns,
    rows: [{ id: '1', code: 'LAUNCH20', uses: 3 }],
    rowKey: (row) => row.id,
    rowData: (row) => ({ 'data-discount-code': row.code }),
    minWidthClass: 'min-w-[40rem]',
  }),
);

describe('Table', () => {
  it('heads each column and names each row by its row-header cell', () => {
    expect(html.match(/<th scope="col"/g)).toHaveLength(3);
    expect(html).toMatch(/<th scope="row"[^>]*>LAUNCH20<\/th>/);
    expect(html.match(/<td /g)).toHaveLength(2);
  });

  it('keeps a hidden heading for screen readers and carries the row data attributes', () => {
    expect(html).toContain('<span class="sr-only">Actions</span>');
    expect(html).toContain('<tr data-discount-code="LAUNCH20">');
  });

  it('aligns figures right and leaves the last column without trailing padding', () => {
    expect(html).toMatch(/<td class="py-3 pr-4 text-right">3<\/td>/);
    expect(html).toMatch(/<td class="py-3 text-left">Edit<\/td>/);
  });
});
