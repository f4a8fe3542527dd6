import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import type { ToolprepPluginOptions } from '../../plugin/index.js';

export type BundlerName = 'vite' | 'rollup' | 'rolldown' | 'esbuild' | 'webpack' | 'rspack';

/** Builds `bundle-entry.ts` of the project at `root` into `outDir/main.js` with the toolprep plugin. */
export type Build = (root: string, outDir: string, options: ToolprepPluginOptions) => Promise<void>;

const ENTRY = 'bundle-entry.ts';
const require = createRequire(import.meta.url);
export const isPackage = (id: string): boolean =>
  !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('\0');

/** For bundlers that do not map a `.js` specifier to the `.ts` file beside it (NodeNext style). */
export const tsFromJs = {
  name: 'ts-from-js',
  resolveId(source: string, importer: string | undefined) {
    if (!importer || !source.startsWith('.') || !source.endsWith('.js')) return null;
    const candidate = path.resolve(path.dirname(importer), source.replace(/\.js$/, '.ts'));
    return existsSync(candidate) ? candidate : null;
  },
};

export function webpackLikeConfig(root: string, outDir: string, plugin: unknown, loader: object) {
  return {
    context: root,
    entry: path.join(root, ENTRY),
    target: 'node20',
    mode: 'production' as const,
    devtool: false as const,
    optimization: { minimize: false },
    experiments: { outputModule: true },
    output: {
      path: outDir,
      filename: 'main.js',
      chunkFilename: '[name].[contenthash].js',
      module: true,
      chunkFormat: 'module' as const,
      chunkLoading: 'import' as const,
      library: { type: 'module' },
    },
    externalsType: 'module' as const,
    externals: [
      ({ request }: { request?: string }, callback: (error?: Error | null, result?: string) => void) =>
        request && isPackage(request) ? callback(null, request) : callback(),
    ],
    resolve: { extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } },
    module: { rules: [{ test: /\.ts$/, ...loader }] },
    plugins: [plugin],
    infrastructureLogging: { level: 'error' as const },
  };
}

function runCompiler(compiler: {
  run(
    callback: (
      error: Error | null,
      stats?: { hasErrors(): boolean; toString(options: object): string },
    ) => void,
  ): void;
  close(callback: () => void): void;
}): Promise<void> {
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => {
        if (error) reject(error);
        else if (stats?.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
        else resolve();
      });
    });
  });
}

/** The esbuild options these tests build the entry with. */
export function esbuildOptions(root: string, outDir: string, plugin: Plugin): BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: { main: path.join(root, ENTRY) },
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
    plugins: [plugin],
  };
}

/** How webpack and Rspack read TypeScript in these tests. */
export const WEBPACK_TS_LOADER = { loader: require.resolve('esbuild-loader'), options: { target: 'node20' } };
export const RSPACK_TS_LOADER = {
  loader: 'builtin:swc-loader',
  options: { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } },
  type: 'javascript/auto',
};

/** One table of real bundlers, each building the same entry with the same plugin options. */
export const bundlers: Record<BundlerName, Build> = {
  async vite(root, outDir, options) {
    const { build } = await import('vite');
    const { default: toolprep } = await import('@toolprep/build/vite');
    await build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [toolprep(options)],
      ssr: { external: true },
      build: {
        ssr: ENTRY,
        outDir,
        emptyOutDir: true,
        rolldownOptions: { output: { format: 'es', entryFileNames: 'main.js' } },
      },
    });
  },
  async rollup(root, outDir, options) {
    const { rollup } = await import('rollup');
    const { default: esbuild } = await import('rollup-plugin-esbuild');
    const { default: toolprep } = await import('@toolprep/build/rollup');
    // Rollup has no root of its own: the plugin is told, as a user running it elsewhere would.
    const bundle = await rollup({
      input: path.join(root, ENTRY),
      external: isPackage,
      plugins: [toolprep({ root, ...options }), tsFromJs, esbuild({ target: 'node20' })],
      onwarn: () => {},
    });
    await bundle.write({ dir: outDir, format: 'es', entryFileNames: 'main.js' });
    await bundle.close();
  },
  async rolldown(root, outDir, options) {
    const { rolldown } = await import('rolldown');
    const { default: toolprep } = await import('@toolprep/build/rolldown');
    const bundle = await rolldown({
      input: path.join(root, ENTRY),
      cwd: root,
      platform: 'node',
      external: isPackage,
      plugins: [toolprep(options)],
      resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
      logLevel: 'silent',
    });
    await bundle.write({ dir: outDir, format: 'es', entryFileNames: 'main.js' });
    await bundle.close();
  },
  async esbuild(root, outDir, options) {
    const { build } = await import('esbuild');
    const { default: toolprep } = await import('@toolprep/build/esbuild');
    await build(esbuildOptions(root, outDir, toolprep(options)));
  },
  async webpack(root, outDir, options) {
    const { default: webpack } = await import('webpack');
    const { default: toolprep } = await import('@toolprep/build/webpack');
    await runCompiler(
      webpack(webpackLikeConfig(root, outDir, toolprep(options), WEBPACK_TS_LOADER) as never) as never,
    );
  },
  async rspack(root, outDir, options) {
    const { rspack } = await import('@rspack/core');
    const { default: toolprep } = await import('@toolprep/build/rspack');
    await runCompiler(
      rspack(webpackLikeConfig(root, outDir, toolprep(options), RSPACK_TS_LOADER) as never) as never,
    );
  },
};
