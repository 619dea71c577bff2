import { useEffect } from 'react';

/** Names the browser tab after the screen, which is also what screen readers announce on navigation. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · LWS` : 'LWS';
  }, [title]);
}
