import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { Providers } from './app/Providers';
import { adoptTokenFromUrl } from './api/token';
import './app/theme.css';
import './app/styles.css';

// Before anything reads the address bar: the token leaves it, the selection stays.
adoptTokenFromUrl();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <App />
    </Providers>
  </StrictMode>,
);
