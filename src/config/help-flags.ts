/** The flags that ask for help, as commander reads them: the launcher, help.json and the CLI agree on them. */
export const HELP_FLAGS: ReadonlySet<string> = new Set(['--help', '-h']);
