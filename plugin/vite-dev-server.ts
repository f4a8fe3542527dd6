import type { ServerResponse } from 'node:http';
import { REPORT_PATH } from '../src/generate/report-server.js';
import type { SourceChange } from '../src/generate/watch.js';
import type { PluginSession, Sink } from './session.js';

type LogOptions = { timestamp: boolean };

/** The part of Vite's dev server the plugin uses. */
export interface ViteDevServerLike {
  config: {
    logger: {
      info(text: string, options: LogOptions): void;
      warn(text: string, options: LogOptions): void;
      error(text: string, options: LogOptions): void;
    };
  };
  watcher: { on(event: 'all', listener: (event: string, file: string) => void): unknown };
  middlewares: {
    use(route: string, handle: (request: { url?: string }, response: ServerResponse) => void): unknown;
  };
}

/** Vite's watcher events, in the source watcher's words; a folder's own events say nothing. */
const CHANGES: Readonly<Record<string, SourceChange>> = {
  add: 'added',
  unlink: 'removed',
  change: 'changed',
};

/**
 * The dev server builds nothing on change: its own watcher's events go to the source watcher,
 * whose regeneration Vite then sees as a change of the module. It also serves the surface report.
 */
export function configureDevServer(server: ViteDevServerLike, session: PluginSession): void {
  const { logger } = server.config;
  const sink: Sink = {
    info: (text) => logger.info(text, { timestamp: true }),
    warn: (text) => logger.warn(text, { timestamp: true }),
    error: (text) => logger.error(text, { timestamp: true }),
  };
  const watcher = session.watch(sink, false);
  server.watcher.on('all', (event, file) => {
    const change = Object.hasOwn(CHANGES, event) ? CHANGES[event] : undefined;
    if (change) watcher.notice(file, change);
  });
  // The surface report, live, compared with the manifest of the last commit.
  const report = session.report();
  server.middlewares.use(REPORT_PATH, (request, response) => {
    void report.answer(request.url).then((answer) => {
      response.statusCode = answer.status;
      response.setHeader('content-type', answer.contentType);
      response.end(answer.body);
    });
  });
  logger.info(`[toolprep] the tool surface report: ${REPORT_PATH}`, { timestamp: true });
}
