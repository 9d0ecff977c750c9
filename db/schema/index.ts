import { usersTable, apiKeysTable } from './users.ts';
import { spacesTable } from './spaces.ts';
import { bindingsTable } from './bindings.ts';
import { versionsTable } from './versions.ts';
import { setsTable, setItemsTable } from './sets.ts';
import { sharesTable } from './shares.ts';
import { commentsTable } from './comments.ts';
import { helpTopicsTable, settingsTable } from './meta.ts';
import { webSessionsTable, loginLinksTable } from './web.ts';
import { oauthClientsTable, oauthCodesTable, oauthTokensTable } from './oauth.ts';
import { bindingVectorsTable } from './vectors.ts';
import { syncRootsTable, syncFilesTable } from './sync.ts';

export {
  usersTable,
  apiKeysTable,
  spacesTable,
  bindingsTable,
  versionsTable,
  setsTable,
  setItemsTable,
  sharesTable,
  commentsTable,
  helpTopicsTable,
  settingsTable,
  webSessionsTable,
  loginLinksTable,
  oauthClientsTable,
  oauthCodesTable,
  oauthTokensTable,
  bindingVectorsTable,
  syncRootsTable,
  syncFilesTable,
};

/** The whole schema, for drizzle's relational helpers. */
export const schema = {
  usersTable,
  apiKeysTable,
  spacesTable,
  bindingsTable,
  versionsTable,
  setsTable,
  setItemsTable,
  sharesTable,
  commentsTable,
  helpTopicsTable,
  settingsTable,
  webSessionsTable,
  loginLinksTable,
  oauthClientsTable,
  oauthCodesTable,
  oauthTokensTable,
  bindingVectorsTable,
  syncRootsTable,
  syncFilesTable,
};
