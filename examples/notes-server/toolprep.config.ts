import { defineConfig } from '@toolprep/build/config';

export default defineConfig({ include: ['src/**/*.ts'] });
