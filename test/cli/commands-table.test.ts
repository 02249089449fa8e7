/**
 * The CLI imports a command's module only when that command runs, so the list `assay --help` prints
 * comes from a table in src/cli/main.ts. The table and the commands must agree: every command the
 * modules register is listed, under its own description, and each listed name loads its command.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, fullProgram, program } from '../../src/cli/main.ts';

describe('the command table', () => {
  it('lists every registered command under its own description', async () => {
    const full = await fullProgram();
    const listed = await program([]);
    const summaries = new Map(listed.commands.map((c) => [c.name(), c.description()]));
    expect(full.commands.map((c) => c.name()).sort()).toEqual([...COMMAND_NAMES].sort());
    for (const c of full.commands) expect([c.name(), summaries.get(c.name())]).toEqual([c.name(), c.description()]);
  }, 120_000);

  it('registers the named command in full and the others by name only', async () => {
    for (const name of COMMAND_NAMES) {
      const cli = await program([name, '--help']);
      const cmd = cli.commands.find((c) => c.name() === name)!;
      // A stub has no options and no action; the full command has at least its help option's siblings.
      expect(cmd.options.length + cmd.registeredArguments.length + cmd.commands.length, name).toBeGreaterThan(0);
      expect(cli.commands.map((c) => c.name()).sort()).toEqual([...COMMAND_NAMES].sort());
    }
  }, 120_000);
});
