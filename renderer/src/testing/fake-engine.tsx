/**
 * Test support: a component rendered over a fake engine, as the app wires it (the API context and
 * a query client that does not retry). `call` answers each command; the test's own fake decides
 * when (a held promise is an answer still on its way). `subscribe`, when given, is the engine's
 * event stream. Production code never imports this.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Api, type Transport } from '../api/client';
import { ApiProvider } from '../api/context';

export function renderOverFakeEngine(
  ui: ReactElement,
  call: Transport['call'],
  subscribe: Transport['subscribe'] = () => () => undefined,
): { queryClient: QueryClient } {
  const api = new Api({ kind: 'http', call, subscribe });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ApiProvider api={api}>
      <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
    </ApiProvider>,
  );
  return { queryClient };
}
