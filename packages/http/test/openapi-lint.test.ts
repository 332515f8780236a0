/**
 * The served OpenAPI document lints clean with the two linters client authors use: Redocly CLI
 * (its `recommended` ruleset) and Spectral (`spectral:oas`). No errors, and no warnings but the
 * one listed below with its reason; a new warning fails, so it is fixed or listed here.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@netdiag/test-utils';
import { beforeAll, describe, expect, test } from 'vitest';
import { runTool, servedDocument } from './openapi-tools.js';

/**
 * Spectral's `info-contact`: a self-hosted server has its own operator, whom the document
 * cannot name; a contact of the project would send a deployment's users to the wrong people.
 */
const SPECTRAL_WARNINGS_KEPT = ['info-contact'];

let dir: string;
let file: string;

beforeAll(async () => {
  dir = tempDir('netdiag-openapi-lint-');
  file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(await servedDocument(), null, 2));
  writeFileSync(join(dir, 'spectral.yaml'), 'extends: ["spectral:oas"]\n');
});

/** `rule at pointer: message`, for a failure that says what to fix. */
const line = (rule: string, where: string, message: string) => `${rule} at ${where}: ${message}`;

describe('the served OpenAPI document lints clean', () => {
  test('Redocly CLI, recommended ruleset: no errors, no warnings', async () => {
    const run = await runTool(
      '@redocly/cli',
      'redocly',
      ['lint', '--extends', 'recommended', '--format', 'json', file],
      dir,
    );
    const report = JSON.parse(run.stdout) as {
      problems: {
        ruleId: string;
        severity: string;
        message: string;
        location: { pointer: string }[];
      }[];
    };
    const problems = (severity: string) =>
      report.problems
        .filter((p) => p.severity === severity)
        .map((p) => line(p.ruleId, p.location[0]?.pointer ?? '', p.message));
    expect(problems('error')).toEqual([]);
    expect(problems('warn')).toEqual([]);
    expect(run.code).toBe(0);
  });

  test('Spectral, spectral:oas: no errors; warnings only those kept with a reason', async () => {
    const run = await runTool(
      '@stoplight/spectral-cli',
      'spectral',
      ['lint', '--ruleset', join(dir, 'spectral.yaml'), '--format', 'json', file],
      dir,
    );
    // Spectral severities: 0 error, 1 warning, 2 information, 3 hint.
    const results = JSON.parse(run.stdout) as {
      code: string;
      severity: number;
      message: string;
      path: string[];
    }[];
    const problems = (severity: number) =>
      results
        .filter((r) => r.severity === severity)
        .map((r) => line(r.code, r.path.join('.'), r.message));
    expect(problems(0)).toEqual([]);
    expect(results.filter((r) => r.severity === 1).map((r) => r.code)).toEqual(
      SPECTRAL_WARNINGS_KEPT,
    );
    expect(problems(2)).toEqual([]);
  });
});
