import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient } from '@tanstack/react-query';
import { VitrineProvider } from '@vitrine/react';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { client } from './client';
import './index.css';

const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <VitrineProvider client={client} queryClient={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </VitrineProvider>
  </StrictMode>,
);
