import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/base.css';
import { addScriptFonts } from '../shared/script-fonts.js';
import './dashboard.css';
import { DashboardApp } from './dashboard-app.js';

addScriptFonts();
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <DashboardApp />
    </StrictMode>,
  );
}
