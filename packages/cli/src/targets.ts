/**
 * Where a command's targets come from: operands, `-f FILE` and `-` (stdin), in that order.
 * Files and stdin hold one target per line; `#` starts a comment; blank lines are skipped.
 * Commands whose targets never contain spaces (addresses) also split lines on whitespace and
 * commas, so `ips.txt` can be a CSV column or a pasted list.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { InvalidInputError } from '@netdiag/core/one-shot';
import type { CliIO } from './io.js';

export interface TargetSources {
  operands: readonly string[];
  file?: string | undefined;
  /** Split on whitespace and commas too (targets that cannot contain them). */
  splitWords?: boolean;
}

export interface CollectedTargets {
  targets: string[];
  /** Read from a file or stdin: the output is a batch even for one target. */
  fromList: boolean;
}

export async function collectTargets(io: CliIO, sources: TargetSources): Promise<CollectedTargets> {
  const targets: string[] = [];
  let fromList = false;
  const addText = (text: string) => {
    fromList = true;
    // indexOf before each regular expression: the expressions ran on every line of 100,000 and
    // cost 90 ms of `netdiag bulk` (BENCHMARKS.md).
    for (const raw of text.split('\n')) {
      const hash = raw.indexOf('#');
      const line = (hash < 0 ? raw : raw.slice(0, hash)).trim();
      if (line === '') continue;
      if (sources.splitWords && /[\s,]/.test(line)) {
        for (const word of line.split(/[\s,]+/)) if (word !== '') targets.push(word);
      } else targets.push(line);
    }
  };
  for (const operand of sources.operands) {
    if (operand === '-') {
      if (!io.stdin) throw new InvalidInputError('standard input is not available');
      addText(await io.stdin());
    } else targets.push(operand);
  }
  if (sources.file !== undefined) {
    let text: string;
    try {
      text = await readFile(sources.file, 'utf8');
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new InvalidInputError(
        `cannot read ${sources.file}: ${code === 'ENOENT' ? 'no such file' : (code ?? (error as Error).message)}`,
        'file',
      );
    }
    addText(text);
  }
  return { targets, fromList };
}
