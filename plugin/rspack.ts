import { unplugin } from './index.js';

/** toolprep for rspack: `plugins: [toolprep()]`. */
export default unplugin.rspack;
