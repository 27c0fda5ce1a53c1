// Drives GraphiQL 3 as a user does: writes into its editors, presses its buttons, reads its
// result pane. Editors are CodeMirror 5; text is inserted as one input event (as a paste is), so
// bracket auto-closing and autocompletion, which react to key presses, leave it unchanged.

import type { Page } from 'playwright-core';

const QUERY_EDITOR = '.graphiql-query-editor .CodeMirror';
/** The variables and headers editors share one panel; the one shown is not `.hidden`. */
const SHOWN_TOOL_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror';

/** waitForEditor waits until GraphiQL has rendered its query editor. */
export async function waitForEditor(page: Page): Promise<void> {
  await page.locator(QUERY_EDITOR).waitFor({ state: 'visible' });
}

/**
 * writeQuery replaces the query editor's text, and waits until GraphiQL has taken it in: it parses
 * the query 100 ms after the last edit (before that, a new subscription would still be sent as
 * the old query, over HTTP), in the same step that saves the text in localStorage.
 */
export async function writeQuery(page: Page, text: string): Promise<void> {
  await replaceText(page, QUERY_EDITOR, text);
  await page.waitForFunction((query) => (globalThis as unknown as BrowserWindow).localStorage.getItem('graphiql:query') === query, text);
}

/** BrowserWindow is the part of the page's window used here (the tests compile without the DOM types). */
interface BrowserWindow {
  readonly localStorage: { getItem(key: string): string | null };
}

/** writeHeaders opens the Headers tab and replaces its text (a JSON object of HTTP headers). */
export async function writeHeaders(page: Page, text: string): Promise<void> {
  await page.locator('.graphiql-editor-tools button[data-name="headers"]').click();
  await replaceText(page, SHOWN_TOOL_EDITOR, text);
}

/** run presses the execute button (for a running subscription, the same button stops it). */
export async function run(page: Page): Promise<void> {
  await page.locator('button.graphiql-execute-button').click();
}

/** waitForResult waits until the result pane shows text, and returns all it shows. */
export async function waitForResult(page: Page, text: string): Promise<string> {
  const response = page.locator('.graphiql-response', { hasText: text });
  await response.waitFor({ state: 'visible' });
  return response.innerText();
}

async function replaceText(page: Page, editor: string, text: string): Promise<void> {
  await page.locator(editor).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}
