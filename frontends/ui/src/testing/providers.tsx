import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { AuthProvider } from '../auth/AuthContext';
import { createQueryClient } from '../query/query-client';
import { ToastProvider } from '../toast/ToastContext';
import { ToastStack } from '../toast/ToastStack';

/**
 * What the shell gives every screen (router, toasts, session, query cache; not the event stream),
 * for a component test. A fresh query cache each time, so no test sees another's reads.
 */
export function ScreenProviders({ children, path = '/' }: { children: ReactNode; path?: string }) {
  const [client] = useState(createQueryClient);
  return (
    <MemoryRouter initialEntries={[path]}>
      <ToastProvider>
        <AuthProvider>
          <QueryClientProvider client={client}>
            {children}
            <ToastStack />
          </QueryClientProvider>
        </AuthProvider>
      </ToastProvider>
    </MemoryRouter>
  );
}
