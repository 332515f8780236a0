import { defineConfig } from 'tsup';
import { baseOptions } from '../../tsup.config.base.js';

export default defineConfig({ ...baseOptions, entry: ['src/index.ts'] });
