// Connection settings. The base URL is remembered in localStorage (it is no secret); the API key
// stays in memory, or in this tab's sessionStorage when the user asks for it. It is never written
// to localStorage, the address bar or the console.

const BASE_URL = 'kis-console.baseUrl';
const API_KEY = 'kis-console.apiKey';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/api';

export interface Settings {
  baseUrl: string;
  apiKey: string | undefined;
}

function storage(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return window[kind];
  } catch {
    return undefined; // storage disabled by the browser
  }
}

/** The saved settings; `?baseUrl=` in the page address wins over the saved base URL. */
export function loadSettings(): Settings {
  const fromQuery = new URLSearchParams(window.location.search).get('baseUrl');
  return {
    baseUrl: fromQuery ?? storage('localStorage')?.getItem(BASE_URL) ?? DEFAULT_BASE_URL,
    apiKey: storage('sessionStorage')?.getItem(API_KEY) ?? undefined,
  };
}

/** Saves the base URL, and the key only when given (else any saved key is removed). */
export function saveSettings(settings: Settings): void {
  storage('localStorage')?.setItem(BASE_URL, settings.baseUrl);
  if (settings.apiKey === undefined) storage('sessionStorage')?.removeItem(API_KEY);
  else storage('sessionStorage')?.setItem(API_KEY, settings.apiKey);
}

export function forgetKey(): void {
  storage('sessionStorage')?.removeItem(API_KEY);
}
