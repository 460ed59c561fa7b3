import type { Locator } from '../config/assert-format.js';
import type { ConfigError } from '../config/errors.js';

/** What an empty or blank message is told, after what names it (`--message`, `the message`). */
export function emptyMessageText(subject: string): string {
  return `${subject} is empty; give the message text`;
}

/**
 * The messages of a test_run's inputs whose content is empty or blank: a message that says
 * nothing is a mistake, refused alike by --message, --inputs, MCP test_run and testRun
 * (docs/cli.md, test-run). `locate` is at the messages list.
 */
export function emptyMessageProblems(messages: unknown, locate: Locator): ConfigError[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message: unknown, index) => {
    const content = (message as { content?: unknown } | null)?.content;
    return typeof content === 'string' && content.trim() === '' ? [locate([index, 'content'], emptyMessageText('the message'))] : [];
  });
}
