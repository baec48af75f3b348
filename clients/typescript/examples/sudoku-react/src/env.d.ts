// The build-time settings the app reads (Vite's import.meta.env).
/// <reference types="vite/client" />
interface ImportMetaEnv {
  /** The service's address, such as "https://puzzles.example" (default http://localhost:8080). */
  readonly VITE_PUZZLED_URL?: string;
}
