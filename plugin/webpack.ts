import { unplugin } from './index.js';

/** toolprep for webpack: `plugins: [toolprep()]`. */
export default unplugin.webpack;
