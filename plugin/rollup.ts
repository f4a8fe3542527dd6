import { unplugin } from './index.js';

/** toolprep for rollup: `plugins: [toolprep()]`. */
export default unplugin.rollup;
