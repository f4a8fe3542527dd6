import { defineConfig } from '@toolprep/build';

export default defineConfig({ include: ['src/**/*.ts'] });
