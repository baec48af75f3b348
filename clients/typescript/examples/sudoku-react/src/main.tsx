// The entry point: the game mounted into index.html's #root.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './app.css';

createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);
