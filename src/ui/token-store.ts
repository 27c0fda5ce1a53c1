// The bearer token of this tab. It lives in sessionStorage: it survives a reload of the tab and
// goes when the tab closes, and other tabs never see it. A browser that refuses storage (some
// private modes) still works for the life of the page.

/** TOKEN_KEY is the sessionStorage key of the token. */
export const TOKEN_KEY = 'cachegate.dashboard.token';

/** TokenStore reads the token afresh on every request, so a token changed elsewhere in the tab is used at once. */
export class TokenStore {
  private fallback: string | null = null;

  get(): string | null {
    try {
      return sessionStorage.getItem(TOKEN_KEY);
    } catch {
      return this.fallback;
    }
  }

  set(token: string): void {
    this.fallback = token;
    try {
      sessionStorage.setItem(TOKEN_KEY, token);
    } catch {
      // storage refused: the fallback keeps it for this page
    }
  }

  clear(): void {
    this.fallback = null;
    try {
      sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      // nothing stored
    }
  }
}
