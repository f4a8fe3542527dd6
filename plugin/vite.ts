import { unplugin } from './index.js';

/** toolprep for vite: `plugins: [toolprep()]`. */
export default unplugin.vite;
