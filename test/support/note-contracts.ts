import { defineTool } from 'toolprep';
import { z } from 'zod';

/**
 * The contracts the auth tests serve, asking for the scopes the test issuer grants
 * (auth-server.ts): two tools open to every authenticated caller (the config makes `status`
 * public), one that needs `notes:read`, one that needs `notes:write`. Each test adds its own.
 */
export const noteContracts = {
  status: defineTool({ description: 'Say whether the service is up.', input: z.object({}) }),
  whoami: defineTool({ description: 'Name the caller.', input: z.object({}) }),
  readNote: defineTool({
    description: 'Read a note.',
    input: z.object({ path: z.string() }),
    scopes: ['notes:read'],
  }),
  writeNote: defineTool({
    description: 'Write a note.',
    input: z.object({ path: z.string() }),
    scopes: ['notes:write'],
  }),
};
