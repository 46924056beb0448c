import './styles.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Outlet, RouterProvider, useNavigate } from 'react-router';
import { ErrorScreen } from './components/layout/ErrorScreen';
import { Layout } from './components/layout/Layout';
import { createQueryClient } from './lib/query';
import { routes } from './routes';

function Shell() {
  return (
    <Layout>
      <Outlet />
    </Layout>
  );
}

function RouteError() {
  const navigate = useNavigate();
  return (
    <Layout>
      <ErrorScreen onRetry={() => navigate(0)} />
    </Layout>
  );
}

const queryClient = createQueryClient();
const router = createBrowserRouter([{ Component: Shell, errorElement: <RouteError />, children: routes }]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
