import { config } from 'zod/v4';

/**
 * Imported first by each view: Zod probes `new Function` when its first object schema is made
 * (ext-apps' protocol makes hundreds as it loads), which a host's CSP refuses and reports
 * (`script-src eval`). ext-apps' `App` turns the probe off in its constructor, after it has run;
 * turning it off before anything loads keeps the CSP report empty.
 */
config({ jitless: true });
