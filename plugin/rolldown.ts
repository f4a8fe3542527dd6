import { unplugin } from './index.js';

/** toolprep for rolldown: `plugins: [toolprep()]`. */
export default unplugin.rolldown;
