// A configuration mistake, named by the field it is in. main.ts prints it on one line, exit 2.

/** ConfigError says which field of the configuration is wrong and why. */
export class ConfigError extends Error {
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`invalid config: ${field}: ${problem}`);
    this.name = 'ConfigError';
    this.field = field;
  }
}
