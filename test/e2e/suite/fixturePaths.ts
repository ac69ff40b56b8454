/** Where fixtures.ts writes the archive of examples/logs/…_refund-agent.json, inside the workspace. */
export const inspectArchivePath = ['logs', '2025-07-05T14-00-00_refund-agent.eval'];
