import { unplugin } from './index.js';

/** toolprep for esbuild: `plugins: [toolprep()]`. */
export default unplugin.esbuild;
