import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cx } from './cx';

export interface TableProps extends HTMLAttributes<HTMLTableElement> {
  /** Names the table and the region it scrolls in, for screen readers and keyboard users. */
  label: string;
  /** Keeps the first column (the worker, the name) in view while the others scroll sideways. */
  stickyFirstColumn?: boolean;
}

/**
 * A table that scrolls sideways on a narrow screen instead of breaking the layout. The scrolling
 * region takes keyboard focus (arrow keys scroll it) and is named, as WCAG 2.1.1 asks of anything
 * that scrolls.
 */
export function Table({ className, label, stickyFirstColumn = false, ...rest }: TableProps) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways must be reachable by keyboard to scroll it (axe: scrollable-region-focusable).
    <div className="lws-table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table className={cx('lws-table', stickyFirstColumn && 'lws-table--sticky-first', className)} aria-label={label} {...rest} />
    </div>
  );
}

export function TableCaption({ className, ...rest }: HTMLAttributes<HTMLTableCaptionElement>) {
  return <caption className={cx('lws-table__caption', className)} {...rest} />;
}

export function TableHeader(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead {...props} />;
}

export function TableBody(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody {...props} />;
}

export function TableRow(props: HTMLAttributes<HTMLTableRowElement>) {
  return <tr {...props} />;
}

export function TableHead({ scope = 'col', ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope={scope} {...rest} />;
}

export function TableCell(props: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td {...props} />;
}
