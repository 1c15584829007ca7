import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/base.css';
import './sign.css';
import { SigningApp } from './signing-app.js';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <SigningApp />
    </StrictMode>,
  );
}
