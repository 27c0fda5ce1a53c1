// The prompt for a bearer token, shown when an API answers 401: the page and its files are
// served without a token, the data never is. The token entered is kept for this tab
// (TokenStore) and sent with every request; a later 401 (a token removed from the server's
// config, or mistyped) clears it and brings the prompt back. A modal dialog, so the keyboard
// focus goes to the token box and stays in the prompt until a token is given.

import { h } from './dom.js';
import type { TokenStore } from './token-store.js';

/** TokenPrompt asks for a token and hands it on. */
export class TokenPrompt {
  readonly element: HTMLDialogElement;
  private readonly input = h('input', { id: 'token-input', name: 'token', type: 'password', autocomplete: 'off', required: true, spellcheck: 'false' });
  private readonly note = h('p', { id: 'token-note', class: 'hint' });

  constructor(private readonly tokens: TokenStore, private readonly onToken: () => void) {
    const form = h('form', { method: 'dialog' },
      h('h2', { id: 'token-title' }, 'Sign in to cachegate'), this.note,
      h('label', { for: this.input.id }, 'Bearer token'), this.input,
      h('div', { class: 'dialog-actions' }, h('button', { type: 'submit' }, 'Use this token')));
    this.element = h('dialog', { class: 'token-prompt', 'aria-labelledby': 'token-title', 'aria-describedby': 'token-note' }, form);
    this.input.setAttribute('aria-describedby', 'token-note');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const token = this.input.value.trim();
      if (token === '') return;
      this.tokens.set(token);
      this.input.value = '';
      this.element.close();
      this.onToken();
    });
    // Escape would leave a page that can show nothing: the prompt stays until a token is given.
    this.element.addEventListener('cancel', (event) => event.preventDefault());
  }

  /** show opens the prompt (once, however many requests were refused); refused: a token was sent and refused. */
  show(refused: boolean): void {
    if (this.element.open) return;
    this.note.textContent = refused
      ? 'The server refused the token (401 Unauthorized): enter a valid one. It is kept in this browser tab only.'
      : 'This cachegate needs a bearer token for its data. It is kept in this browser tab only.';
    this.element.showModal();
    this.input.focus();
  }
}
