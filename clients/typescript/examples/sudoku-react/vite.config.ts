// Vite's configuration for the reference app: React (JSX, Fast Refresh in `npm run dev`) and nothing else.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [react()] });
