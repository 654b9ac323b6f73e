import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from './api';
import { ApiProvider } from './api/context';
import { createAppRouter } from './router/router';
import { applyTheme, useThemeStore } from './stores/theme';
import './styles.css';

// theme-boot.js did this before the first paint; again here, in case it could not run.
applyTheme(useThemeStore.getState().theme);

const api = createApi();
const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: 1 } },
});
const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiProvider api={api}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ApiProvider>
  </StrictMode>,
);
