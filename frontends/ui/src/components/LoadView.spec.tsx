/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { cleanup, render, screen } from '@testing-library/react';
import type { Load } from '../query/query-client';
import { LoadView } from './LoadView';

function View({ load, empty }: { load: Load<string[]>; empty?: string }) {
  return (
    <LoadView load={load} loadingLabel="Loading tokens" errorText="The tokens could not be loaded." testId="tokens" emptyText={empty}>
      {(data) => (
        <ul>
          {data.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
    </LoadView>
  );
}

afterEach(cleanup);

describe('LoadView', () => {
  it('says it is loading, to assistive technology, until the first read answers', () => {
    render(<View load={{ state: 'loading' }} />);
    expect(screen.getByRole('status', { name: 'Loading tokens' })).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('shows the error, under its test id, when the first read failed', () => {
    render(<View load={{ state: 'error', error: new Error('503') }} />);
    expect(screen.getByTestId('tokens-error').textContent).toBe('The tokens could not be loaded.');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the empty text for an empty list, and the data otherwise', () => {
    render(<View load={{ state: 'ready', data: [] }} empty="No tokens yet." />);
    expect(screen.getByTestId('tokens-empty').textContent).toBe('No tokens yet.');
    cleanup();
    render(<View load={{ state: 'ready', data: ['North ARC', 'South ARC'] }} empty="No tokens yet." />);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['North ARC', 'South ARC']);
    expect(screen.queryByTestId('tokens-empty')).toBeNull();
  });

  it('without an empty text, an empty list is the data', () => {
    render(<View load={{ state: 'ready', data: [] }} />);
    expect(screen.getByRole('list').children).toHaveLength(0);
  });
});
