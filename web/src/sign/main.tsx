import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/base.css';
import { addScriptFonts } from '../shared/script-fonts.js';
import './sign.css';
import { SigningApp } from './signing-app.js';

addScriptFonts();
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <SigningApp />
    </StrictMode>,
  );
}
